#include "frontend/FrontendRunner.h"

#include "frontend/CompilerCommandLine.h"
#include "frontend/GeneratorAction.h"

#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/FileManager.h>
#include <clang/Tooling/Tooling.h>

#include <llvm/Support/VirtualFileSystem.h>

#include <algorithm>

namespace overlap::frontend {

FrontendOutput runFrontend(const FrontendRequest& request,
                           llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fileSystem,
                           clang::DiagnosticConsumer& diagnostics, llvm::raw_ostream& summary) {
  FrontendOutput output;
  const unsigned errorsBefore = diagnostics.getNumErrors();
  auto files = llvm::makeIntrusiveRefCnt<clang::FileManager>(clang::FileSystemOptions(),
                                                             std::move(fileSystem));
  clang::tooling::ToolInvocation invocation(
      buildCompilerCommandLine(request.toolchain, request.inputPath, request.extraArgs),
      std::make_unique<GeneratorAction>(output, summary), files.get());
  invocation.setDiagnosticConsumer(&diagnostics);
  const bool ran = invocation.run();
  output.errorCount = diagnostics.getNumErrors() - errorsBefore;
  if (!ran && output.errorCount == 0) // a failure clang did not report; never let it pass
    output.errorCount = 1;

  // The input comes first whatever order the preprocessor reported it in.
  auto& dependencies = output.dependencies;
  dependencies.erase(std::remove(dependencies.begin(), dependencies.end(), request.inputPath),
                     dependencies.end());
  dependencies.insert(dependencies.begin(), request.inputPath);
  return output;
}

} // namespace overlap::frontend
