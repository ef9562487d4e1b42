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
// Runs in this process: what --no-supervise and a supervised worker (--worker-fd) do.
int runTuneCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// The tool (OverlapTuneMain.cpp): when candidates would run, starts this executable again as a
// worker under a TuningSupervisor, before anything touches CUDA here (a fork after CUDA is set up
// is undefined), so a hung or crashing candidate is stopped, recorded and passed over, and an
// interrupt leaves a cache the next run resumes from. Otherwise (--help, --list, --model-only,
// --no-supervise) it is runTuneCommand. Extra exit codes: 128 + the signal when interrupted
// (130 for SIGINT); 2 also when the reference hangs or crashes.
int runTuneTool(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace overlap::tune
