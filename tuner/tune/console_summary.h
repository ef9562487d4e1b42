// The table printed at the end of a tuning: the candidates that ran (all of them for a model-only
// run), aligned for a terminal, then the winner in one line; and a sweep's table of winners.
#pragma once

#include "tune/sweep_run.h"
#include "tune/tuning_run.h"

#include <ostream>

namespace overlap::tune {

void print_console_summary(std::ostream& out, const TuningRun& run);

// The last line of print_console_summary alone: what one size of a sweep prints.
void print_winner_line(std::ostream& out, const TuningRun& run);

// The end of a sweep: per size its winner, time and speed-up over Explicit, then the crossovers.
void print_sweep_summary(std::ostream& out, const SweepRun& sweep);

} // namespace overlap::tune
