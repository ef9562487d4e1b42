// The crossover chart of a tuning across sizes: for each family (variant and issue order) its best
// time at every size relative to Explicit's there (below 1: faster), the size on a log axis, and
// a band above the plot coloured by each size's winner, so which variant wins where reads at a
// glance. Self-contained SVG (SvgCanvas.h).
#pragma once

#include "tune/SweepRun.h"

#include <string>

namespace overlap::tune {

// Ratios above this are drawn at the top edge: a streamed call at a tiny size can be ten times
// Explicit's, which would flatten everything that matters.
inline constexpr double kCrossoverPlotMaxRatio = 3.0;

std::string renderCrossoverPlot(const SweepRun& sweep);

} // namespace overlap::tune
