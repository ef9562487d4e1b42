// The helpers a kernel's analyses look into: a called function with a body, up to kMaxCallDepth
// calls deep, not one already being looked into (recursion). ParameterAccessFinder,
// VectorAccessFinder and GridSyncFinder follow calls alike through a CallFollower.
#pragma once

#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <llvm/ADT/ArrayRef.h>

#include <cstddef>
#include <map>
#include <set>
#include <utility>

namespace overlap::frontend {

// How deep calls are followed: helpers of helpers of helpers (ATen's and CUB's chains of
// load/store helpers, llm.c's load128cs calling __ldcs on a cast). Each function is analysed once
// per depth, so a helper called from many places costs no more than that.
constexpr std::size_t kMaxCallDepth = 10;

// The definition with a body of `call`'s direct callee; null where there is none.
const clang::FunctionDecl* calleeDefinition(const clang::CallExpr& call);

// One analysis's walk through the calls, with `Result` the analysis of one function.
template <class Result> class CallFollower {
public:
  // The definition of `call`'s callee to look into, or null where the call is not followed (no
  // body, recursion, too deep).
  const clang::FunctionDecl* definition(const clang::CallExpr& call) const {
    const clang::FunctionDecl* definition =
        active_.size() > kMaxCallDepth ? nullptr : calleeDefinition(call);
    return definition != nullptr && active_.count(definition) == 0 ? definition : nullptr;
  }

  // `analyze(function)` with `function` being looked into; computed once per depth.
  template <class Analyze> Result follow(const clang::FunctionDecl& function, Analyze&& analyze) {
    const std::pair<const clang::FunctionDecl*, std::size_t> key(&function, active_.size());
    if (const auto found = done_.find(key); found != done_.end())
      return found->second;
    active_.insert(&function);
    Result result = analyze(function);
    active_.erase(&function);
    done_.emplace(key, result);
    return result;
  }

private:
  std::set<const clang::FunctionDecl*> active_;
  std::map<std::pair<const clang::FunctionDecl*, std::size_t>, Result> done_;
};

// The arguments of `call` that bind its callee's parameters, in order: a member operator's call
// (a functor's op(x, i), a lambda's) passes the object first, which binds none.
llvm::ArrayRef<const clang::Expr*> parameterArguments(const clang::CallExpr& call);

} // namespace overlap::frontend
