// The tuning-results file a user keeps in their source tree, like a lock file: for every kernel
// and device the winner at each size it was tuned at. overlap_tune() writes it; overlap-bake
// (BakeCommand.h) turns it into the table the generated entry points dispatch by
// (overlap/Dispatch.h, overlap/TunedSizes.h). Schema "overlap-tuning-results" version 4,
// documented in docs/tuner.md: an entry per kernel, device and host memory (pinned, registered,
// pageable or managed).
// Version 4 adds a winner's chunk count ("chunks", absent: one per stream); a file without one is
// written as version 3, which is version 4 without chunks, so that builds reading only version 3
// still read it, and refuse (as written by a newer Overlap) a file whose winners they would run
// with the wrong chunk count. Versions 1 (one size per kernel) and 2 (no memory: pageable tunings
// were not told from pinned ones) are refused with the advice to re-tune.
#pragma once

#include "model/PerformanceModel.h"
#include "overlap/CallMemory.h"

#include <string>
#include <utility>
#include <vector>

namespace overlap::tune {

inline constexpr int kResultsSchemaVersion = 4;
// The oldest version read: version 4 without chunks.
inline constexpr int kOldestResultsSchemaVersion = 3;

// The winner at one size.
struct ResultsSize {
  long long extent = 0; // the partition extent P of the call tuned
  std::vector<std::pair<std::string, long long>> arguments; // the integer arguments of that call
  model::Candidate choice;
  double medianSeconds = 0;
  double predictedSeconds = 0;    // the model's prediction of the winner there; 0: none
  double kernelSeconds = 0;       // t_E the tuning used
  double speedupOverExplicit = 0; // 0: unknown
  std::string report;             // the JSON report it came from, for people
};

struct ResultsEntry {
  std::string kernel;
  std::string device;                     // CUDA device name, as cudaGetDeviceProperties spells it
  CallMemory memory = CallMemory::Pinned; // the host memory of the tuned calls
  std::string date;
  std::string sweep;              // "n=4096..268435456:7" for a sweep, "" for a tuning at one size
  std::vector<ResultsSize> sizes; // at least one; extents ascending and distinct
};

struct ResultsFile {
  std::vector<ResultsEntry> entries;

  // Adds `entry`, replacing the entry of the same kernel, device and memory.
  void put(const ResultsEntry& entry);
  const ResultsEntry* find(const std::string& kernel, const std::string& device,
                           CallMemory memory = CallMemory::Pinned) const;
};

// Version kOldestResultsSchemaVersion when no winner has chunks of its own, else
// kResultsSchemaVersion.
std::string toJsonText(const ResultsFile& file);
// False with `error` set when the text is not a results file of this schema version or a field is
// missing or wrong; the error names the field by its path ("entries[0].sizes[2].variant"). `older`,
// if given, says whether it failed because the file is of an earlier schema version.
bool fromJsonText(const std::string& text, ResultsFile* file, std::string* error,
                  bool* older = nullptr);

// Reads `path`; a missing file is an empty ResultsFile (the first tuning creates it). Errors start
// with the path.
bool readResultsFile(const std::string& path, ResultsFile* file, std::string* error,
                     bool* older = nullptr);
bool writeResultsFile(const std::string& path, const ResultsFile& file, std::string* error);

} // namespace overlap::tune
