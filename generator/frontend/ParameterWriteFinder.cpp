#include "frontend/ParameterWriteFinder.h"

#include "frontend/FollowedCalls.h"

#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/AST/Stmt.h>
#include <llvm/ADT/StringExtras.h>

#include <algorithm>
#include <map>
#include <set>

namespace overlap::frontend {
namespace {

using ParamSet = std::set<unsigned>;

ParameterWrites writesOf(const clang::FunctionDecl& function, ActiveFunctions& active);

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

// Whether inline PTX has an instruction of one of `mnemonics` (a word of the text).
bool hasInstruction(llvm::StringRef ptx, std::initializer_list<llvm::StringRef> mnemonics) {
  for (const llvm::StringRef mnemonic : mnemonics)
    for (std::size_t at = ptx.find(mnemonic); at != llvm::StringRef::npos;
         at = ptx.find(mnemonic, at + 1))
      if (at == 0 || !(llvm::isAlnum(ptx[at - 1]) || ptx[at - 1] == '_' || ptx[at - 1] == '.' ||
                       ptx[at - 1] == '%'))
        return true;
  return false;
}

// PTX that writes global memory through an address operand: plain stores and bulk copies from
// shared memory, or atomic updates.
bool storesPlainly(llvm::StringRef ptx) {
  return hasInstruction(ptx, {"st.", "cp.async.bulk.global"});
}
bool updatesAtomically(llvm::StringRef ptx) {
  return hasInstruction(ptx, {"red.", "atom.", "cp.reduce.async.bulk.global"});
}

class Finder : public clang::RecursiveASTVisitor<Finder> {
public:
  Finder(const clang::FunctionDecl& function, ActiveFunctions& active)
      : writes{std::vector<clang::SourceLocation>(function.getNumParams()),
               std::vector<clang::SourceLocation>(function.getNumParams())},
        function_(function), active_(active) {
    for (unsigned i = 0; i < function.getNumParams(); ++i)
      params_[function.getParamDecl(i)] = i;
  }

  ParameterWrites writes;

  // Locals that alias a parameter's array first (in source order, so one pass sees a chain of
  // them), then the writes.
  void run() {
    collectingLocals_ = true;
    TraverseStmt(function_.getBody());
    collectingLocals_ = false;
    TraverseStmt(function_.getBody());
  }

  // float* row = out + r * n; float& cell = out[i]; T* p = cond ? a : b; and pointers held in a
  // local struct or array: Args args{out, n}; float* rows[2] = {a, b}.
  bool VisitVarDecl(clang::VarDecl* var) {
    if (!collectingLocals_ || !var->hasInit() || llvm::isa<clang::ParmVarDecl>(var))
      return true;
    if (var->getType()->isReferenceType())
      derive(var, written(var->getInit()));
    else
      derive(var, held(var->getInit()));
    return true;
  }

  bool VisitBinaryOperator(clang::BinaryOperator* op) {
    if (!op->isAssignmentOp())
      return true;
    if (collectingLocals_) { // p = &y[i]; args.out = y; rows[0] = y
      if (const clang::VarDecl* var = localHolder(op->getLHS()))
        derive(var, held(op->getRHS()));
      return true;
    }
    record(written(op->getLHS()), op->getOperatorLoc(), Store::Plain);
    return true;
  }

  // asm("st.global.cs.f32 [%0], %1;" :: "l"(out + i), "f"(v)): every address operand of a
  // storing instruction counts as written, as an "=m"(out[i]) output does.
  bool VisitGCCAsmStmt(clang::GCCAsmStmt* statement) {
    if (collectingLocals_)
      return true;
    for (unsigned i = 0; i < statement->getNumOutputs(); ++i)
      if (statement->getOutputConstraint(i).contains('m'))
        record(written(statement->getOutputExpr(i)), statement->getAsmLoc(), Store::Plain);
    const llvm::StringRef ptx = statement->getAsmString()->getString();
    if (storesPlainly(ptx) || updatesAtomically(ptx))
      for (unsigned i = 0; i < statement->getNumInputs(); ++i)
        record(bases(statement->getInputExpr(i)), statement->getAsmLoc(),
               storesPlainly(ptx) ? Store::Plain : Store::Atomic);
    return true;
  }

  bool VisitUnaryOperator(clang::UnaryOperator* op) {
    if (!collectingLocals_ && op->isIncrementDecrementOp())
      record(written(op->getSubExpr()), op->getOperatorLoc(), Store::Plain);
    return true;
  }

