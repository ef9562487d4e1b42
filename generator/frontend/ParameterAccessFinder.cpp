#include "frontend/ParameterAccessFinder.h"

#include "frontend/FollowedCalls.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/AST/Stmt.h>
#include <clang/Basic/SourceManager.h>
#include <llvm/ADT/StringExtras.h>

#include <algorithm>
#include <iterator>
#include <map>
#include <optional>
#include <set>

namespace overlap::frontend {
namespace {

using ParamSet = std::set<unsigned>;
using Accesses = std::vector<ParameterAccess>;

// A member function's object holds arrays too (an accessor's `ptr`, a view's `data`): what it
// does through `this` has the slot after its parameters'.
bool hasObject(const clang::FunctionDecl& function) {
  const auto* method = llvm::dyn_cast<clang::CXXMethodDecl>(&function);
  return method != nullptr && method->isInstance();
}
unsigned objectSlot(const clang::FunctionDecl& function) {
  return function.getNumParams();
}
// A struct parameter's pointer members have slots of their own after those, so that a helper
// that reads a.x and writes a.y of body(Args{x, y}) is not taken to write x or read y.
using FieldSlot = std::pair<const clang::ParmVarDecl*, const clang::FieldDecl*>;
std::map<FieldSlot, unsigned> fieldSlots(const clang::FunctionDecl& function) {
  std::map<FieldSlot, unsigned> out;
  unsigned next = objectSlot(function) + (hasObject(function) ? 1 : 0);
  for (const clang::ParmVarDecl* param : function.parameters())
    if (const clang::RecordDecl* record = param->getType().getNonReferenceType()->getAsRecordDecl();
        record != nullptr && record->getDefinition() != nullptr)
      for (const clang::FieldDecl* field : record->getDefinition()->fields())
        if (field->getType()->isPointerType())
          out[{param, field}] = next++;
  return out;
}
unsigned slots(const clang::FunctionDecl& function) {
  return objectSlot(function) + (hasObject(function) ? 1 : 0) +
         static_cast<unsigned>(fieldSlots(function).size());
}

using Calls = CallFollower<Accesses>;

Accesses accessesOf(const clang::FunctionDecl& function, Calls& calls);

void unite(ParamSet& into, const ParamSet& from) {
  into.insert(from.begin(), from.end());
}

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

// Functions without a body the analysis knows to load through their first argument: CUDA's
// cache-hinted loads (__ldg, __ldcs, ...).
bool loadsThroughFirstArgument(const clang::FunctionDecl& callee) {
  return callee.getDeclName().isIdentifier() && callee.getName().starts_with("__ld");
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
// PTX that reads global memory through an address operand: loads and copies to shared memory.
bool loads(llvm::StringRef ptx) {
  return hasInstruction(ptx, {"ld.", "ldu.", "cp.async.ca", "cp.async.cg", "cp.async.bulk.shared"});
}

class Finder : public clang::RecursiveASTVisitor<Finder> {
public:
  Finder(const clang::FunctionDecl& function, Calls& calls)
      : accesses(slots(function)), function_(function), calls_(calls),
        fieldSlot_(fieldSlots(function)) {
    for (unsigned i = 0; i < function.getNumParams(); ++i)
      params_[function.getParamDecl(i)] = i;
  }

  Accesses accesses;

  // Locals that alias a parameter's array first (in source order, so one pass sees a chain of
  // them), then the accesses.
  void run() {
    collectLocals(function_.getBody());
    TraverseStmt(function_.getBody());
    for (unsigned param : written_)
      accesses[param].writtenOnEveryPath = true;
  }

  // Children first, so that accesses are met in the order they happen: y[i] = beta * y[i] reads
  // y before it writes it.
  bool shouldTraversePostOrder() const { return true; }

  // A write on one side of an if/else or ?: does not come before a read on the other, and a
  // side that returns (or breaks, continues) takes its writes with it: after the branch, the
  // arrays written on every path are those the sides that go on both wrote. An if without else
  // whose body goes on is taken to guard what follows alike (if (i < n) y[i] = ...; ... if (i <
  // n) y[i] *= s), as a loop counts as running its body (a softmax writes y in one loop and reads
  // it back in the next).
  bool TraverseIfStmt(clang::IfStmt* branch) {
    if (collectingLocals_)
      return Base::TraverseIfStmt(branch);
    for (clang::Stmt* part :
         {branch->getInit(), static_cast<clang::Stmt*>(branch->getConditionVariableDeclStmt()),
          static_cast<clang::Stmt*>(branch->getCond())})
      if (part != nullptr && !TraverseStmt(part))
        return false;
    if (branch->getElse() == nullptr) {
      const ParamSet before = written_;
      if (branch->getThen() != nullptr && !TraverseStmt(branch->getThen()))
        return false;
      if (leaves(branch->getThen()))
        written_ = before;
      return true;
    }
    return alternatives(branch->getThen(), branch->getElse());
  }
  // A switch: each case starts from what was written before it (a write in `case 0` does not
  // come before a read in `case 1`, fallen into or not); afterwards, the arrays written on every
  // way out (a break, the end; the skipped body where there is no default).
  bool TraverseSwitchStmt(clang::SwitchStmt* choice) {
    const auto* body = llvm::dyn_cast_or_null<clang::CompoundStmt>(choice->getBody());
    if (collectingLocals_ || body == nullptr)
      return Base::TraverseSwitchStmt(choice);
    for (clang::Stmt* part :
         {choice->getInit(), static_cast<clang::Stmt*>(choice->getConditionVariableDeclStmt()),
          static_cast<clang::Stmt*>(choice->getCond())})
      if (part != nullptr && !TraverseStmt(part))
        return false;
    const ParamSet before = written_;
    std::vector<ParamSet> exits;
    bool reached = false, hasDefault = false;
    for (clang::Stmt* statement : body->body()) {
      if (llvm::isa<clang::SwitchCase>(statement)) {
        written_ = before;
        reached = true;
      }
      while (const auto* label = llvm::dyn_cast<clang::SwitchCase>(statement)) {
        hasDefault = hasDefault || llvm::isa<clang::DefaultStmt>(label);
        statement = const_cast<clang::Stmt*>(label->getSubStmt());
      }
      if (!reached)
        continue; // before the first label: never runs
      if (!TraverseStmt(statement))
        return false;
      if (const clang::Stmt* last = lastOf(statement);
          llvm::isa_and_nonnull<clang::BreakStmt>(last)) {
        exits.push_back(written_);
        reached = false;
      } else if (leaves(statement)) {
        reached = false;
      }
    }
    if (reached)
      exits.push_back(written_);
    if (!hasDefault)
      exits.push_back(before);
    written_ = common(exits, before);
    return true;
  }
  bool TraverseConditionalOperator(clang::ConditionalOperator* choice) {
    if (collectingLocals_)
      return Base::TraverseConditionalOperator(choice);
    return TraverseStmt(choice->getCond()) &&
           alternatives(choice->getTrueExpr(), choice->getFalseExpr());
  }

  // Unevaluated operands read nothing: decltype(y[0] + 0.f), sizeof y[i], noexcept(...).
  bool TraverseDecltypeTypeLoc(clang::DecltypeTypeLoc type) {
    return collectingLocals_ ? Base::TraverseDecltypeTypeLoc(type) : true;
  }
  bool TraverseUnaryExprOrTypeTraitExpr(clang::UnaryExprOrTypeTraitExpr* expr) {
    return collectingLocals_ ? Base::TraverseUnaryExprOrTypeTraitExpr(expr) : true;
  }
  bool TraverseCXXNoexceptExpr(clang::CXXNoexceptExpr* expr) {
    return collectingLocals_ ? Base::TraverseCXXNoexceptExpr(expr) : true;
  }

  // A lambda the function calls by name runs where it is called, not where it is defined: its
  // body is looked at at each call (inlineLambdaCall), with its parameters bound to the call's
  // arguments and its captures the function's own names.
  bool TraverseLambdaExpr(clang::LambdaExpr* lambda) {
    if (!collectingLocals_ && calledByName_.count(lambda) > 0)
      return true;
    return Base::TraverseLambdaExpr(lambda);
  }

  // Loops and jumps, for what a local holds where it is used (named).
  bool VisitStmt(clang::Stmt* stmt) {
    if (!collectingLocals_)
      return true;
    if (llvm::isa<clang::ForStmt, clang::WhileStmt, clang::DoStmt, clang::CXXForRangeStmt>(stmt))
      loops_.push_back(stmt);
    hasGoto_ = hasGoto_ || llvm::isa<clang::GotoStmt, clang::IndirectGotoStmt>(stmt);
    return true;
  }

  // float* row = out + r * n; float& cell = out[i]; T* p = cond ? a : b; and pointers held in a
  // local struct or array: Args args{out, n}; float* rows[2] = {a, b}.
  bool VisitVarDecl(clang::VarDecl* var) {
    if (!collectingLocals_ || !var->hasInit() || llvm::isa<clang::ParmVarDecl>(var))
      return true;
    if (var->getType()->isReferenceType())
      derive(var, element(var->getInit()), var->getInit());
    else
      derive(var, held(var->getInit()), var->getInit());
    if (const clang::RecordDecl* record = var->getType()->getAsRecordDecl();
        record != nullptr && record->getDefinition() != nullptr)
      for (const clang::FieldDecl* field : record->getDefinition()->fields())
        if (field->getType()->isPointerType())
          if (const std::optional<ParamSet> member = heldIn(var->getInit(), field))
            unite(fieldDerived_[{var, field}], *member);
    return true;
  }

  // A value read from an element: v = y[i], y[i].x, a reference bound to one.
  bool VisitImplicitCastExpr(clang::ImplicitCastExpr* cast) {
    if (!collectingLocals_ && cast->getCastKind() == clang::CK_LValueToRValue)
      read(element(cast->getSubExpr()), cast->getBeginLoc());
    return true;
  }

  bool VisitBinaryOperator(clang::BinaryOperator* op) {
    if (!op->isAssignmentOp())
      return true;
    if (collectingLocals_) { // p = &y[i]; args.out = y; rows[0] = y
      if (const clang::VarDecl* var = localHolder(op->getLHS())) {
        // x = out + i gives x its value from here on; args.out = y and rows[k] = y, a part.
        const auto* whole = llvm::dyn_cast<clang::DeclRefExpr>(op->getLHS()->IgnoreParens());
        derive(var, held(op->getRHS()),
               whole != nullptr && op->getOpcode() == clang::BO_Assign ? op : nullptr);
        if (const clang::FieldDecl* field = holderField(op->getLHS()))
          unite(fieldDerived_[{var, field}], held(op->getRHS()));
      }
      return true;
    }
    const ParamSet target = element(op->getLHS());
    if (op->isCompoundAssignmentOp())
      read(target, op->getOperatorLoc());
    write(target, op->getOperatorLoc(), Store::Plain);
    return true;
  }

  // asm("st.global.cs.f32 [%0], %1;" :: "l"(out + i), "f"(v)): every address operand of a
  // loading or storing instruction counts as read or written, as an "m" input or an "=m" output
  // does.
  bool VisitGCCAsmStmt(clang::GCCAsmStmt* statement) {
    if (collectingLocals_)
      return true;
    const clang::SourceLocation at = statement->getAsmLoc();
    for (unsigned i = 0; i < statement->getNumInputs(); ++i)
      if (statement->getInputConstraint(i).contains('m'))
        read(element(statement->getInputExpr(i)), at);
    const llvm::StringRef ptx = statement->getAsmString()->getString();
    if (loads(ptx) || updatesAtomically(ptx))
      for (unsigned i = 0; i < statement->getNumInputs(); ++i)
        read(bases(statement->getInputExpr(i)), at);
    for (unsigned i = 0; i < statement->getNumOutputs(); ++i)
      if (const llvm::StringRef constraint = statement->getOutputConstraint(i);
          constraint.contains('m')) {
        if (constraint.contains('+'))
          read(element(statement->getOutputExpr(i)), at);
        write(element(statement->getOutputExpr(i)), at, Store::Plain);
      }
    if (storesPlainly(ptx) || updatesAtomically(ptx))
      for (unsigned i = 0; i < statement->getNumInputs(); ++i)
        write(bases(statement->getInputExpr(i)), at,
              storesPlainly(ptx) ? Store::Plain : Store::Atomic);
    return true;
  }

  bool VisitUnaryOperator(clang::UnaryOperator* op) {
    if (!collectingLocals_ && op->isIncrementDecrementOp())
      update(element(op->getSubExpr()), op->getOperatorLoc(), Store::Plain);
    return true;
  }

  // atomicAdd(&p[i], v), __stcs(p + i, v), memcpy(&p[i], ...), and helpers with a body that
  // access what they are given (llm.c's store128, a device function assigning out[i]).
  bool VisitCallExpr(clang::CallExpr* call) {
    if (collectingLocals_) {
      collectSwapped(*call);
      if (const clang::LambdaExpr* lambda = lambdaCalledByName(*call))
        calledByName_.insert(lambda);
      return true;
    }
    if (lambdaCalledByName(*call) != nullptr)
      return inlineLambdaCall(*call);
    // A struct's assignment (*reinterpret_cast<float4*>(p) = v) or a class's ++ is a call.
    if (const auto* op = llvm::dyn_cast<clang::CXXOperatorCallExpr>(call);
        op && op->getNumArgs() > 0 &&
        (op->isAssignmentOp() || op->getOperator() == clang::OO_PlusPlus ||
         op->getOperator() == clang::OO_MinusMinus)) {
      readReferencedArguments(*call);
      if (op->getOperator() == clang::OO_Equal)
        write(element(op->getArg(0)), op->getOperatorLoc(), Store::Plain);
      else
        update(element(op->getArg(0)), op->getOperatorLoc(), Store::Plain);
      return true;
    }
    const clang::FunctionDecl* callee = call->getDirectCallee();
    if (callee != nullptr && call->getNumArgs() > 0 && storesThroughFirstArgument(*callee)) {
      const llvm::StringRef name = callee->getName();
      if (name.contains("memcpy") || name.contains("memmove"))
        read(target(call->getArg(1)), call->getBeginLoc());
      if (name.contains("atomic") && !name.contains("Exch"))
        update(target(call->getArg(0)), call->getBeginLoc(), Store::Atomic);
      else
        write(target(call->getArg(0)), call->getBeginLoc(), Store::Plain);
      return true;
    }
    if (callee != nullptr && call->getNumArgs() > 0 && loadsThroughFirstArgument(*callee)) {
      read(target(call->getArg(0)), call->getBeginLoc());
      return true;
    }
    const clang::FunctionDecl* definition = calls_.definition(*call);
    if (definition == nullptr) {
      readReferencedArguments(*call);
      return true;
    }
    const Accesses inner = accessesOf(*definition, calls_);
    const llvm::ArrayRef<const clang::Expr*> arguments = parameterArguments(*call);
    const unsigned args = std::min<unsigned>(arguments.size(), definition->getNumParams());
    // Reads first: gelu(out, out, i) reads its second argument before writing its first.
    // A reference gives the element it is bound to (dswap(data[i], data[j])); a struct, by value
    // or reference, the arrays it holds as well (body(Args{b, n}, i)).
    std::vector<ParamSet> given;
    std::vector<unsigned> slot;
    for (unsigned i = 0; i < args; ++i) {
      const clang::QualType type = definition->getParamDecl(i)->getType();
      given.push_back(type->isReferenceType() ? element(arguments[i]) : bases(arguments[i]));
      if (type.getNonReferenceType()->isRecordType())
        unite(given.back(), held(arguments[i]));
      slot.push_back(i);
    }
    if (const clang::Expr* object = objectOf(*call); object != nullptr && hasObject(*definition)) {
      given.push_back(held(object)); // view(i) = v, writer.put(i, v)
      slot.push_back(objectSlot(*definition));
    }
    for (const auto& [member, index] : fieldSlots(*definition))
      if (const unsigned arg = member.first->getFunctionScopeIndex(); arg < args) {
        const std::optional<ParamSet> known = heldIn(arguments[arg], member.second);
        given.push_back(known ? *known : held(arguments[arg]));
        slot.push_back(index);
      }
    for (size_t k = 0; k < given.size(); ++k)
      if (inner[slot[k]].readBeforeWrite.isValid())
        read(given[k], call->getBeginLoc());
    for (size_t k = 0; k < given.size(); ++k)
      if (const ParameterAccess& access = inner[slot[k]]; access.write.isValid())
        write(writable(given[k]), call->getBeginLoc(),
              access.plainWrite.isValid() ? Store::Plain : Store::Atomic,
              access.writtenOnEveryPath);
    return true;
  }

  // float4 v = y[i] copies an element through a constructor's const reference; a constructor
  // bound to an element by a non-const reference (cuda::atomic_ref<float> ref(a[i])) is taken to
  // update it atomically.
  bool VisitCXXConstructExpr(clang::CXXConstructExpr* construct) {
    if (collectingLocals_)
      return true;
    const clang::CXXConstructorDecl* constructor = construct->getConstructor();
    const unsigned args = std::min<unsigned>(construct->getNumArgs(), constructor->getNumParams());
    for (unsigned i = 0; i < args; ++i) {
      const clang::QualType type = constructor->getParamDecl(i)->getType();
      if (!type->isReferenceType())
        continue;
      const ParamSet bound = element(construct->getArg(i));
      if (type->getPointeeType().isConstQualified() || type->isRValueReferenceType())
        read(bound, construct->getBeginLoc());
      else
        update(bound, construct->getBeginLoc(), Store::Atomic);
    }
    return true;
  }

private:
  using Base = clang::RecursiveASTVisitor<Finder>;

  void collectLocals(clang::Stmt* body) {
    collectingLocals_ = true;
    TraverseStmt(body);
    collectingLocals_ = false;
  }

  // Both sides of a branch from the same arrays written; afterwards, those both sides that go on
  // wrote.
  bool alternatives(clang::Stmt* first, clang::Stmt* second) {
    const ParamSet before = written_;
    std::vector<ParamSet> goingOn;
    for (clang::Stmt* side : {first, second}) {
      written_ = before;
      if (side != nullptr && !TraverseStmt(side))
        return false;
      if (!leaves(side))
        goingOn.push_back(written_);
    }
    written_ = common(goingOn, before);
    return true;
  }

  // The arrays every way out wrote; `otherwise` where there is none.
  static ParamSet common(const std::vector<ParamSet>& ways, const ParamSet& otherwise) {
    if (ways.empty())
      return otherwise;
    ParamSet all = ways.front();
    for (const ParamSet& other : ways) {
      ParamSet both;
      std::set_intersection(all.begin(), all.end(), other.begin(), other.end(),
                            std::inserter(both, both.end()));
      all = both;
    }
    return all;
  }

  // Whether a branch's statement ends by leaving it: return, break, continue, goto.
  static bool leaves(const clang::Stmt* statement) {
    return llvm::isa_and_nonnull<clang::ReturnStmt, clang::BreakStmt, clang::ContinueStmt,
                                 clang::GotoStmt>(lastOf(statement));
  }
  // The last statement a block runs: the statement itself unless it is a block.
  static const clang::Stmt* lastOf(const clang::Stmt* statement) {
    while (const auto* block = llvm::dyn_cast_or_null<clang::CompoundStmt>(statement))
      statement = block->body_empty() ? nullptr : block->body_back();
    return statement;
  }

  // The lambda of a call `f(args)` where f is a local variable holding a lambda, or null.
  static const clang::LambdaExpr* lambdaCalledByName(const clang::CallExpr& call) {
    const auto* op = llvm::dyn_cast<clang::CXXOperatorCallExpr>(&call);
    if (op == nullptr || op->getOperator() != clang::OO_Call || op->getNumArgs() == 0)
      return nullptr;
    const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(op->getArg(0)->IgnoreImpCasts());
    const auto* var = ref != nullptr ? llvm::dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
    if (var == nullptr || !var->hasInit() || var->getType()->isReferenceType())
      return nullptr;
    return llvm::dyn_cast<clang::LambdaExpr>(var->getInit()->IgnoreImplicit());
  }

  bool inlineLambdaCall(const clang::CallExpr& call) {
    const clang::FunctionDecl* body = call.getDirectCallee();
    if (body == nullptr || !body->hasBody())
      return true;
    const clang::FunctionDecl* definition = nullptr;
    body->getBody(definition);
    const llvm::ArrayRef<const clang::Expr*> arguments = parameterArguments(call);
    const unsigned args = std::min<unsigned>(arguments.size(), definition->getNumParams());
    for (unsigned i = 0; i < args; ++i) {
      const clang::ParmVarDecl* param = definition->getParamDecl(i);
      derive(param,
             param->getType()->isReferenceType() ? element(arguments[i]) : held(arguments[i]));
    }
    collectLocals(definition->getBody());
    return TraverseStmt(definition->getBody());
  }

  // swap(src, dst): a pointer passed by reference may come back holding any pointer given.
  void collectSwapped(const clang::CallExpr& call) {
    const clang::FunctionDecl* callee = call.getDirectCallee();
    const llvm::ArrayRef<const clang::Expr*> arguments = parameterArguments(call);
    const unsigned args =
        callee != nullptr ? std::min<unsigned>(arguments.size(), callee->getNumParams()) : 0;
    for (unsigned i = 0; i < args; ++i)
      if (const clang::QualType type = callee->getParamDecl(i)->getType();
          type->isLValueReferenceType() && type->getPointeeType()->isPointerType() &&
          !type->getPointeeType().isConstQualified())
        if (const clang::VarDecl* var = localHolder(arguments[i]))
          derive(var, givenPointers(call));
  }

  // A call not looked into reads the elements bound to its const reference parameters (a
  // class's operator+(const half&, const half&) given y[i]).
  void readReferencedArguments(const clang::CallExpr& call) {
    const clang::FunctionDecl* callee = call.getDirectCallee();
    if (callee == nullptr)
      return;
    const llvm::ArrayRef<const clang::Expr*> arguments = parameterArguments(call);
    const unsigned args = std::min<unsigned>(arguments.size(), callee->getNumParams());
    for (unsigned i = 0; i < args; ++i)
      if (const clang::QualType type = callee->getParamDecl(i)->getType();
          type->isReferenceType() &&
          (type->getPointeeType().isConstQualified() || type->isRValueReferenceType()))
        read(element(arguments[i]), call.getBeginLoc());
  }

  // The parameters whose arrays a pointer to an element points into: &p[i], p + i.
  ParamSet target(const clang::Expr* pointer) const {
    const clang::Expr* e = pointer->IgnoreParenImpCasts();
    if (const auto* address = llvm::dyn_cast<clang::UnaryOperator>(e);
        address && address->getOpcode() == clang::UO_AddrOf)
      return element(address->getSubExpr());
    return bases(e);
  }

  // The parameters whose pointee `lvalue` is: p[i], *p, *(p + i), p->f, p[i].f, a reference
  // parameter or a local reference bound to one of those.
  ParamSet element(const clang::Expr* lvalue) const {
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
      return named(ref->getDecl(), ref);
    // auto& [re, im] = z[i]: a name the binding declares is part of the element bound.
    if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(e))
      if (const auto* binding = llvm::dyn_cast<clang::BindingDecl>(ref->getDecl()))
        if (const clang::ValueDecl* whole = binding->getDecomposedDecl();
            whole != nullptr && whole->getType()->isReferenceType())
          return named(whole);
    if (const auto* call = llvm::dyn_cast<clang::CallExpr>(e); call && call->isGLValue())
      return givenPointers(*call); // at(a, i) = v
    if (const auto* choice = llvm::dyn_cast<clang::ConditionalOperator>(e)) {
      ParamSet both = element(choice->getTrueExpr()); // (c ? y[i] : spare) = v
      unite(both, element(choice->getFalseExpr()));
      return both;
    }
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

  // The member right under the variable localHolder finds: args.out's out, args.rows[k]'s rows.
  static const clang::FieldDecl* holderField(const clang::Expr* lvalue) {
    const clang::Expr* e = lvalue->IgnoreParenImpCasts();
    const clang::FieldDecl* field = nullptr;
    for (;;) {
      if (const auto* member = llvm::dyn_cast<clang::MemberExpr>(e); member && !member->isArrow()) {
        field = llvm::dyn_cast<clang::FieldDecl>(member->getMemberDecl());
        e = member->getBase()->IgnoreParenImpCasts();
      } else if (const auto* subscript = llvm::dyn_cast<clang::ArraySubscriptExpr>(e);
                 subscript &&
                 subscript->getBase()->IgnoreParenImpCasts()->getType()->isArrayType()) {
        e = subscript->getBase()->IgnoreParenImpCasts();
      } else {
        return llvm::isa<clang::DeclRefExpr>(e) ? field : nullptr;
      }
    }
  }

  // What `field` of the struct `value` holds, where that is known: a braced list's member
  // (Args{x, y}), a local's or a struct parameter's member, a copy of either; nullopt elsewhere.
  std::optional<ParamSet> heldIn(const clang::Expr* value, const clang::FieldDecl* field) const {
    const clang::Expr* e = value->IgnoreImplicit()->IgnoreParenCasts()->IgnoreImplicit();
    if (const auto* construct = llvm::dyn_cast<clang::CXXConstructExpr>(e);
        construct != nullptr && construct->getConstructor()->isCopyOrMoveConstructor() &&
        construct->getNumArgs() == 1)
      return heldIn(construct->getArg(0), field);
    if (const auto* list = llvm::dyn_cast<clang::InitListExpr>(e)) {
      const clang::RecordDecl* record = field->getParent();
      if (list->getType()->getAsRecordDecl() != record)
        return std::nullopt;
      if (const auto* cxx = llvm::dyn_cast<clang::CXXRecordDecl>(record);
          cxx != nullptr && cxx->getNumBases() > 0)
        return std::nullopt;
      const unsigned index = field->getFieldIndex();
      return index < list->getNumInits() ? held(list->getInit(index)) : ParamSet{};
    }
    if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(e))
      if (const auto* var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl()))
        return knownField(var, field);
    return std::nullopt;
  }

