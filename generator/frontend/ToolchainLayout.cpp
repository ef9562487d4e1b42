#include "frontend/ToolchainLayout.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

#include <cstdlib>
#include <initializer_list>

#ifndef OVERLAP_BUILD_INCLUDE_DIR
#error "OVERLAP_BUILD_INCLUDE_DIR must name the source tree's runtime/include"
#endif
#ifndef OVERLAP_BUILD_SHIM_DIR
#error "OVERLAP_BUILD_SHIM_DIR must name the source tree's generator/shim"
#endif
#ifndef OVERLAP_CLANG_RESOURCE_DIR
#error "OVERLAP_CLANG_RESOURCE_DIR must name the resource dir of the Clang linked in"
#endif

namespace overlap::frontend {
namespace {

// path::append with an empty component appends a separator, so components are added one by one.
std::string joinPath(llvm::StringRef base, std::initializer_list<llvm::StringRef> components) {
  llvm::SmallString<256> path(base);
  for (llvm::StringRef component : components)
    llvm::sys::path::append(path, component);
  return std::string(path);
}

std::optional<ToolchainLayout> installedLayout(const std::string& executablePath) {
  if (executablePath.empty())
    return std::nullopt;
  const llvm::StringRef binDir = llvm::sys::path::parent_path(executablePath);
  const llvm::StringRef prefix = llvm::sys::path::parent_path(binDir);
  if (prefix.empty())
    return std::nullopt;
  ToolchainLayout layout;
  layout.overlapIncludeDir = joinPath(prefix, {"include"});
  layout.shimDir = joinPath(prefix, {"share", "overlap", "shim"});
  const bool complete =
      llvm::sys::fs::exists(joinPath(layout.overlapIncludeDir, {"overlap", "annotate.h"})) &&
      llvm::sys::fs::exists(joinPath(layout.shimDir, {"texture_fetch_functions.h"}));
  if (!complete)
    return std::nullopt;
  return layout;
}

} // namespace

ToolchainLayout locateToolchain(const std::string& executablePath,
                                const std::string& cudaPathOverride, const char* cudaPathEnv) {
  ToolchainLayout layout;
  if (std::optional<ToolchainLayout> installed = installedLayout(executablePath)) {
    layout = *installed;
  } else {
    layout.overlapIncludeDir = OVERLAP_BUILD_INCLUDE_DIR;
    layout.shimDir = OVERLAP_BUILD_SHIM_DIR;
  }
  // The installed generator still links the system's libclang-cpp, whose builtin headers stay
  // where that package put them.
  layout.resourceDir = OVERLAP_CLANG_RESOURCE_DIR;
  if (!cudaPathOverride.empty())
    layout.cudaPath = cudaPathOverride;
  else if (cudaPathEnv != nullptr && *cudaPathEnv != '\0')
    layout.cudaPath = cudaPathEnv;
  else
    layout.cudaPath = "/usr/local/cuda";
  return layout;
}

ToolchainLayout locateToolchainForThisProcess(const std::string& cudaPathOverride) {
  // Any function of this binary anchors the lookup of its path (/proc/self/exe on Linux).
  static int anchor = 0;
  const std::string executable = llvm::sys::fs::getMainExecutable(nullptr, &anchor);
  return locateToolchain(executable, cudaPathOverride, std::getenv("CUDA_PATH"));
}

} // namespace overlap::frontend
