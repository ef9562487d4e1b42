// The clang command line the generator parses a user's .cu file with: host-side CUDA, syntax
// only, with OVERLAP_KERNEL expanding to an attribute the AST keeps.
#pragma once

#include "frontend/ToolchainLayout.h"

#include <string>
#include <vector>

namespace overlap::frontend {

// Driver arguments, argv[0] first and the input last. `extraArgs` (the user's -I/-D/-std...) come
// after the generator's own flags, so the user's -std wins.
std::vector<std::string> buildCompilerCommandLine(const ToolchainLayout& toolchain,
                                                  const std::string& inputPath,
                                                  const std::vector<std::string>& extraArgs);

} // namespace overlap::frontend