  // What a variable's member holds where it is tracked on its own: a local struct's member, or
  // a struct parameter's (its slot); nullopt elsewhere.
  std::optional<ParamSet> knownField(const clang::VarDecl* var,
                                     const clang::FieldDecl* field) const {
    if (const auto found = fieldDerived_.find({var, field}); found != fieldDerived_.end())
      return found->second;
    if (const auto* param = llvm::dyn_cast<clang::ParmVarDecl>(var))
      if (const auto found = fieldSlot_.find({param, field}); found != fieldSlot_.end())
        return ParamSet{found->second};
    return std::nullopt;
  }

  // What a variable's member holds: its own where it is known, else the whole variable's.
  ParamSet namedField(const clang::VarDecl* var, const clang::FieldDecl* field) const {
    const std::optional<ParamSet> known = field != nullptr ? knownField(var, field) : std::nullopt;
    return known ? *known : named(var);
  }

  // The parameters the pointers a value holds are based on: a pointer's bases, or those of the
  // members of a braced list or a constructor's arguments (Args{out, n}, {a, b}).
  ParamSet held(const clang::Expr* value) const {
    const clang::Expr* e = value->IgnoreImplicit()->IgnoreParenCasts()->IgnoreImplicit();
    llvm::ArrayRef<const clang::Expr*> parts;
    if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(e);
        ref && e->getType()->isRecordType())
      return named(ref->getDecl(), ref); // a local struct, view or lambda holding pointers
    if (llvm::isa<clang::CXXThisExpr>(e) ||
        (e->getType()->isRecordType() && llvm::isa<clang::MemberExpr>(e) && onThis(e)))
      return hasObject(function_) ? ParamSet{objectSlot(function_)} : ParamSet{};
    if (const auto* lambda = llvm::dyn_cast<clang::LambdaExpr>(e)) {
      ParamSet captured; // [=] and [&] alike: the lambda reaches what it captures
      for (const clang::Expr* capture : lambda->capture_inits())
        if (capture != nullptr)
          unite(captured, held(capture));
      return captured;
    }
    if (const auto* list = llvm::dyn_cast<clang::InitListExpr>(e))
      parts = llvm::ArrayRef(list->getInits(), list->getNumInits());
    else if (const auto* construct = llvm::dyn_cast<clang::CXXConstructExpr>(e))
      parts = llvm::ArrayRef(construct->getArgs(), construct->getNumArgs());
    else if (e->getType()->isPointerType() || e->getType()->isArrayType())
      return bases(e);
    else
      return {};
    ParamSet all;
    for (const clang::Expr* part : parts)
      unite(all, held(part));
    return all;
  }

