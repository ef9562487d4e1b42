// The human report: what was tuned where, the winner and its speed-up over Explicit, the table of
// every candidate (predicted, measured, spread, verification), the model's accuracy per variant,
// and the SVG plot (written next to it, see svg_plot.h) linked by file name.
#pragma once

#include "tune/tuning_run.h"

#include <string>

namespace overlap::tune {

std::string render_markdown(const TuningRun& run, const std::string& svg_file_name);

} // namespace overlap::tune
