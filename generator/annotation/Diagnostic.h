// A finding about an annotation, located by byte offset into the annotation text; the frontend
// turns offsets into file:line:col with a caret.
#pragma once

#include <string>
#include <vector>

namespace overlap::annotation {

struct Diagnostic {
  enum class Severity { Error, Warning, Note };
  Severity severity = Severity::Error;
  unsigned offset = 0; // into the annotation text
  unsigned length = 0; // of the offending text (0: a point)
  std::string message; // lower-case start, says what is wrong and how to fix it
};

using Diagnostics = std::vector<Diagnostic>;

inline bool hasErrors(const Diagnostics& diags) {
  for (const Diagnostic& d : diags)
    if (d.severity == Diagnostic::Severity::Error)
      return true;
  return false;
}

} // namespace overlap::annotation
