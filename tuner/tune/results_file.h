// The tuning-results file a user keeps in their source tree, like a lock file: for every kernel
// and device the tuned winner. overlap_tune() writes it; overlap_add_kernels(... TUNING_RESULTS)
// bakes it into the build, where the generated entry points dispatch to it (overlap/dispatch.h).
// Schema "overlap-tuning-results" version 1, documented in docs/tuner.md.
#pragma once

#include "model/performance_model.h"

#include <string>
#include <utility>
#include <vector>

namespace overlap::tune {

inline constexpr int kResultsSchemaVersion = 1;

struct ResultsEntry {
  std::string kernel;
  std::string device; // CUDA device name, as cudaGetDeviceProperties spells it
  std::vector<std::pair<std::string, long long>> arguments; // the size it was tuned at
  model::Candidate choice;
  double median_seconds = 0;
  double speedup_over_explicit = 0; // 0: unknown
  std::string date;
  std::string report; // the JSON report it came from, for people
};

struct ResultsFile {
  std::vector<ResultsEntry> entries;

  // Adds `entry`, replacing the entry of the same kernel and device.
  void put(const ResultsEntry& entry);
  const ResultsEntry* find(const std::string& kernel, const std::string& device) const;
};

std::string to_json_text(const ResultsFile& file);
// False with `error` set when the text is not a results file of this schema version or an entry
// is incomplete; the error names the entry.
bool from_json_text(const std::string& text, ResultsFile* file, std::string* error);

// Reads `path`; a missing file is an empty ResultsFile (the first tuning creates it).
bool read_results_file(const std::string& path, ResultsFile* file, std::string* error);
bool write_results_file(const std::string& path, const ResultsFile& file, std::string* error);

} // namespace overlap::tune
