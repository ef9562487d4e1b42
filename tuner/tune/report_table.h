// The candidate table that the Markdown report and the console summary both print: one row of
// cells per candidate, so the two cannot disagree.
#pragma once

#include "tune/tuning_run.h"

#include <optional>
#include <string>
#include <vector>

namespace overlap::tune {

struct ReportTable {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::vector<std::size_t> candidate_of_row; // index into run.candidates
};

// With `only_run`, pruned candidates that were not run are left out (the console's short form).
ReportTable candidate_table(const TuningRun& run, bool only_run);

std::string format_ms(const std::optional<double>& seconds);

// Model accuracy per variant: |predicted - measured| / measured over the candidates that ran.
struct AccuracyRow {
  Variant variant;
  int candidates = 0;
  double median_error = 0;
  double max_error = 0;
};
std::vector<AccuracyRow> model_accuracy(const TuningRun& run);

} // namespace overlap::tune
