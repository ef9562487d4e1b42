#include "frontend/GeneratorAction.h"

#include "frontend/AnnotationRecorder.h"
#include "frontend/DeferredDiagnostics.h"
#include "frontend/IncludedFiles.h"
#include "frontend/KernelCollector.h"

#include <clang/Frontend/CompilerInstance.h>
#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>

#include <set>

namespace overlap::frontend {

GeneratorAction::GeneratorAction(FrontendOutput& output, llvm::raw_ostream& summary,
                                 DeferredDiagnostics& diagnostics)
    : output_(output), summary_(summary), diagnostics_(diagnostics),
      includedFiles_(std::make_shared<IncludedFiles>()) {}

GeneratorAction::~GeneratorAction() = default;

std::unique_ptr<clang::ASTConsumer>
GeneratorAction::CreateASTConsumer(clang::CompilerInstance& compiler, llvm::StringRef /*inFile*/) {
  compiler.setVerboseOutputStream(summary_);
  includedFiles_->attachToPreprocessor(compiler.getPreprocessor());
  // The compiler instance keeps the collector alive as long as its preprocessor, which holds
  // callbacks that refer to it.
  compiler.addDependencyCollector(includedFiles_);
  auto uses = std::make_shared<AnnotationUses>();
  compiler.getPreprocessor().addPPCallbacks(std::make_unique<AnnotationRecorder>(uses));
  diagnostics_.hold();
  return std::make_unique<KernelCollector>(compiler, output_, uses, diagnostics_);
}

void GeneratorAction::EndSourceFileAction() {
  // A parse that never reached the collector (its input could not be read) still says why.
  if (diagnostics_.holding())
    diagnostics_.release(getCompilerInstance().getDiagnostics(),
                         [](const clang::StoredDiagnostic&) { return false; });
  // Clang names headers as its driver found them, e.g. "/usr/bin/../lib/gcc/.../../../include"
  // through the /lib -> /usr/lib link; build tools normalise ".." lexically and would look for a
  // file that does not exist, re-running the step every time. Real paths survive that; a file
  // that exists only in a virtual file system keeps its name.
  output_.dependencies.clear();
  std::set<std::string> seen;
  for (const std::string& file : includedFiles_->getDependencies()) {
    llvm::SmallString<256> real;
    const std::string name = llvm::sys::fs::real_path(file, real) ? file : std::string(real.str());
    if (seen.insert(name).second)
      output_.dependencies.push_back(name);
  }
}

} // namespace overlap::frontend
