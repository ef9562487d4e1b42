#include "frontend/DeferredDiagnostics.h"

namespace overlap::frontend {

void DeferredDiagnostics::BeginSourceFile(const clang::LangOptions& options,
                                          const clang::Preprocessor* preprocessor) {
  target_.BeginSourceFile(options, preprocessor);
}

void DeferredDiagnostics::EndSourceFile() {
  target_.EndSourceFile();
}

void DeferredDiagnostics::finish() {
  target_.finish();
}

void DeferredDiagnostics::HandleDiagnostic(clang::DiagnosticsEngine::Level level,
                                           const clang::Diagnostic& info) {
  if (passing_) {
    DiagnosticConsumer::HandleDiagnostic(level, info);
    target_.HandleDiagnostic(level, info);
    return;
  }
  held_.emplace_back(level, info);
}

bool DeferredDiagnostics::holdsFatalError() const {
  for (const clang::StoredDiagnostic& diagnostic : held_)
    if (diagnostic.getLevel() == clang::DiagnosticsEngine::Fatal)
      return true;
  return false;
}

void DeferredDiagnostics::release(clang::DiagnosticsEngine& engine, const Judge& harmless,
                                  const Relocation& relocate) {
  std::vector<clang::StoredDiagnostic> held;
  held.swap(held_);
  passing_ = true;
  for (const clang::StoredDiagnostic& diagnostic : held) {
    clang::DiagnosticsEngine::Level level = diagnostic.getLevel();
    std::string message = diagnostic.getMessage().str();
    if (level == clang::DiagnosticsEngine::Error && harmless(diagnostic)) {
      level = clang::DiagnosticsEngine::Warning;
      message += " [clang cannot parse this, but the annotated kernels do not need it]";
    }
    const clang::FullSourceLoc moved = relocate ? relocate(diagnostic) : clang::FullSourceLoc();
    if (level == diagnostic.getLevel() && !moved.isValid()) {
      engine.Report(diagnostic);
      continue;
    }
    // A moved diagnostic keeps no ranges: they point where it was made.
    engine.Report(clang::StoredDiagnostic(
        level, diagnostic.getID(), message, moved.isValid() ? moved : diagnostic.getLocation(),
        moved.isValid() ? llvm::ArrayRef<clang::CharSourceRange>() : diagnostic.getRanges(),
        moved.isValid() ? llvm::ArrayRef<clang::FixItHint>() : diagnostic.getFixIts()));
  }
}

void DeferredDiagnostics::drop() {
  held_.clear();
  passing_ = true;
}

} // namespace overlap::frontend
