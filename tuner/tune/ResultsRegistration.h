// A results file's entries registered with the dispatch of this process (overlap/Dispatch.h),
// exactly as the table overlap-bake writes from it would be: for programs that tune and then call
// the entry points without a rebuild (the GPU tests, bench/sizes).
#pragma once

#include "tune/ResultsFile.h"

namespace overlap::tune {

// Every entry of `file`; the tables live as long as the process. True when registered.
bool registerResults(const ResultsFile& file);

} // namespace overlap::tune
