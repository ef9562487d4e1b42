// A results file's entries registered with the dispatch of this process (overlap/dispatch.h),
// exactly as the table overlap-bake writes from it would be: for programs that tune and then call
// the entry points without a rebuild (the GPU tests, bench/sizes).
#pragma once

#include "tune/results_file.h"

namespace overlap::tune {

// Every entry of `file`; the tables live as long as the process. True when registered.
bool register_results(const ResultsFile& file);

} // namespace overlap::tune
