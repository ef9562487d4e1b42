// overlap-gen's behaviour behind its command line: generate, then write the outputs atomically or
// remove stale ones, and map the outcome to the exit status.
#pragma once

#include "frontend/ToolCommandLine.h"

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace overlap::frontend {

enum class ToolExit : int {
  Success = 0,
  InputErrors = 1,   // the input does not compile or its annotations are wrong
  UsageOrIoError = 2 // bad command line, unreadable input, unwritable outputs
};

// Runs the tool for parsed options. Results (--dump-ir, --version, --help) go to `out`;
// diagnostics to `err`, colored if `colors`.
ToolExit runTool(const ToolOptions& options, llvm::raw_ostream& out, llvm::raw_ostream& err,
                 bool colors);

// The whole tool for main(): parses argv, reports usage errors, runs.
int overlapGenMain(int argc, const char* const* argv);

} // namespace overlap::frontend