  // atomicAdd(&p[i], v), __stcs(p + i, v), memcpy(&p[i], ...), and helpers with a body that write
  // through what they are given (llm.c's store128, a device function assigning out[i]).
  bool VisitCallExpr(clang::CallExpr* call) {
    if (collectingLocals_) {
      // swap(src, dst): a pointer passed by reference may come back holding any pointer given.
      const clang::FunctionDecl* callee = call->getDirectCallee();
      const llvm::ArrayRef<const clang::Expr*> arguments = parameterArguments(*call);
      const unsigned args =
          callee != nullptr ? std::min<unsigned>(arguments.size(), callee->getNumParams()) : 0;
      for (unsigned i = 0; i < args; ++i)
        if (const clang::QualType type = callee->getParamDecl(i)->getType();
            type->isLValueReferenceType() && type->getPointeeType()->isPointerType() &&
            !type->getPointeeType().isConstQualified())
          if (const clang::VarDecl* var = localHolder(arguments[i]))
            derive(var, givenPointers(*call));
      return true;
    }
    // A struct's assignment (*reinterpret_cast<float4*>(p) = v) or a class's ++ is a call.
    if (const auto* op = llvm::dyn_cast<clang::CXXOperatorCallExpr>(call);
        op && op->getNumArgs() > 0 &&
        (op->isAssignmentOp() || op->getOperator() == clang::OO_PlusPlus ||
         op->getOperator() == clang::OO_MinusMinus)) {
      record(written(op->getArg(0)), op->getOperatorLoc(), Store::Plain);
      return true;
    }
    const clang::FunctionDecl* callee = call->getDirectCallee();
    if (callee != nullptr && call->getNumArgs() > 0 && storesThroughFirstArgument(*callee)) {
      const bool atomic =
          callee->getName().contains("atomic") && !callee->getName().contains("Exch");
      record(target(call->getArg(0)), call->getBeginLoc(), atomic ? Store::Atomic : Store::Plain);
      return true;
    }
    const clang::FunctionDecl* definition = followedDefinition(*call, active_);
    if (definition == nullptr)
      return true;
    const ParameterWrites inner = writesOf(*definition, active_);
    const llvm::ArrayRef<const clang::Expr*> arguments = parameterArguments(*call);
    const unsigned args = std::min<unsigned>(arguments.size(), definition->getNumParams());
    for (unsigned i = 0; i < args; ++i) {
      if (inner.any[i].isInvalid())
        continue;
      const clang::Expr* arg = arguments[i];
      record(definition->getParamDecl(i)->getType()->isReferenceType() ? written(arg) : bases(arg),
             call->getBeginLoc(), inner.plain[i].isValid() ? Store::Plain : Store::Atomic);
    }
    return true;
  }

  // cuda::atomic_ref<float> ref(a[i]): a constructor bound to an element by a non-const
  // reference is taken to write it.
  bool VisitCXXConstructExpr(clang::CXXConstructExpr* construct) {
    if (collectingLocals_)
      return true;
    const clang::CXXConstructorDecl* constructor = construct->getConstructor();
    const unsigned args = std::min<unsigned>(construct->getNumArgs(), constructor->getNumParams());
    for (unsigned i = 0; i < args; ++i)
      if (const clang::QualType type = constructor->getParamDecl(i)->getType();
          type->isLValueReferenceType() && !type->getPointeeType().isConstQualified())
        record(written(construct->getArg(i)), construct->getBeginLoc(), Store::Atomic);
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
    if (const auto* call = llvm::dyn_cast<clang::CallExpr>(e); call && call->isGLValue())
      return givenPointers(*call); // at(a, i) = v
    return {};
  }

  // The variable a pointer is stored in: p, args.out, rows[k], args.rows[k] (a parameter too, as
  // in b = a; b[i] = v); null for others.
  static const clang::VarDecl* localHolder(const clang::Expr* lvalue) {
    const clang::Expr* e = lvalue->IgnoreParenImpCasts();
    for (;;) {
      if (const auto* member = llvm::dyn_cast<clang::MemberExpr>(e); member && !member->isArrow())
        e = member->getBase()->IgnoreParenImpCasts();
      else if (const auto* subscript = llvm::dyn_cast<clang::ArraySubscriptExpr>(e);
               subscript && subscript->getBase()->IgnoreParenImpCasts()->getType()->isArrayType())
        e = subscript->getBase()->IgnoreParenImpCasts();
      else
        break;
    }
    const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(e);
    return ref != nullptr ? llvm::dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
  }

  // The parameters the pointers a value holds are based on: a pointer's bases, or those of the
  // members of a braced list or a constructor's arguments (Args{out, n}, {a, b}).
  ParamSet held(const clang::Expr* value) const {
    const clang::Expr* e = value->IgnoreParenImpCasts();
    llvm::ArrayRef<const clang::Expr*> parts;
    if (const auto* list = llvm::dyn_cast<clang::InitListExpr>(e))
      parts = llvm::ArrayRef(list->getInits(), list->getNumInits());
    else if (const auto* construct = llvm::dyn_cast<clang::CXXConstructExpr>(e))
      parts = llvm::ArrayRef(construct->getArgs(), construct->getNumArgs());
    else if (e->getType()->isPointerType() || e->getType()->isArrayType())
      return bases(e);
    else
      return {};
    ParamSet all;
    for (const clang::Expr* part : parts) {
      const ParamSet some = held(part);
      all.insert(some.begin(), some.end());
    }
    return all;
  }

