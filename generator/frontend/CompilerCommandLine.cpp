#include "frontend/CompilerCommandLine.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

namespace overlap::frontend {

std::vector<std::string> buildCompilerCommandLine(const ToolchainLayout& toolchain,
                                                  const std::string& inputPath,
                                                  const std::vector<std::string>& extraArgs) {
  std::vector<std::string> args = {
      "clang++",
      "-fsyntax-only",
      // Host-only: the driver then plans one compilation, which is what LibTooling runs, and the
      // host AST is all the generator needs (kernel signatures and their annotations).
      "--cuda-host-only",
      "--cuda-path=" + toolchain.cudaPath,
      "-resource-dir",
      toolchain.resourceDir,
      // Clang knows CUDA versions only up to its release; newer toolkits parse fine.
      "-Wno-unknown-cuda-version",
      // Clang knows __managed__ for HIP only and warns that CUDA's is ignored; nvcc compiles the
      // file, and the generator reads no variable's memory space from that attribute.
      "-Wno-ignored-attributes",
      // Every error is weighed (an error in host code the kernels do not need is only a
      // warning), so none may be cut off.
      "-ferror-limit=0",
      "-isystem",
      toolchain.shimDir,
      // The cache-hint loads and stores Clang's CUDA headers lack (shim/overlap_cache_hints.h).
      "-include",
      "overlap_cache_hints.h",
      // __grid_constant__ where Clang lacks it (shim/overlap_grid_constant.h).
      "-include",
      "overlap_grid_constant.h",
  };
  // CUDA 13 moved the CCCL headers (cuda/std, thrust, cub) out of include/; nvcc adds this path
  // itself, clang does not.
  llvm::SmallString<256> cccl(toolchain.cudaPath);
  llvm::sys::path::append(cccl, "include", "cccl");
  if (llvm::sys::fs::is_directory(cccl)) {
    args.push_back("-isystem");
    args.push_back(std::string(cccl));
  }
  args.insert(args.end(),
              {"-I", toolchain.overlapIncludeDir, "-D__OVERLAP_GENERATOR__=1", "-std=c++17"});
  args.insert(args.end(), extraArgs.begin(), extraArgs.end());
  // -x applies to the inputs after it; the user's args may not carry another input language.
  args.insert(args.end(), {"-x", "cuda", inputPath});
  return args;
}

} // namespace overlap::frontend
