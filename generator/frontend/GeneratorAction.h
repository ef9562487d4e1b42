// The frontend action the generator runs on a .cu file: a syntax-only parse whose consumer
// collects the annotated kernels, while the preprocessor records the included files and the uses
// of OVERLAP_KERNEL.
#pragma once

#include "frontend/FrontendOutput.h"

#include <clang/Frontend/FrontendAction.h>

#include <memory>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace overlap::frontend {

class DeferredDiagnostics;
class IncludedFiles;

class GeneratorAction : public clang::ASTFrontendAction {
public:
  // `summary` receives clang's "N errors generated" line; it goes wherever the diagnostics go.
  // `diagnostics` is the consumer the parse reports to, held until the kernels are known.
  GeneratorAction(FrontendOutput& output, llvm::raw_ostream& summary,
                  DeferredDiagnostics& diagnostics);
  ~GeneratorAction() override;

protected:
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance& compiler,
                                                        llvm::StringRef inFile) override;
  void EndSourceFileAction() override;

private:
  FrontendOutput& output_;
  llvm::raw_ostream& summary_;
  DeferredDiagnostics& diagnostics_;
  std::shared_ptr<IncludedFiles> includedFiles_;
};

} // namespace overlap::frontend
