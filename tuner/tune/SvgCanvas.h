// What the tuner's SVG plots share (SvgPlot.h: time against stream count; CrossoverPlot.h: the
// winner against size): number formatting, one colour per variant and issue order, polylines and
// legend entries. Self-contained SVG, no plotting dependency.
#pragma once

#include "overlap/KernelTypes.h"

#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace overlap::tune {

// One decimal: pixel coordinates and axis labels.
std::string svgNumber(double value);
// Streams blue (breadth-first cyan), Hybrid red (breadth-first orange), Mapped green, Explicit
// grey.
std::string variantColor(Variant variant, IssueOrder order);
// `text` with &, < and > escaped, for labels.
std::string svgEscape(const std::string& text);

// A line through `points` (pixels): dashed, or solid with a dot at every point.
void svgPolyline(std::ostream& out, const std::vector<std::pair<double, double>>& points,
                 const std::string& color, bool dashed);
// A short line sample at (x, y) and `label` to its right.
void svgLegendEntry(std::ostream& out, double x, double y, const std::string& label,
                    const std::string& color, bool dashed);

} // namespace overlap::tune
