// After the parse: finds the annotated kernels of the main file, checks where and how they are
// declared, reads their signatures and annotations, and builds their IR, reporting every problem
// as a located compiler diagnostic.
#pragma once

#include "frontend/FrontendOutput.h"

#include <clang/AST/ASTConsumer.h>

namespace clang {
class CompilerInstance;
} // namespace clang

namespace overlap::frontend {

class KernelCollector : public clang::ASTConsumer {
public:
  KernelCollector(clang::CompilerInstance& compiler, FrontendOutput& output)
      : compiler_(compiler), output_(output) {}

  void HandleTranslationUnit(clang::ASTContext& context) override;

private:
  clang::CompilerInstance& compiler_;
  FrontendOutput& output_;
};

} // namespace overlap::frontend