  // The parameters a pointer expression is based on: p, p + i, i + p, p - i, (T*)p, &p[i],
  // c ? p : q, and locals derived from those (args.out and rows[k] that of its local). An index
  // (p + idx[i]) is no base.
  ParamSet bases(const clang::Expr* pointer) const {
    const clang::Expr* e = pointer->IgnoreParenCasts();
    if (llvm::isa<clang::MemberExpr, clang::ArraySubscriptExpr>(e))
      if (const clang::VarDecl* holder = localHolder(e))
        return namedField(holder, holderField(e));
    if (llvm::isa<clang::MemberExpr>(e) && hasObject(function_) && onThis(e))
      return {objectSlot(function_)}; // an accessor's ptr
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
      unite(both, bases(arithmetic->getRHS()));
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
      unite(both, bases(choice->getFalseExpr()));
      return both;
    }
    if (const auto* address = llvm::dyn_cast<clang::UnaryOperator>(e);
        address && address->getOpcode() == clang::UO_AddrOf)
      return element(address->getSubExpr());
    if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(e))
      return named(ref->getDecl(), ref);
    return {};
  }

  // The parameters of the arrays the arguments of `call` point into (or reference elements of).
  ParamSet givenPointers(const clang::CallExpr& call) const {
    ParamSet all;
    for (const clang::Expr* arg : call.arguments())
      unite(all, arg->getType()->isPointerType()  ? bases(arg)
                 : arg->getType()->isRecordType() ? held(arg) // view(i), ptrs[j] of an array class
                                                  : element(arg));
    if (const auto* member = llvm::dyn_cast<clang::CXXMemberCallExpr>(&call))
      unite(all, held(member->getImplicitObjectArgument())); // view.at(i)
    return all;
  }

  // Of the arrays a struct holds, those it can write: a helper that writes one member of
  // Args{x, y} (a.y[i] = a.x[i]) is not taken to write a const x.
  ParamSet writable(ParamSet params) const {
    for (auto it = params.begin(); it != params.end();) {
      const clang::QualType type = *it < function_.getNumParams()
                                       ? function_.getParamDecl(*it)->getType()
                                       : clang::QualType();
      if (!type.isNull() && type->isPointerType() && type->getPointeeType().isConstQualified())
        it = params.erase(it);
      else
        ++it;
    }
    return params;
  }

  // The object a member function is called on: writer.put(i, v)'s writer, view(i)'s view.
  static const clang::Expr* objectOf(const clang::CallExpr& call) {
    if (const auto* member = llvm::dyn_cast<clang::CXXMemberCallExpr>(&call))
      return member->getImplicitObjectArgument();
    if (const auto* op = llvm::dyn_cast<clang::CXXOperatorCallExpr>(&call);
        op != nullptr && op->getNumArgs() > 0 &&
        llvm::isa_and_nonnull<clang::CXXMethodDecl>(op->getDirectCallee()))
      return op->getArg(0);
    return nullptr;
  }

  // Whether a member access ends at the function's own object: ptr, this->ptr, this->v.data.
  static bool onThis(const clang::Expr* e) {
    for (;;) {
      e = e->IgnoreParenImpCasts();
      if (const auto* member = llvm::dyn_cast<clang::MemberExpr>(e))
        e = member->getBase();
      else
        return llvm::isa<clang::CXXThisExpr>(e);
    }
  }

  // `at`: the assignment that gives the local `from` (its initializer, `x = out + i`), which a use
  // before it, outside any loop around both, does not see; null where it may hold anywhere.
  void derive(const clang::VarDecl* var, const ParamSet& from, const clang::Stmt* at = nullptr) {
    assignments_[var].push_back({at, from});
  }

  // A parameter, or the parameters a local (or a parameter assigned another) was derived from. At
  // a `use`: what the local was given before the use, or in a loop around both (x = inp + r; reads
  // x; ...; x = out + r; reads x again: the first reads are of inp alone). Every value it is ever
  // given without a use, where the function jumps (goto), or where a lambda reads it (it runs
  // where it is called).
  ParamSet named(const clang::Decl* decl, const clang::DeclRefExpr* use = nullptr) const {
    ParamSet result;
    if (const auto* param = llvm::dyn_cast<clang::ParmVarDecl>(decl))
      if (const auto found = params_.find(param); found != params_.end())
        result.insert(found->second);
    const auto found = assignments_.find(decl);
    if (found == assignments_.end())
      return result;
    const bool everyValue = use == nullptr || collectingLocals_ || hasGoto_ ||
                            use->refersToEnclosingVariableOrCapture();
    const clang::SourceManager& sources = function_.getASTContext().getSourceManager();
    const auto before = [&sources](clang::SourceLocation a, clang::SourceLocation b) {
      return sources.isBeforeInTranslationUnit(sources.getExpansionLoc(a),
                                               sources.getExpansionLoc(b));
    };
    const auto inside = [&](const clang::Stmt& loop, const clang::Stmt& s) {
      return !before(s.getBeginLoc(), loop.getBeginLoc()) &&
             !before(loop.getEndLoc(), s.getEndLoc());
    };
    for (const Assignment& assignment : found->second)
      if (everyValue || assignment.at == nullptr ||
          !before(use->getEndLoc(), assignment.at->getBeginLoc()) ||
          std::any_of(loops_.begin(), loops_.end(), [&](const clang::Stmt* loop) {
            return inside(*loop, *assignment.at) && inside(*loop, *use);
          }))
        unite(result, assignment.from);
    return result;
  }

  enum class Store { Plain, Atomic };
  // `everyPath`: false for a helper that writes on some of its paths only.
  void write(const ParamSet& params, clang::SourceLocation at, Store store, bool everyPath = true) {
    for (unsigned param : params) {
      ParameterAccess& access = accesses[param];
      if (access.write.isInvalid())
        access.write = at;
      if (store == Store::Plain && access.plainWrite.isInvalid())
        access.plainWrite = at;
      if (everyPath)
        written_.insert(param);
    }
  }
  void read(const ParamSet& params, clang::SourceLocation at) {
    for (unsigned param : params)
      if (ParameterAccess& access = accesses[param];
          written_.count(param) == 0 && access.readBeforeWrite.isInvalid())
        access.readBeforeWrite = at;
  }
  // y[i] += v, ++y[i], atomicAdd(&y[i], v): the old value is read, then the new one written.
  void update(const ParamSet& params, clang::SourceLocation at, Store store) {
    read(params, at);
    write(params, at, store);
  }

  const clang::FunctionDecl& function_;
  Calls& calls_;
  std::map<const clang::ParmVarDecl*, unsigned> params_;
  struct Assignment {
    const clang::Stmt* at; // null: anywhere
    ParamSet from;
  };
  std::map<const clang::Decl*, std::vector<Assignment>> assignments_;
  std::vector<const clang::Stmt*> loops_;
  bool hasGoto_ = false;
  std::map<std::pair<const clang::VarDecl*, const clang::FieldDecl*>, ParamSet> fieldDerived_;
  std::map<FieldSlot, unsigned> fieldSlot_;
  ParamSet written_; // written on every path so far
  std::set<const clang::LambdaExpr*> calledByName_;
  bool collectingLocals_ = false;
};

Accesses accessesOf(const clang::FunctionDecl& function, Calls& calls) {
  if (function.getBody() == nullptr)
    return Accesses(slots(function));
  return calls.follow(function, [&calls](const clang::FunctionDecl& followed) {
    Finder finder(followed, calls);
    finder.run();
    return finder.accesses;
  });
}

} // namespace

std::vector<ParameterAccess> parameterAccesses(const clang::FunctionDecl& kernel) {
  Calls calls;
  return accessesOf(kernel, calls);
}

} // namespace overlap::frontend
