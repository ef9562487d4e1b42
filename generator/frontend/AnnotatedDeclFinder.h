// Finds every declaration that carries an "overlap.kernel" annotation written on it (inherited
// copies on later redeclarations are not reported again). Mostly functions; anything else is a
// misplaced OVERLAP_KERNEL the collector reports.
#pragma once

#include <vector>

namespace clang {
class AnnotateAttr;
class ASTContext;
class Decl;
} // namespace clang

namespace overlap::frontend {

struct AnnotatedDecl {
  const clang::Decl* decl = nullptr;
  const clang::AnnotateAttr* attribute = nullptr;
};

// In translation-unit order. Template instantiations are skipped: the templated declaration
// itself is reported once.
std::vector<AnnotatedDecl> findAnnotatedDecls(clang::ASTContext& context);

} // namespace overlap::frontend
