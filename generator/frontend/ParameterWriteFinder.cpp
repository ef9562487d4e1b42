#include "frontend/ParameterWriteFinder.h"

#include "frontend/FollowedCalls.h"

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

std::vector<clang::SourceLocation> writesOf(const clang::FunctionDecl& function,
                                            ActiveFunctions& active);

// Functions without a body the analysis knows to store through their first argument: CUDA's
// atomics (atomicAdd, atomicCAS, ...), its cache-hinted stores (__stcg, __stcs, __stwb, __stwt)
// and the C library's memcpy, memmove and memset.
bool storesThroughFirstArgument(const clang::FunctionDecl& callee) {
  if (!callee.getDeclName().isIdentifier())
    return false;
  llvm::StringRef name = callee.getName();
  name.consume_front("__builtin_");
  return name.starts_with("atomic") || name == "__stcg" || name == "__stcs" || name == "__stwb" ||
         name == "__stwt" || name == "memcpy" || name == "memmove" || name == "memset";
}

class Finder : public clang::RecursiveASTVisitor<Finder> {
public:
  Finder(const clang::FunctionDecl& function, ActiveFunctions& active)
      : writes(function.getNumParams()), function_(function), active_(active) {
    for (unsigned i = 0; i < function.getNumParams(); ++i)
      params_[function.getParamDecl(i)] = i;
  }

  std::vector<clang::SourceLocation> writes;

  // Locals that alias a parameter's array first (in source order, so one pass sees a chain of
  // them), then the writes.
  void run() {
    collectingLocals_ = true;
    TraverseStmt(function_.getBody());
    collectingLocals_ = false;
    TraverseStmt(function_.getBody());
  }

  // float* row = out + r * n; float& cell = out[i]; T* p = cond ? a : b.
  bool VisitVarDecl(clang::VarDecl* var) {
    if (!collectingLocals_ || !var->hasInit() || llvm::isa<clang::ParmVarDecl>(var))
      return true;
    if (var->getType()->isPointerType())
      derive(var, bases(var->getInit()));
    else if (var->getType()->isReferenceType())
      derive(var, written(var->getInit()));
    return true;
  }

  bool VisitBinaryOperator(clang::BinaryOperator* op) {
    if (!op->isAssignmentOp())
      return true;
    if (collectingLocals_) {
      if (const auto* target = llvm::dyn_cast<clang::DeclRefExpr>(op->getLHS()->IgnoreParens()))
        if (const auto* var = llvm::dyn_cast<clang::VarDecl>(target->getDecl());
            var && !llvm::isa<clang::ParmVarDecl>(var) && var->getType()->isPointerType())
          derive(var, bases(op->getRHS()));
      return true;
    }
    record(written(op->getLHS()), op->getOperatorLoc());
    return true;
  }

  bool VisitUnaryOperator(clang::UnaryOperator* op) {
    if (!collectingLocals_ && op->isIncrementDecrementOp())
      record(written(op->getSubExpr()), op->getOperatorLoc());
    return true;
  }

  // atomicAdd(&p[i], v), __stcs(p + i, v), memcpy(&p[i], ...), and helpers with a body that write
  // through what they are given (llm.c's store128, a device function assigning out[i]).
  bool VisitCallExpr(clang::CallExpr* call) {
    if (collectingLocals_)
      return true;
    // A struct's assignment (*reinterpret_cast<float4*>(p) = v) or a class's ++ is a call.
    if (const auto* op = llvm::dyn_cast<clang::CXXOperatorCallExpr>(call);
        op && op->getNumArgs() > 0 &&
        (op->isAssignmentOp() || op->getOperator() == clang::OO_PlusPlus ||
         op->getOperator() == clang::OO_MinusMinus)) {
      record(written(op->getArg(0)), op->getOperatorLoc());
      return true;
    }
    const clang::FunctionDecl* callee = call->getDirectCallee();
    if (callee != nullptr && call->getNumArgs() > 0 && storesThroughFirstArgument(*callee)) {
      record(target(call->getArg(0)), call->getBeginLoc());
      return true;
    }
    const clang::FunctionDecl* definition = followedDefinition(*call, active_);
    if (definition == nullptr)
      return true;
    const std::vector<clang::SourceLocation> inner = writesOf(*definition, active_);
    const unsigned args = std::min<unsigned>(call->getNumArgs(), definition->getNumParams());
    for (unsigned i = 0; i < args; ++i) {
      if (inner[i].isInvalid())
        continue;
      const clang::Expr* arg = call->getArg(i);
      record(definition->getParamDecl(i)->getType()->isReferenceType() ? written(arg) : bases(arg),
             call->getBeginLoc());
    }
    return true;
  }

private:
  // The parameters whose arrays a store's target pointer points into: &p[i], p + i.
  ParamSet target(const clang::Expr* pointer) const {
    const clang::Expr* e = pointer->IgnoreParenImpCasts();
    if (const auto* address = llvm::dyn_cast<clang::UnaryOperator>(e);
        address && address->getOpcode() == clang::UO_AddrOf)
      return written(address->getSubExpr());
    return bases(e);
  }

