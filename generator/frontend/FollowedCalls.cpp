#include "frontend/FollowedCalls.h"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/ExprCXX.h>

namespace overlap::frontend {

const clang::FunctionDecl* calleeDefinition(const clang::CallExpr& call) {
  const clang::FunctionDecl* callee = call.getDirectCallee();
  const clang::FunctionDecl* definition = nullptr;
  if (callee == nullptr || callee->getBody(definition) == nullptr)
    return nullptr;
  return definition;
}

llvm::ArrayRef<const clang::Expr*> parameterArguments(const clang::CallExpr& call) {
  llvm::ArrayRef<const clang::Expr*> args(call.getArgs(), call.getNumArgs());
  if (const auto* method = llvm::dyn_cast_or_null<clang::CXXMethodDecl>(call.getDirectCallee());
      method != nullptr && llvm::isa<clang::CXXOperatorCallExpr>(call) && !method->isStatic() &&
      !args.empty())
    return args.drop_front();
  return args;
}

} // namespace overlap::frontend
