#include "frontend/IndexTermFinder.h"

#include "frontend/DerivedPointers.h"
#include "frontend/FollowedCalls.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>

namespace overlap::frontend {
namespace {

using ParamSet = std::set<unsigned>;
// Integer parameters that are terms of an index, each scaled (k * n) or not (n - 1 - i).
using Terms = std::map<unsigned, bool>;

// The first index, per (array parameter, integer parameter), with a term in the integer one: the
// first with a scaled term where there is one.
struct Use {
  clang::SourceLocation where;
  bool scaled = false;
};
using Uses = std::map<std::pair<unsigned, unsigned>, Use>;
using Calls = CallFollower<Uses>;

Uses usesOf(const clang::FunctionDecl& function, Calls& calls);

// The expressions an integer local is given: its initializer and every assignment.
class IntegerLocals : public clang::RecursiveASTVisitor<IntegerLocals> {
public:
  std::map<const clang::VarDecl*, std::vector<const clang::Expr*>> given;

  bool VisitVarDecl(clang::VarDecl* var) {
    if (!llvm::isa<clang::ParmVarDecl>(var) && var->getType()->isIntegerType() && var->hasInit())
      given[var].push_back(var->getInit());
    return true;
  }

  bool VisitBinaryOperator(clang::BinaryOperator* op) {
    if (op->isAssignmentOp())
      if (const auto* target = llvm::dyn_cast<clang::DeclRefExpr>(op->getLHS()->IgnoreParens()))
        if (const auto* var = llvm::dyn_cast<clang::VarDecl>(target->getDecl());
            var != nullptr && !llvm::isa<clang::ParmVarDecl>(var) &&
            var->getType()->isIntegerType() &&
            (op->getOpcode() == clang::BO_Assign || op->getOpcode() == clang::BO_AddAssign ||
             op->getOpcode() == clang::BO_SubAssign || op->getOpcode() == clang::BO_MulAssign))
          given[var].push_back(op->getRHS());
    return true;
  }
};

class Finder : public clang::RecursiveASTVisitor<Finder> {
public:
  Finder(const clang::FunctionDecl& function, Calls& calls)
      : context_(function.getASTContext()), calls_(calls), pointers_(function) {
    for (unsigned i = 0; i < function.getNumParams(); ++i)
      params_[function.getParamDecl(i)] = i;
    locals_.TraverseStmt(function.getBody());
  }

  Uses uses;

  bool VisitArraySubscriptExpr(clang::ArraySubscriptExpr* subscript) {
    record(subscript->getBase(), subscript->getIdx(), subscript->getExprLoc());
    return true;
  }

  // p + k * n, k * n + p, p - n, p += k * n
  bool VisitBinaryOperator(clang::BinaryOperator* op) {
    const clang::BinaryOperatorKind kind = op->getOpcode();
    if (kind != clang::BO_Add && kind != clang::BO_Sub && kind != clang::BO_AddAssign &&
        kind != clang::BO_SubAssign)
      return true;
    if (op->getLHS()->getType()->isPointerType() && op->getRHS()->getType()->isIntegerType())
      record(op->getLHS(), op->getRHS(), op->getOperatorLoc());
    else if (kind == clang::BO_Add && op->getRHS()->getType()->isPointerType())
      record(op->getRHS(), op->getLHS(), op->getOperatorLoc());
    return true;
  }

  // A helper that indexes its array parameter by its integer parameter: the kernel's arguments.
  bool VisitCallExpr(clang::CallExpr* call) {
    const clang::FunctionDecl* definition = calls_.definition(*call);
    if (definition == nullptr)
      return true;
    const Uses inner = usesOf(*definition, calls_);
    const llvm::ArrayRef<const clang::Expr*> arguments = parameterArguments(*call);
    for (const auto& [pair, use] : inner)
      if (pair.first < arguments.size() && pair.second < arguments.size())
        recordAll(pointers_.reached(arguments[pair.first]),
                  use.scaled ? scaled(terms(arguments[pair.second]))
                             : terms(arguments[pair.second]),
                  call->getBeginLoc());
    return true;
  }

private:
  void record(const clang::Expr* pointer, const clang::Expr* index, clang::SourceLocation where) {
    const ParamSet arrays = pointers_.reached(pointer);
    if (!arrays.empty())
      recordAll(arrays, terms(index), where);
  }

  void recordAll(const ParamSet& arrays, const Terms& scalars, clang::SourceLocation where) {
    for (unsigned array : arrays)
      for (const auto& [scalar, isScaled] : scalars) {
        const auto [found, added] = uses.try_emplace({array, scalar}, Use{where, isScaled});
        if (!added && isScaled && !found->second.scaled)
          found->second = {where, true};
      }
  }

