// Parses one .cu file with LibTooling over a given file system and collects its annotated
// kernels. Diagnostics go to the caller's consumer.
#pragma once

#include "frontend/FrontendOutput.h"
#include "frontend/ToolchainLayout.h"

#include <llvm/ADT/IntrusiveRefCntPtr.h>

#include <string>
#include <vector>

namespace clang {
class DiagnosticConsumer;
} // namespace clang

namespace llvm {
class raw_ostream;
namespace vfs {
class FileSystem;
} // namespace vfs
} // namespace llvm

namespace overlap::frontend {

struct FrontendRequest {
  std::string inputPath;
  std::vector<std::string> extraArgs; // the user's compiler arguments (-I, -D, -std, ...)
  ToolchainLayout toolchain;
};

// `summary` receives clang's closing "N errors generated" line. The output's errorCount counts
// every error reported to `diagnostics`, the driver's included.
FrontendOutput runFrontend(const FrontendRequest& request,
                           llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fileSystem,
                           clang::DiagnosticConsumer& diagnostics, llvm::raw_ostream& summary);

} // namespace overlap::frontend
