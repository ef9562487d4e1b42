// What one tuning of one kernel call found: every candidate with its prediction, whether it was
// run, its verification and its timing, and the winner. CUDA-free: the search, the reports, the
// cache and their tests use it on any machine. Its JSON form is ReportJson.h.
#pragma once

#include "model/PerformanceModel.h"
#include "overlap/CallMemory.h"
#include "overlap/SampleStats.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace overlap::tune {

// Bumped whenever a change could alter what a tuning measures or picks, so cached results of an
// older tuner are not reused.
inline constexpr const char* kTunerVersion = "8";

enum class Verification : unsigned char {
  NotRun,    // pruned by the model, or the tuning stopped before it
  Reference, // Explicit: what every other candidate is compared with
  Passed,    // every output equal to the reference (within the tolerance, if one was set)
  WrongResult,
  Failed // the call itself failed: out of memory, a launch error...
};

const char* to_string(Verification verification);
std::optional<Verification> parseVerification(const std::string& text);

// How the error of a candidate the supervisor stopped at its time bound begins
// (TuningSupervisor.h; the T4 report calls it a timeout).
inline constexpr const char* kStoppedAtTimeBound = "stopped after ";

struct CandidateOutcome {
  model::Candidate candidate;
  std::optional<double> predictedSeconds; // nullopt: the model does not describe it
  bool predictedIsLowerBound = false;     // model::PredictedCandidate::lower_bound
  bool keptByModel = false;               // in the pruned set
  bool run = false;                       // measured in this tuning (or in the cached one)
  std::string runReason;                  // why it ran (CandidateSearch.h); empty when it did not
  Verification verification = Verification::NotRun;
  std::string error;  // the failing call for Failed, the first mismatch for WrongResult
  SampleStats timing; // seconds of the whole call, transfers included; count 0 if not timed
  std::vector<double> samples; // the timed repeats, in seconds
  // A finalist's first timing, before the final round (FinalRound.h) replaced `samples` and
  // `timing` with its interleaved repeats; empty for the others.
  std::vector<double> screeningSamples;

  bool usable() const {
    return run && timing.count > 0 &&
           (verification == Verification::Reference || verification == Verification::Passed);
  }
};

struct TuningRun {
  // What was tuned.
  std::string kernel;
  std::string sourceFile;
  int sourceLine = 0;
  std::vector<std::pair<std::string, long long>> arguments; // the integer scalars, by name

  // Where.
  std::string device;        // the CUDA device name, empty when no GPU ran anything
  std::string profileName;   // the hardware profile the model used
  std::string profileOrigin; // a file, or "<built-in NAME>"
  std::string modelName;
  std::string date; // ISO date of the tuning

  // How.
  bool exhaustive = false;
  CallMemory memory = CallMemory::Pinned; // of the host arrays
  bool modelOnly = false;                 // nothing was run: no GPU, or asked not to
  double tolerance = 0;     // relative tolerance of floating-point comparisons; 0: exact
  double noise = 0;         // the relative difference below which medians count as equal
  double kernelSeconds = 0; // t_E the model used
  std::string kernelSecondsSource;
  std::vector<std::string> notes; // assumptions, fallbacks, what was not done and why

  std::vector<CandidateOutcome> candidates; // in the model's enumeration order
  std::optional<std::size_t> winner;
  std::vector<std::size_t> withinNoise; // candidates whose median is within noise of the fastest
  std::string winnerReason;
  double wallSeconds = 0;
  bool complete = false; // every candidate it meant to run was run (false: interrupted)
  bool fromCache = false;

  std::optional<std::size_t> find(const model::Candidate& candidate) const;
  std::optional<std::size_t> explicitIndex() const;
  int runCount() const;
  // Speed-up of a candidate's median over Explicit's; nullopt unless both were timed.
  std::optional<double> speedup(std::size_t index) const;
};

} // namespace overlap::tune
