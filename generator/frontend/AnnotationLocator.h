// Maps an "overlap.kernel" attribute in the AST back to the OVERLAP_KERNEL(...) text the user
// wrote. The attribute's own location lies inside the macro's definition (annotate.h); the
// expansion range is the invocation in the user's file, whose raw text holds the annotation.
#pragma once

#include <clang/Basic/SourceLocation.h>

#include <string>

namespace clang {
class AnnotateAttr;
class SourceManager;
} // namespace clang

namespace overlap::frontend {

inline constexpr const char* kKernelAnnotation = "overlap.kernel";
inline constexpr const char* kKernelMacro = "OVERLAP_KERNEL";

struct AnnotationSource {
  clang::SourceLocation invocation; // the macro name, in the file it was written in
  std::string text;                 // between the parentheses, verbatim
  // Location of text[0]; text[i] is at begin.getLocWithOffset(i). Invalid when `error` is set.
  clang::SourceLocation begin;
  std::string error; // why the text could not be found
  bool ok() const { return error.empty(); }
};

AnnotationSource locateAnnotation(const clang::AnnotateAttr& attribute,
                                  const clang::SourceManager& sources);

} // namespace overlap::frontend
