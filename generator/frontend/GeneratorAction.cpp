#include "frontend/GeneratorAction.h"

#include "frontend/IncludedFiles.h"
#include "frontend/KernelCollector.h"

#include <clang/Frontend/CompilerInstance.h>

namespace overlap::frontend {

GeneratorAction::GeneratorAction(FrontendOutput& output, llvm::raw_ostream& summary)
    : output_(output), summary_(summary), includedFiles_(std::make_shared<IncludedFiles>()) {}

GeneratorAction::~GeneratorAction() = default;

std::unique_ptr<clang::ASTConsumer>
GeneratorAction::CreateASTConsumer(clang::CompilerInstance& compiler, llvm::StringRef /*inFile*/) {
  compiler.setVerboseOutputStream(summary_);
  includedFiles_->attachToPreprocessor(compiler.getPreprocessor());
  // The compiler instance keeps the collector alive as long as its preprocessor, which holds
  // callbacks that refer to it.
  compiler.addDependencyCollector(includedFiles_);
  return std::make_unique<KernelCollector>(compiler, output_);
}

void GeneratorAction::EndSourceFileAction() {
  const llvm::ArrayRef<std::string> files = includedFiles_->getDependencies();
  output_.dependencies.assign(files.begin(), files.end());
}

} // namespace overlap::frontend