  // The integer parameters that are terms of `expr`, read as a polynomial, and whether each is
  // scaled (k * n, 2 * n, n << s) or not (n, n - 1 - i).
  Terms terms(const clang::Expr* expr) {
    if (expr == nullptr)
      return {};
    expr = expr->IgnoreParenImpCasts();
    if (const auto* cast = llvm::dyn_cast<clang::ExplicitCastExpr>(expr))
      return cast->getType()->isIntegerType() ? terms(cast->getSubExpr()) : Terms{};
    if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(expr)) {
      if (const auto* param = llvm::dyn_cast<clang::ParmVarDecl>(ref->getDecl())) {
        if (const auto found = params_.find(param);
            found != params_.end() && param->getType()->isIntegerType())
          return {{found->second, false}};
      } else if (const auto* var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl())) {
        return termsOfLocal(var);
      }
      return {};
    }
    if (const auto* unary = llvm::dyn_cast<clang::UnaryOperator>(expr))
      return unary->getOpcode() == clang::UO_Minus || unary->getOpcode() == clang::UO_Plus
                 ? terms(unary->getSubExpr())
                 : Terms{};
    const auto* binary = llvm::dyn_cast<clang::BinaryOperator>(expr);
    if (binary == nullptr)
      return {};
    switch (binary->getOpcode()) {
    case clang::BO_Add:
    case clang::BO_Sub:
      return merged(terms(binary->getLHS()), terms(binary->getRHS()));
    case clang::BO_Mul: {
      const std::optional<llvm::APSInt> left = constant(binary->getLHS());
      const std::optional<llvm::APSInt> right = constant(binary->getRHS());
      if (left)
        return timesConstant(terms(binary->getRHS()), *left);
      if (right)
        return timesConstant(terms(binary->getLHS()), *right);
      return scaled(merged(terms(binary->getLHS()), terms(binary->getRHS())));
    }
    case clang::BO_Shl: {
      const std::optional<llvm::APSInt> shift = constant(binary->getRHS());
      return shift && shift->isZero() ? terms(binary->getLHS()) : scaled(terms(binary->getLHS()));
    }
    case clang::BO_Comma:
      return terms(binary->getRHS());
    default:
      return {};
    }
  }

  std::optional<llvm::APSInt> constant(const clang::Expr* expr) const {
    if (expr->isValueDependent() || expr->isTypeDependent())
      return std::nullopt;
    return expr->getIntegerConstantExpr(context_);
  }

  static Terms merged(Terms a, const Terms& b) {
    for (const auto& [param, isScaled] : b)
      a[param] = a[param] || isScaled;
    return a;
  }
  static Terms scaled(Terms terms) {
    for (auto& [param, isScaled] : terms)
      isScaled = true;
    return terms;
  }
  static Terms timesConstant(Terms terms, const llvm::APSInt& factor) {
    if (factor.isZero())
      return {};
    return factor.abs().isOne() ? terms : scaled(std::move(terms));
  }

  Terms termsOfLocal(const clang::VarDecl* var) {
    if (const auto found = localTerms_.find(var); found != localTerms_.end())
      return found->second;
    localTerms_[var]; // a local given itself (i = i + n) adds nothing while it is being read
    Terms out;
    if (const auto found = locals_.given.find(var); found != locals_.given.end())
      for (const clang::Expr* value : found->second)
        out = merged(std::move(out), terms(value));
    localTerms_[var] = out;
    return out;
  }

  const clang::ASTContext& context_;
  Calls& calls_;
  DerivedPointers pointers_;
  IntegerLocals locals_;
  std::map<const clang::ParmVarDecl*, unsigned> params_;
  std::map<const clang::VarDecl*, Terms> localTerms_;
};

Uses usesOf(const clang::FunctionDecl& function, Calls& calls) {
  if (function.getBody() == nullptr)
    return {};
  return calls.follow(function, [&calls](const clang::FunctionDecl& followed) {
    Finder finder(followed, calls);
    finder.TraverseStmt(followed.getBody());
    return finder.uses;
  });
}

} // namespace

std::vector<IndexTerm> indexTerms(const clang::FunctionDecl& kernel) {
  std::vector<IndexTerm> out(kernel.getNumParams());
  Calls calls;
  for (const auto& [pair, use] : usesOf(kernel, calls)) {
    // Only scaled terms: planes `n` apart. An unscaled one counts from the end, as haxpy's odd
    // last element y[n - 1] does, which a granule leaves to the last chunk: as often right as
    // wrong.
    if (!use.scaled)
      continue;
    IndexTerm& term = out[pair.second];
    // The first in the source, whichever array it indexes.
    if (!term.where.isValid() ||
        kernel.getASTContext().getSourceManager().isBeforeInTranslationUnit(use.where, term.where))
      term = {use.where, pair.first};
  }
  return out;
}

} // namespace overlap::frontend
