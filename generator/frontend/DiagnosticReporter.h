// Reports the generator's findings through the compiler's DiagnosticsEngine, so they print like
// clang's own: file:line:col, the source line and a caret under the offending text.
#pragma once

#include "annotation/Diagnostic.h"

#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/SourceLocation.h>

#include <llvm/ADT/StringRef.h>

namespace overlap::frontend {

class DiagnosticReporter {
public:
  using Severity = annotation::Diagnostic::Severity;

  explicit DiagnosticReporter(clang::DiagnosticsEngine& engine);

  // `highlight` may be invalid (a caret only).
  void report(Severity severity, clang::SourceLocation at, llvm::StringRef message,
              clang::CharSourceRange highlight = {});
  void error(clang::SourceLocation at, llvm::StringRef message,
             clang::CharSourceRange highlight = {}) {
    report(Severity::Error, at, message, highlight);
  }
  void warning(clang::SourceLocation at, llvm::StringRef message) {
    report(Severity::Warning, at, message);
  }
  void note(clang::SourceLocation at, llvm::StringRef message) {
    report(Severity::Note, at, message);
  }

  // Findings of the annotation checker, located by offset into an annotation text of
  // `textLength` characters starting at `textBegin` (offsets past its end are clamped to it).
  void reportAnnotation(const annotation::Diagnostics& findings, clang::SourceLocation textBegin,
                        unsigned textLength);

private:
  clang::DiagnosticsEngine& engine_;
  unsigned errorId_;
  unsigned warningId_;
  unsigned noteId_;
};

} // namespace overlap::frontend
