// After the parse: pairs each OVERLAP_KERNEL with the kernel it stands before, checks where and
// how that kernel is declared, reads its signature (or its instantiations', for a template) and
// annotation, and builds the IR; also the file's __constant__ and __device__ variables. Every
// problem is reported as a located compiler diagnostic.
#pragma once

#include "frontend/AnnotationRecorder.h"
#include "frontend/FrontendOutput.h"

#include <clang/AST/ASTConsumer.h>

#include <memory>

namespace clang {
class CompilerInstance;
} // namespace clang

namespace overlap::frontend {

class DeferredDiagnostics;

class KernelCollector : public clang::ASTConsumer {
public:
  KernelCollector(clang::CompilerInstance& compiler, FrontendOutput& output,
                  std::shared_ptr<AnnotationUses> uses, DeferredDiagnostics& diagnostics)
      : compiler_(compiler), output_(output), uses_(std::move(uses)), diagnostics_(diagnostics) {}

  void HandleTranslationUnit(clang::ASTContext& context) override;

private:
  clang::CompilerInstance& compiler_;
  FrontendOutput& output_;
  std::shared_ptr<AnnotationUses> uses_;
  DeferredDiagnostics& diagnostics_;
};

} // namespace overlap::frontend
