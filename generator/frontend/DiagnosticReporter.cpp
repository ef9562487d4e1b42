#include "frontend/DiagnosticReporter.h"

#include <algorithm>

namespace overlap::frontend {

DiagnosticReporter::DiagnosticReporter(clang::DiagnosticsEngine& engine)
    : engine_(engine), errorId_(engine.getCustomDiagID(clang::DiagnosticsEngine::Error, "%0")),
      warningId_(engine.getCustomDiagID(clang::DiagnosticsEngine::Warning, "%0")),
      noteId_(engine.getCustomDiagID(clang::DiagnosticsEngine::Note, "%0")) {}

void DiagnosticReporter::report(Severity severity, clang::SourceLocation at,
                                llvm::StringRef message, clang::CharSourceRange highlight) {
  unsigned id = errorId_;
  if (severity == Severity::Warning)
    id = warningId_;
  else if (severity == Severity::Note)
    id = noteId_;
  clang::DiagnosticBuilder builder = engine_.Report(at, id);
  builder << message;
  if (highlight.isValid())
    builder << highlight;
}

void DiagnosticReporter::reportAnnotation(const annotation::Diagnostics& findings,
                                          clang::SourceLocation textBegin, unsigned textLength) {
  for (const annotation::Diagnostic& finding : findings) {
    const unsigned begin = std::min(finding.offset, textLength);
    const unsigned end = std::min(begin + finding.length, textLength);
    const clang::SourceLocation at = textBegin.getLocWithOffset(static_cast<int>(begin));
    clang::CharSourceRange highlight;
    if (end > begin)
      highlight = clang::CharSourceRange::getCharRange(
          at, textBegin.getLocWithOffset(static_cast<int>(end)));
    report(finding.severity, at, finding.message, highlight);
  }
}

} // namespace overlap::frontend
