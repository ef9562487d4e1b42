// The candidate table that the Markdown report and the console summary both print: one row of
// cells per candidate, so the two cannot disagree.
#pragma once

#include "tune/TuningRun.h"

#include <optional>
#include <string>
#include <vector>

namespace overlap::tune {

struct ReportTable {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::vector<std::size_t> candidateOfRow; // index into run.candidates
};

// With `onlyRun`, pruned candidates that were not run are left out (the console's short form).
ReportTable candidateTable(const TuningRun& run, bool onlyRun);

std::string formatMs(const std::optional<double>& seconds);

// Model accuracy per variant: |predicted - measured| / measured over the candidates that ran.
struct AccuracyRow {
  Variant variant;
  int candidates = 0;
  double medianError = 0;
  double maxError = 0;
};
std::vector<AccuracyRow> modelAccuracy(const TuningRun& run);

} // namespace overlap::tune
