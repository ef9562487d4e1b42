// The reports of a tuning across sizes, beside each size's own: JSON (schema
// "overlap-sweep-report", documented in docs/tuner.md) and Markdown -- the winner against size,
// each variant's best time at every size, the crossovers -- with the crossover chart
// (CrossoverPlot.h) linked by file name.
#pragma once

#include "tune/SweepRun.h"

#include <string>

namespace overlap::tune {

inline constexpr int kSweepReportSchemaVersion = 1;

std::string sweepJsonText(const SweepRun& sweep);
std::string renderSweepMarkdown(const SweepRun& sweep, const std::string& svgFileName);

} // namespace overlap::tune
