// The report's plot as a self-contained SVG: predicted (dashed) and measured (solid) time of the
// whole call against the stream count for every streamed variant and issue order, Explicit and
// Mapped as horizontal lines (they use no streams), the winner ringed. No plotting dependency.
#pragma once

#include "tune/TuningRun.h"

#include <string>

namespace overlap::tune {

std::string renderSvgPlot(const TuningRun& run);

} // namespace overlap::tune
