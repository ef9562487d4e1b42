#include "frontend/ParameterWriteFinder.h"

#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/RecursiveASTVisitor.h>

#include <map>

namespace overlap::frontend {
namespace {

class Finder : public clang::RecursiveASTVisitor<Finder> {
public:
  explicit Finder(const clang::FunctionDecl& kernel) : writes(kernel.getNumParams()) {
    for (unsigned i = 0; i < kernel.getNumParams(); ++i)
      params_[kernel.getParamDecl(i)] = i;
  }

  std::vector<clang::SourceLocation> writes;

  bool VisitBinaryOperator(clang::BinaryOperator* op) {
    if (op->isAssignmentOp())
      record(written(op->getLHS()), op->getOperatorLoc());
    return true;
  }

  bool VisitUnaryOperator(clang::UnaryOperator* op) {
    if (op->isIncrementDecrementOp())
      record(written(op->getSubExpr()), op->getOperatorLoc());
    return true;
  }

  // atomicAdd(&p[i], v), atomicCAS(p + i, ...): CUDA's atomics write through their first argument.
  bool VisitCallExpr(clang::CallExpr* call) {
    const clang::FunctionDecl* callee = call->getDirectCallee();
    if (callee == nullptr || call->getNumArgs() == 0 || !callee->getDeclName().isIdentifier() ||
        !callee->getName().starts_with("atomic"))
      return true;
    const clang::Expr* target = call->getArg(0)->IgnoreParenImpCasts();
    if (const auto* address = llvm::dyn_cast<clang::UnaryOperator>(target);
        address && address->getOpcode() == clang::UO_AddrOf)
      record(written(address->getSubExpr()), call->getBeginLoc());
    else
      record(pointerBase(target), call->getBeginLoc());
    return true;
  }

private:
  // The parameter whose pointee `lvalue` is, or null: p[i], *p, *(p + i), p->f, p[i].f.
  const clang::ParmVarDecl* written(const clang::Expr* lvalue) const {
    const clang::Expr* e = lvalue->IgnoreParenImpCasts();
    while (const auto* member = llvm::dyn_cast<clang::MemberExpr>(e)) {
      if (member->isArrow())
        return pointerBase(member->getBase());
      e = member->getBase()->IgnoreParenImpCasts();
    }
    if (const auto* subscript = llvm::dyn_cast<clang::ArraySubscriptExpr>(e))
      return pointerBase(subscript->getBase());
    if (const auto* deref = llvm::dyn_cast<clang::UnaryOperator>(e);
        deref && deref->getOpcode() == clang::UO_Deref)
      return pointerBase(deref->getSubExpr());
    return nullptr;
  }

  // The parameter a pointer expression is: p, p + i, i + p, p - i, (T*)p.
  const clang::ParmVarDecl* pointerBase(const clang::Expr* pointer) const {
    const clang::Expr* e = pointer->IgnoreParenCasts();
    if (const auto* arithmetic = llvm::dyn_cast<clang::BinaryOperator>(e);
        arithmetic && arithmetic->isAdditiveOp()) {
      if (arithmetic->getLHS()->getType()->isPointerType())
        return pointerBase(arithmetic->getLHS());
      if (arithmetic->getRHS()->getType()->isPointerType())
        return pointerBase(arithmetic->getRHS());
      return nullptr;
    }
    if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(e))
      return llvm::dyn_cast<clang::ParmVarDecl>(ref->getDecl());
    return nullptr;
  }

  void record(const clang::ParmVarDecl* param, clang::SourceLocation at) {
    const auto found = params_.find(param);
    if (found != params_.end() && writes[found->second].isInvalid())
      writes[found->second] = at;
  }

  std::map<const clang::ParmVarDecl*, unsigned> params_;
};

} // namespace

std::vector<clang::SourceLocation> parameterWrites(const clang::FunctionDecl& kernel) {
  Finder finder(kernel);
  finder.TraverseStmt(kernel.getBody());
  return finder.writes;
}

} // namespace overlap::frontend
