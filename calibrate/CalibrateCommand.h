// What overlap-calibrate does for each mode; the executable's main only parses the command line
// and calls this. Output goes to the given streams so it can be captured.
#pragma once

#include "CalibrateOptions.h"

#include <ostream>

namespace overlap::calibration {

// Exit codes: 0 done; 1 an error (CUDA, file, bad input); 2 the profile was refused because of
// a poor fit (nothing written but the raw measurements); 3 the accuracy check missed a target.
int runCalibrateCommand(const CalibrateOptions& options, std::ostream& out, std::ostream& log);

} // namespace overlap::calibration
