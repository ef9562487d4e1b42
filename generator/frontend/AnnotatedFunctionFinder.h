// Finds every function declaration that carries an "overlap.kernel" annotation written on it
// (inherited copies on later redeclarations are not reported again).
#pragma once

#include <vector>

namespace clang {
class AnnotateAttr;
class ASTContext;
class FunctionDecl;
} // namespace clang

namespace overlap::frontend {

struct AnnotatedFunction {
  const clang::FunctionDecl* function = nullptr;
  const clang::AnnotateAttr* attribute = nullptr;
};

// In translation-unit order. Template instantiations are skipped: the templated declaration
// itself is reported once.
std::vector<AnnotatedFunction> findAnnotatedFunctions(clang::ASTContext& context);

} // namespace overlap::frontend
