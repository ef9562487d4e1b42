// The command line of a tuning executable (overlap_tune() links the tuner's main into one per
// project, with the project's generated kernels in it). Parsed without CUDA, so it is unit-tested
// anywhere.
#pragma once

#include "overlap/CallMemory.h"
#include "tune/SizeSweep.h"
#include "tune/Tuner.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace overlap::tune {

struct TuneOptions {
  std::vector<std::string> kernels;           // empty: every registered kernel
  std::map<std::string, long long> arguments; // --arg NAME=VALUE, over the tune(...) defaults
  // --sweep NAME=LO..HI[:COUNT] (and --refine N): the kernels that have the argument NAME are
  // tuned at several of its values (SizeSweep.h); the others at one size.
  std::optional<SweepSpec> sweep;
  std::string profile;                      // name or file; empty: pick one for the device
  std::string outputDir = "overlap-tuning"; // reports: <kernel>.tuning.{json,md,svg}
  std::string resultsFile;                  // lock file to update with the winners
  std::optional<std::string> cacheDir;      // default <outputDir>/cache; --no-cache: none
  bool modelOnly = false;
  bool quiet = false;
  bool list = false;
  double tolerance = 0;
  // --memory: the host memory of the tuned calls, each tuned in turn (default pinned only).
  std::vector<CallMemory> memories = {CallMemory::Pinned};
  std::optional<std::uint64_t> seed; // default: a fresh one per run
  int device = 0;
  TunerOptions tuner;
  bool help = false;
  // The tool runs the candidates in a supervised worker (TuningSupervisor.h) unless this is
  // false (--no-supervise); a worker is started with the channel's descriptor (--worker-fd, not
  // for people).
  bool supervise = true;
  std::optional<int> workerFd;
};

// `args` without the program name. False with `error` set for a malformed command line.
bool parseTuneOptions(const std::vector<std::string>& args, TuneOptions* options,
                      std::string* error);
std::string tuneUsage(const std::string& program);

} // namespace overlap::tune
