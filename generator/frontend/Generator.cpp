#include "frontend/Generator.h"

#include "frontend/FrontendRunner.h"
#include "frontend/ToolchainLayout.h"

#include <clang/Basic/DiagnosticOptions.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>

#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/VirtualFileSystem.h>
#include <llvm/Support/raw_ostream.h>

namespace overlap::frontend {
namespace {

GeneratorResult runOn(const GeneratorRequest& request,
                      llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fileSystem,
                      llvm::raw_ostream& diagnostics, bool colors) {
  auto options = llvm::makeIntrusiveRefCnt<clang::DiagnosticOptions>();
  options->ShowColors = colors;
  clang::TextDiagnosticPrinter printer(diagnostics, options.get());

  FrontendRequest frontendRequest;
  frontendRequest.inputPath = request.inputPath;
  frontendRequest.extraArgs = request.compilerArgs;
  frontendRequest.toolchain = locateToolchainForThisProcess(request.cudaPath);

  GeneratorResult result;
  result.frontend = runFrontend(frontendRequest, std::move(fileSystem), printer, diagnostics);
  if (result.frontend.ok())
    result.files = emit::emitFiles(
        {result.frontend.kernels, result.frontend.globals, result.frontend.header}, request.emit);
  diagnostics.flush();
  return result;
}

} // namespace

GeneratorResult generate(const GeneratorRequest& request, llvm::raw_ostream& diagnostics,
                         bool colors) {
  return runOn(request, llvm::vfs::getRealFileSystem(), diagnostics, colors);
}

InMemoryResult generateInMemory(const GeneratorRequest& request, const std::string& code,
                                const std::map<std::string, std::string>& otherFiles) {
  // A physical file system with its own working directory: the overlay propagates working
  // directory changes to every layer, and the process-wide one would move the process's.
  auto overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(
      llvm::vfs::createPhysicalFileSystem());
  auto memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  overlay->pushOverlay(memory);
  memory->addFile(request.inputPath, 0, llvm::MemoryBuffer::getMemBufferCopy(code));
  for (const auto& [path, contents] : otherFiles)
    memory->addFile(path, 0, llvm::MemoryBuffer::getMemBufferCopy(contents));

  InMemoryResult run;
  llvm::raw_string_ostream diagnostics(run.diagnostics);
  run.result = runOn(request, overlay, diagnostics, /*colors=*/false);
  diagnostics.flush();
  return run;
}

emit::EmitOptions defaultEmitOptions(const std::string& inputInclude, const std::string& headerPath,
                                     const std::string& inputPath) {
  emit::EmitOptions options;
  options.inputInclude = inputInclude;
  options.headerInclude = std::string(llvm::sys::path::filename(headerPath));
  options.baseName = std::string(llvm::sys::path::stem(inputPath));
  return options;
}

} // namespace overlap::frontend
