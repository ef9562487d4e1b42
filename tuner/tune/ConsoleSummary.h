// The table printed at the end of a tuning: the candidates that ran (all of them for a model-only
// run), aligned for a terminal, then the winner in one line; and a sweep's table of winners.
#pragma once

#include "tune/SweepRun.h"
#include "tune/TuningRun.h"

#include <ostream>

namespace overlap::tune {

void printConsoleSummary(std::ostream& out, const TuningRun& run);

// The last line of printConsoleSummary alone: what one size of a sweep prints.
void printWinnerLine(std::ostream& out, const TuningRun& run);

// The end of a sweep: per size its winner, time and speed-up over Explicit, then the crossovers.
void printSweepSummary(std::ostream& out, const SweepRun& sweep);

} // namespace overlap::tune
