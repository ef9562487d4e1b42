// The table printed at the end of a tuning: the candidates that ran (all of them for a model-only
// run), aligned for a terminal, then the winner in one line.
#pragma once

#include "tune/tuning_run.h"

#include <ostream>

namespace overlap::tune {

void print_console_summary(std::ostream& out, const TuningRun& run);

} // namespace overlap::tune
