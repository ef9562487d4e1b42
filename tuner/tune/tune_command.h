// What a tuning executable does (its main only forwards here): for every selected kernel, build the
// call from the descriptor, choose the profile, tune on the GPU (or only predict without one),
// write the JSON, Markdown and SVG reports, update the results file and print the summary.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace overlap::tune {

// Exit codes: 0 done (also when nothing could be run and only predictions were written); 1 a bad
// command line, an unknown kernel or profile, or a file that cannot be written; 2 a kernel's
// reference (Explicit) failed, so no winner could be picked.
int run_tune_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace overlap::tune
