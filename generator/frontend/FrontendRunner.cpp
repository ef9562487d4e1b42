#include "frontend/FrontendRunner.h"

#include "frontend/CompilerCommandLine.h"
#include "frontend/DeferredDiagnostics.h"
#include "frontend/GeneratorAction.h"

#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/FileManager.h>
#include <clang/Tooling/Tooling.h>

#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/VirtualFileSystem.h>

#include <algorithm>

namespace overlap::frontend {
namespace {

FrontendOutput parseOnce(const FrontendRequest& request,
                         llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fileSystem,
                         clang::DiagnosticConsumer& diagnostics, llvm::raw_ostream& summary) {
  FrontendOutput output;
  const unsigned errorsBefore = diagnostics.getNumErrors();
  DeferredDiagnostics deferred(diagnostics);
  auto files = llvm::makeIntrusiveRefCnt<clang::FileManager>(clang::FileSystemOptions(),
                                                             std::move(fileSystem));
  clang::tooling::ToolInvocation invocation(
      buildCompilerCommandLine(request.toolchain, request.inputPath, request.extraArgs),
      std::make_unique<GeneratorAction>(output, summary, deferred), files.get());
  invocation.setDiagnosticConsumer(&deferred);
  const bool ran = invocation.run();
  output.errorCount = diagnostics.getNumErrors() - errorsBefore;
  if (!ran && output.errorCount == 0 && output.instantiationRequests.empty())
    output.errorCount = 1; // a failure clang did not report; never let it pass
  return output;
}

// The input with the instantiation requests of a first parse appended, over `fileSystem`.
llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
withRequests(const std::string& inputPath, const std::string& requests,
             llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fileSystem) {
  auto buffer = fileSystem->getBufferForFile(inputPath);
  if (!buffer)
    return nullptr;
  std::string text = (*buffer)->getBuffer().str();
  if (!text.empty() && text.back() != '\n')
    text += '\n';
  text += requests;
  auto overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(fileSystem);
  auto memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  memory->setCurrentWorkingDirectory(fileSystem->getCurrentWorkingDirectory().get());
  memory->addFile(inputPath, 0, llvm::MemoryBuffer::getMemBufferCopy(text));
  overlay->pushOverlay(memory);
  return overlay;
}

} // namespace

FrontendOutput runFrontend(const FrontendRequest& request,
                           llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fileSystem,
                           clang::DiagnosticConsumer& diagnostics, llvm::raw_ostream& summary) {
  FrontendOutput output = parseOnce(request, fileSystem, diagnostics, summary);
  // Kernel templates: the first parse asked for the instantiations the annotations list and
  // showed nothing; the second, with those requests appended, does the rest.
  if (!output.instantiationRequests.empty()) {
    auto requested = withRequests(request.inputPath, output.instantiationRequests, fileSystem);
    output = requested ? parseOnce(request, requested, diagnostics, summary) : FrontendOutput{};
    if (!requested)
      output.errorCount = 1;
    if (!output.instantiationRequests.empty() && output.errorCount == 0)
      output.errorCount = 1; // cannot happen: the second parse sees every request made
  }

  // The input comes first whatever order the preprocessor reported it in.
  auto& dependencies = output.dependencies;
  dependencies.erase(std::remove(dependencies.begin(), dependencies.end(), request.inputPath),
                     dependencies.end());
  dependencies.insert(dependencies.begin(), request.inputPath);
  return output;
}

} // namespace overlap::frontend
