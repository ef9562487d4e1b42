// The helpers a kernel's analyses look into: a called function with a body, a few calls deep, not
// one already being looked into (recursion). VectorAccessFinder and GridSyncFinder follow calls
// alike through this.
#pragma once

#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <llvm/ADT/ArrayRef.h>

#include <set>

namespace overlap::frontend {

// The functions being looked into, the kernel first.
using ActiveFunctions = std::set<const clang::FunctionDecl*>;

// The definition of `call`'s callee to look into, or null where the call is not followed.
const clang::FunctionDecl* followedDefinition(const clang::CallExpr& call,
                                              const ActiveFunctions& active);

// The arguments of `call` that bind its callee's parameters, in order: a member operator's call
// (a functor's op(x, i), a lambda's) passes the object first, which binds none.
llvm::ArrayRef<const clang::Expr*> parameterArguments(const clang::CallExpr& call);

} // namespace overlap::frontend
