// Where the generator finds what it parses a user's .cu file with: the Overlap headers
// (overlap/annotate.h), the shim for headers that newer CUDA toolkits dropped, clang's builtin
// headers (resource dir) and the CUDA toolkit.
#pragma once

#include <optional>
#include <string>

namespace overlap::frontend {

struct ToolchainLayout {
  std::string overlapIncludeDir; // holds overlap/annotate.h
  std::string shimDir;           // holds texture_fetch_functions.h
  std::string resourceDir;       // clang's builtin headers, incl. the CUDA wrappers
  std::string cudaPath;          // CUDA toolkit root
};

// The toolchain of an executable at `executablePath`. An installed overlap-gen
// (<prefix>/bin/overlap-gen) uses <prefix>/include and <prefix>/share/overlap/shim; anything else
// (the build tree, test executables) uses the source-tree paths baked in at configure time.
// CUDA: `cudaPathOverride` if not empty, else `cudaPathEnv` (CUDA_PATH) if set and not empty,
// else /usr/local/cuda.
ToolchainLayout locateToolchain(const std::string& executablePath,
                                const std::string& cudaPathOverride, const char* cudaPathEnv);

// locateToolchain for the running executable and the process environment.
ToolchainLayout locateToolchainForThisProcess(const std::string& cudaPathOverride);

} // namespace overlap::frontend
