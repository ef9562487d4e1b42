#include "frontend/VectorAccessFinder.h"

#include "frontend/DerivedPointers.h"
#include "frontend/FollowedCalls.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>

#include <algorithm>
#include <map>
#include <set>

namespace overlap::frontend {
namespace {

using ParamSet = std::set<unsigned>;

// What each parameter of a function needs: the widest alignment its accesses assume.
using Needs = std::vector<unsigned>;
using Calls = CallFollower<Needs>;

Needs alignmentsOf(const clang::FunctionDecl& function, Calls& calls);

class Finder : public clang::RecursiveASTVisitor<Finder> {
public:
  Finder(const clang::FunctionDecl& kernel, Calls& calls)
      : alignments(kernel.getNumParams(), 0), kernel_(kernel), context_(kernel.getASTContext()),
        calls_(calls), pointers_(kernel) {}

  Needs alignments;

  bool VisitExplicitCastExpr(clang::ExplicitCastExpr* cast) {
    const auto* pointer = cast->getType()->getAs<clang::PointerType>();
    if (pointer == nullptr || pointer->getPointeeType()->isIncompleteType() ||
        pointer->getPointeeType()->isDependentType())
      return true;
    const unsigned alignment = static_cast<unsigned>(
        context_.getTypeAlignInChars(pointer->getPointeeType()).getQuantity());
    require(reached(cast->getSubExpr()), alignment);
    return true;
  }

  // A helper the kernel passes a parameter to (a function with a body: llm.c's load128cs and
  // store128, which cast to int4*): what the helper needs of its own parameter, the kernel's
  // needs of what it passed.
  bool VisitCallExpr(clang::CallExpr* call) {
    const clang::FunctionDecl* definition = calls_.definition(*call);
    if (definition == nullptr)
      return true;
    const Needs needs = alignmentsOf(*definition, calls_);
    const llvm::ArrayRef<const clang::Expr*> arguments = parameterArguments(*call);
    const unsigned args = std::min<unsigned>(arguments.size(), definition->getNumParams());
    for (unsigned i = 0; i < args; ++i)
      if (needs[i] > 0)
        require(reached(arguments[i]), needs[i]);
    return true;
  }

private:
  // The parameters in `params` must keep `alignment` where their own type does not already.
  void require(const ParamSet& params, unsigned alignment) {
    for (unsigned param : params) {
      const clang::QualType own = kernel_.getParamDecl(param)->getType()->getPointeeType();
      if (own.isNull() || own->isIncompleteType() || own->isDependentType())
        continue;
      const unsigned ownAlignment =
          static_cast<unsigned>(context_.getTypeAlignInChars(own).getQuantity());
      if (alignment > ownAlignment && alignment > alignments[param])
        alignments[param] = alignment;
    }
  }

  ParamSet reached(const clang::Stmt* stmt) const { return pointers_.reached(stmt); }

  const clang::FunctionDecl& kernel_;
  clang::ASTContext& context_;
  Calls& calls_;
  DerivedPointers pointers_;
};

Needs alignmentsOf(const clang::FunctionDecl& function, Calls& calls) {
  if (function.getBody() == nullptr)
    return Needs(function.getNumParams(), 0);
  return calls.follow(function, [&calls](const clang::FunctionDecl& followed) {
    Finder finder(followed, calls);
    finder.TraverseStmt(followed.getBody());
    return finder.alignments;
  });
}

} // namespace

std::vector<unsigned> vectorAccessAlignments(const clang::FunctionDecl& kernel) {
  Calls calls;
  return alignmentsOf(kernel, calls);
}

} // namespace overlap::frontend