  // The parameters a pointer expression is based on: p, p + i, i + p, p - i, (T*)p, &p[i],
  // c ? p : q, and locals derived from those (args.out and rows[k] that of its local). An index
  // (p + idx[i]) is no base.
  ParamSet bases(const clang::Expr* pointer) const {
    const clang::Expr* e = pointer->IgnoreParenCasts();
    if (llvm::isa<clang::MemberExpr, clang::ArraySubscriptExpr>(e))
      if (const clang::VarDecl* holder = localHolder(e))
        return named(holder);
    // a[i] of a pointer to arrays (float (*a)[N]) is an array of a's.
    if (const auto* subscript = llvm::dyn_cast<clang::ArraySubscriptExpr>(e);
        subscript && e->getType()->isArrayType())
      return bases(subscript->getBase());
    if (const auto* arithmetic = llvm::dyn_cast<clang::BinaryOperator>(e)) {
      if (arithmetic->isAssignmentOp() || arithmetic->getOpcode() == clang::BO_Comma)
        return bases(arithmetic->getRHS()); // *(p = q) = v, (void)0, p
      if (!arithmetic->isAdditiveOp())
        return {};
      if (arithmetic->getLHS()->getType()->isPointerType())
        return bases(arithmetic->getLHS());
      if (arithmetic->getRHS()->getType()->isPointerType())
        return bases(arithmetic->getRHS());
      // An address computed in integers: (uintptr_t)p + offset.
      ParamSet both = bases(arithmetic->getLHS());
      const ParamSet other = bases(arithmetic->getRHS());
      both.insert(other.begin(), other.end());
      return both;
    }
    if (const auto* step = llvm::dyn_cast<clang::UnaryOperator>(e);
        step && step->isIncrementDecrementOp())
      return bases(step->getSubExpr()); // *p++ = v
    // rowptr(a, i)[0] = v, at(a, i) = v: a returned pointer or reference is taken to be based on
    // every pointer the call is given, as the helper may return any of them.
    if (const auto* call = llvm::dyn_cast<clang::CallExpr>(e);
        call && (call->getType()->isPointerType() || call->isGLValue()))
      return givenPointers(*call);
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

  // The parameters of the arrays the arguments of `call` point into (or reference elements of).
  ParamSet givenPointers(const clang::CallExpr& call) const {
    ParamSet all;
    for (const clang::Expr* arg : call.arguments()) {
      const ParamSet some = arg->getType()->isPointerType() ? bases(arg) : written(arg);
      all.insert(some.begin(), some.end());
    }
    return all;
  }

  // A parameter, or the parameters a local (or a parameter assigned another) was derived from.
  ParamSet named(const clang::Decl* decl) const {
    ParamSet result;
    if (const auto* param = llvm::dyn_cast<clang::ParmVarDecl>(decl))
      if (const auto found = params_.find(param); found != params_.end())
        result.insert(found->second);
    if (const auto found = derived_.find(decl); found != derived_.end())
      result.insert(found->second.begin(), found->second.end());
    return result;
  }

  void derive(const clang::VarDecl* var, const ParamSet& from) {
    derived_[var].insert(from.begin(), from.end());
  }

  // A wrapper bound to an element (cuda::atomic_ref) counts as an atomic update: what it does is
  // not looked into.
  enum class Store { Plain, Atomic };
  void record(const ParamSet& params, clang::SourceLocation at, Store store) {
    for (unsigned param : params) {
      if (writes.any[param].isInvalid())
        writes.any[param] = at;
      if (store == Store::Plain && writes.plain[param].isInvalid())
        writes.plain[param] = at;
    }
  }

  const clang::FunctionDecl& function_;
  ActiveFunctions& active_;
  std::map<const clang::ParmVarDecl*, unsigned> params_;
  std::map<const clang::Decl*, ParamSet> derived_;
  bool collectingLocals_ = false;
};

ParameterWrites writesOf(const clang::FunctionDecl& function, ActiveFunctions& active) {
  if (function.getBody() == nullptr)
    return {std::vector<clang::SourceLocation>(function.getNumParams()),
            std::vector<clang::SourceLocation>(function.getNumParams())};
  active.insert(&function);
  Finder finder(function, active);
  finder.run();
  active.erase(&function);
  return finder.writes;
}

} // namespace

ParameterWrites parameterWrites(const clang::FunctionDecl& kernel) {
  ActiveFunctions active;
  return writesOf(kernel, active);
}

} // namespace overlap::frontend
