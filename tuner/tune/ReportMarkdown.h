// The human report: what was tuned where, the winner and its speed-up over Explicit, the table of
// every candidate (predicted, measured, spread, verification), the model's accuracy per variant,
// and the SVG plot (written next to it, see SvgPlot.h) linked by file name.
#pragma once

#include "tune/TuningRun.h"

#include <string>

namespace overlap::tune {

std::string renderMarkdown(const TuningRun& run, const std::string& svgFileName);

} // namespace overlap::tune