  // The parameters whose pointee `lvalue` is: p[i], *p, *(p + i), p->f, p[i].f, a reference
  // parameter or a local reference bound to one of those.
  ParamSet written(const clang::Expr* lvalue) const {
    const clang::Expr* e = lvalue->IgnoreParenImpCasts();
    while (const auto* member = llvm::dyn_cast<clang::MemberExpr>(e)) {
      if (member->isArrow())
        return bases(member->getBase());
      e = member->getBase()->IgnoreParenImpCasts();
    }
    if (const auto* subscript = llvm::dyn_cast<clang::ArraySubscriptExpr>(e))
      return bases(subscript->getBase());
    if (const auto* deref = llvm::dyn_cast<clang::UnaryOperator>(e);
        deref && deref->getOpcode() == clang::UO_Deref)
      return bases(deref->getSubExpr());
    if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(e);
        ref && ref->getDecl()->getType()->isReferenceType())
      return named(ref->getDecl());
    return {};
  }

  // The parameters a pointer expression is based on: p, p + i, i + p, p - i, (T*)p, &p[i],
  // c ? p : q, and locals derived from those. An index (p + idx[i]) is no base.
  ParamSet bases(const clang::Expr* pointer) const {
    const clang::Expr* e = pointer->IgnoreParenCasts();
    if (const auto* arithmetic = llvm::dyn_cast<clang::BinaryOperator>(e)) {
      if (!arithmetic->isAdditiveOp())
        return {};
      if (arithmetic->getLHS()->getType()->isPointerType())
        return bases(arithmetic->getLHS());
      if (arithmetic->getRHS()->getType()->isPointerType())
        return bases(arithmetic->getRHS());
      return {};
    }
    if (const auto* choice = llvm::dyn_cast<clang::ConditionalOperator>(e)) {
      ParamSet both = bases(choice->getTrueExpr());
      const ParamSet other = bases(choice->getFalseExpr());
      both.insert(other.begin(), other.end());
      return both;
    }
    if (const auto* address = llvm::dyn_cast<clang::UnaryOperator>(e);
        address && address->getOpcode() == clang::UO_AddrOf)
      return written(address->getSubExpr());
    if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(e))
      return named(ref->getDecl());
    return {};
  }

  // A parameter, or the parameters a local was derived from.
  ParamSet named(const clang::Decl* decl) const {
    if (const auto* param = llvm::dyn_cast<clang::ParmVarDecl>(decl)) {
      const auto found = params_.find(param);
      return found != params_.end() ? ParamSet{found->second} : ParamSet{};
    }
    const auto found = derived_.find(decl);
    return found != derived_.end() ? found->second : ParamSet{};
  }

  void derive(const clang::VarDecl* var, const ParamSet& from) {
    derived_[var].insert(from.begin(), from.end());
  }

  void record(const ParamSet& params, clang::SourceLocation at) {
    for (unsigned param : params)
      if (writes[param].isInvalid())
        writes[param] = at;
  }

  const clang::FunctionDecl& function_;
  ActiveFunctions& active_;
  std::map<const clang::ParmVarDecl*, unsigned> params_;
  std::map<const clang::Decl*, ParamSet> derived_;
  bool collectingLocals_ = false;
};

std::vector<clang::SourceLocation> writesOf(const clang::FunctionDecl& function,
                                            ActiveFunctions& active) {
  if (function.getBody() == nullptr)
    return std::vector<clang::SourceLocation>(function.getNumParams());
  active.insert(&function);
  Finder finder(function, active);
  finder.run();
  active.erase(&function);
  return finder.writes;
}

} // namespace

std::vector<clang::SourceLocation> parameterWrites(const clang::FunctionDecl& kernel) {
  ActiveFunctions active;
  return writesOf(kernel, active);
}

} // namespace overlap::frontend
