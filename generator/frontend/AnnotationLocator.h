// Maps an OVERLAP_KERNEL use back to the text the user wrote between its parentheses.
#pragma once

#include "frontend/AnnotationRecorder.h"

#include <clang/Basic/SourceLocation.h>

#include <string>

namespace clang {
class SourceManager;
} // namespace clang

namespace overlap::frontend {

inline constexpr const char* kKernelMacro = "OVERLAP_KERNEL";

struct AnnotationSource {
  clang::SourceLocation invocation; // the macro name, in the file it was written in
  std::string text;                 // between the parentheses, verbatim
  // Location of text[0]; text[i] is at begin.getLocWithOffset(i). Invalid when `error` is set.
  clang::SourceLocation begin;
  std::string error; // why the text could not be found
  bool ok() const { return error.empty(); }
};

AnnotationSource locateAnnotation(const AnnotationUse& use, const clang::SourceManager& sources);

} // namespace overlap::frontend
