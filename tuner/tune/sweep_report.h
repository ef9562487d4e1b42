// The reports of a tuning across sizes, beside each size's own: JSON (schema
// "overlap-sweep-report", documented in docs/tuner.md) and Markdown -- the winner against size,
// each variant's best time at every size, the crossovers -- with the crossover chart
// (crossover_plot.h) linked by file name.
#pragma once

#include "tune/sweep_run.h"

#include <string>

namespace overlap::tune {

inline constexpr int kSweepReportSchemaVersion = 1;

std::string sweep_json_text(const SweepRun& sweep);
std::string render_sweep_markdown(const SweepRun& sweep, const std::string& svg_file_name);

} // namespace overlap::tune
