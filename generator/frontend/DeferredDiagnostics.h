// Holds every diagnostic of a parse until the end of the translation unit, when the collector
// knows which of clang's errors matter: an error in host code that the annotated kernels do not
// need (a launch with a braced block size, which nvcc accepts and clang does not) is shown as a
// warning and the kernels are generated; the rest are shown as they came. A parse whose
// diagnostics a second parse will repeat (for template instantiations) drops them instead.
#pragma once

#include <clang/Basic/Diagnostic.h>

#include <functional>
#include <vector>

namespace overlap::frontend {

class DeferredDiagnostics : public clang::DiagnosticConsumer {
public:
  explicit DeferredDiagnostics(clang::DiagnosticConsumer& target) : target_(target) {}

  void BeginSourceFile(const clang::LangOptions& options,
                       const clang::Preprocessor* preprocessor) override;
  void EndSourceFile() override;
  void finish() override;
  void HandleDiagnostic(clang::DiagnosticsEngine::Level level,
                        const clang::Diagnostic& info) override;

  // From now on diagnostics are held (until then they pass straight through).
  void hold() { passing_ = false; }
  bool holding() const { return !passing_; }

  // What is held so far: the parse failed unless its errors are all harmless.
  const std::vector<clang::StoredDiagnostic>& held() const { return held_; }
  bool holdsFatalError() const;

  using Judge = std::function<bool(const clang::StoredDiagnostic&)>;
  // Where to show a diagnostic instead of where it was made; invalid: where it was made.
  using Relocation = std::function<clang::FullSourceLoc(const clang::StoredDiagnostic&)>;

  // Shows what is held through `engine`, every error for which `harmless` holds as a warning,
  // each where `relocate` says, then passes later diagnostics straight through.
  void release(clang::DiagnosticsEngine& engine, const Judge& harmless,
               const Relocation& relocate = nullptr);
  // Forgets what is held; later diagnostics pass straight through.
  void drop();

private:
  clang::DiagnosticConsumer& target_;
  std::vector<clang::StoredDiagnostic> held_;
  bool passing_ = true;
};

} // namespace overlap::frontend
