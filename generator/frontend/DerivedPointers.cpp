#include "frontend/DerivedPointers.h"

#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/RecursiveASTVisitor.h>

namespace overlap::frontend {

class DerivedPointerCollector : public clang::RecursiveASTVisitor<DerivedPointerCollector> {
public:
  explicit DerivedPointerCollector(DerivedPointers& out) : out_(out) {}

  bool VisitVarDecl(clang::VarDecl* var) {
    if (var->getType()->isPointerType() && var->hasInit())
      derive(var, var->getInit());
    return true;
  }

  bool VisitBinaryOperator(clang::BinaryOperator* op) {
    if (!op->isAssignmentOp())
      return true;
    if (const auto* target = llvm::dyn_cast<clang::DeclRefExpr>(op->getLHS()->IgnoreParens()))
      if (const auto* var = llvm::dyn_cast<clang::VarDecl>(target->getDecl());
          var && var->getType()->isPointerType())
        derive(var, op->getRHS());
    return true;
  }

private:
  void derive(const clang::VarDecl* var, const clang::Expr* from) {
    const std::set<unsigned> params = out_.reached(from);
    out_.derived_[var].insert(params.begin(), params.end());
  }

  DerivedPointers& out_;
};

DerivedPointers::DerivedPointers(const clang::FunctionDecl& function) {
  for (unsigned i = 0; i < function.getNumParams(); ++i)
    params_[function.getParamDecl(i)] = i;
  DerivedPointerCollector(*this).TraverseStmt(function.getBody());
}

std::set<unsigned> DerivedPointers::reached(const clang::Stmt* stmt) const {
  std::set<unsigned> out;
  if (stmt == nullptr)
    return out;
  if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(stmt)) {
    if (const auto* param = llvm::dyn_cast<clang::ParmVarDecl>(ref->getDecl())) {
      const auto found = params_.find(param);
      if (found != params_.end() && param->getType()->isPointerType())
        out.insert(found->second);
    } else if (const auto found = derived_.find(ref->getDecl()); found != derived_.end()) {
      out.insert(found->second.begin(), found->second.end());
    }
  }
  for (const clang::Stmt* child : stmt->children()) {
    const std::set<unsigned> more = reached(child);
    out.insert(more.begin(), more.end());
  }
  return out;
}

} // namespace overlap::frontend
