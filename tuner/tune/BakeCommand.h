// overlap-bake: reads a tuning-results file with the tuner's reader (ResultsFile.h: its checks,
// its errors naming the file and the field) and writes the dispatch table source
// (DispatchTableSource.h) that overlap_add_kernels(... TUNING_RESULTS) compiles into the
// program. CMake only wires the build step (cmake/OverlapKernels.cmake); its main only forwards
// here.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace overlap::tune {

// `args` without the program name:
//   --output FILE     the source to write (required)
//   --results FILE    the results file; absent, or a file that does not exist: an empty table
//   --model           also install the model's dispatch (the program links overlap_tuner_dispatch)
//   --origin TEXT     what the source's header comment names as its origin
// Exit codes: 0 written (or unchanged), 1 a bad command line, a results file that cannot be used
// (the error names it and the field), or an output that cannot be written. A failure leaves the
// output as it was.
int runBakeCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace overlap::tune
