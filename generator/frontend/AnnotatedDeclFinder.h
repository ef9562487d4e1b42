// Pairs an OVERLAP_KERNEL use with the declaration it stands before: the first declaration that
// starts after it, looking into namespaces and linkage specifications, or the function template
// whose `template <...>` it follows (OVERLAP_KERNEL(...) template <class T> __global__ ...).
#pragma once

#include <clang/Basic/SourceLocation.h>

namespace clang {
class ASTContext;
class Decl;
} // namespace clang

namespace overlap::frontend {

struct AnnotationTarget {
  // The declaration after the annotation (a function or function template when well placed);
  // null when nothing follows it.
  const clang::Decl* decl = nullptr;
  // The annotation stands inside `decl` (its body, its parameter list), not before it.
  bool inside = false;
};

AnnotationTarget findAnnotationTarget(clang::ASTContext& context, clang::SourceLocation end);

} // namespace overlap::frontend
