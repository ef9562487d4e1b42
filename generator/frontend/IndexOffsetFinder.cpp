#include "frontend/IndexOffsetFinder.h"

#include "frontend/FollowedCalls.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/AST/Stmt.h>
#include <clang/Basic/SourceManager.h>

#include <algorithm>
#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>

namespace overlap::frontend {
namespace {

// A polynomial over atoms: "@3" (integer parameter 3), "threadIdx.x", "i#42" (a loop's
// variable). A monomial is its atoms, sorted; no coefficient is 0.
using Monomial = std::vector<std::string>;
using Polynomial = std::map<Monomial, long long>;

// Beyond this many terms an index is no neighbour access worth comparing.
constexpr size_t kMaxTerms = 16;
// Each call a kernel's helpers make is read again with its own arguments: a bound on them all,
// for chains of helpers that each call the next from many places.
constexpr int kMaxFollowedCalls = 4096;

std::optional<Polynomial> sum(Polynomial a, const Polynomial& b, long long sign) {
  for (const auto& [monomial, coefficient] : b) {
    long long scaled = 0;
    long long& into = a[monomial];
    if (__builtin_mul_overflow(coefficient, sign, &scaled) ||
        __builtin_add_overflow(into, scaled, &into))
      return std::nullopt;
    if (into == 0)
      a.erase(monomial);
  }
  if (a.size() > kMaxTerms)
    return std::nullopt;
  return a;
}

std::optional<Polynomial> product(const Polynomial& a, const Polynomial& b) {
  Polynomial out;
  for (const auto& [left, x] : a)
    for (const auto& [right, y] : b) {
      Monomial monomial = left;
      monomial.insert(monomial.end(), right.begin(), right.end());
      std::sort(monomial.begin(), monomial.end());
      long long term = 0;
      if (__builtin_mul_overflow(x, y, &term))
        return std::nullopt;
      std::optional<Polynomial> more = sum(std::move(out), {{monomial, term}}, 1);
      if (!more)
        return std::nullopt;
      out = std::move(*more);
    }
  return out;
}

bool isParamAtom(const std::string& atom) {
  return !atom.empty() && atom[0] == '@';
}

// Variables the body changes after their initializer (parameters: at all), and where: an
// assignment, ++ or --, an address taken or a reference bound (every use of the variable that is
// not read as a value). A pointer parameter advanced in place (`x += row * stride;`) is then
// indexed from elsewhere.
class LocalChanges : public clang::RecursiveASTVisitor<LocalChanges> {
public:
  std::map<const clang::VarDecl*, std::vector<const clang::DeclRefExpr*>> changed;
  std::map<const clang::VarDecl*, const clang::ForStmt*> loops; // declared in a for's init
  // Declared before: the loops that set it in their init (C89's `int k; for (k = 0; ...)`),
  // and its plain assignments (`i = ...;`).
  std::map<const clang::VarDecl*, std::vector<const clang::ForStmt*>> assignedLoops;
  std::map<const clang::VarDecl*, std::vector<const clang::BinaryOperator*>> assignments;

  bool VisitImplicitCastExpr(clang::ImplicitCastExpr* cast) {
    if (cast->getCastKind() == clang::CK_LValueToRValue)
      if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(cast->getSubExpr()->IgnoreParens()))
        read_.insert(ref);
    return true;
  }
  bool VisitDeclRefExpr(clang::DeclRefExpr* ref) {
    refs_.push_back(ref);
    return true;
  }
  bool VisitForStmt(clang::ForStmt* loop) {
    if (const auto* init = llvm::dyn_cast_or_null<clang::DeclStmt>(loop->getInit());
        init != nullptr && init->isSingleDecl())
      if (const auto* var = llvm::dyn_cast<clang::VarDecl>(init->getSingleDecl()))
        loops[var] = loop;
    if (const clang::VarDecl* var = assigned(llvm::dyn_cast_or_null<clang::Expr>(loop->getInit())))
      assignedLoops[var].push_back(loop);
    return true;
  }
  bool VisitBinaryOperator(clang::BinaryOperator* op) {
    if (const clang::VarDecl* var = assigned(op))
      assignments[var].push_back(op);
    return true;
  }

  // The variable `e` assigns (`v = ...`), if it is a plain assignment to one.
  static const clang::VarDecl* assigned(const clang::Expr* e) {
    const auto* op = llvm::dyn_cast_or_null<clang::BinaryOperator>(e);
    if (op == nullptr || op->getOpcode() != clang::BO_Assign)
      return nullptr;
    const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(op->getLHS()->IgnoreParens());
    return ref != nullptr ? llvm::dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
  }

  void finish() {
    for (const clang::DeclRefExpr* ref : refs_)
      if (const auto* var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
          var != nullptr && read_.count(ref) == 0)
        changed[var].push_back(ref);
  }

private:
  std::set<const clang::DeclRefExpr*> read_;
  std::vector<const clang::DeclRefExpr*> refs_;
};

bool contains(const clang::Stmt* tree, const clang::Stmt* node) {
  if (tree == nullptr)
    return false;
  if (tree == node)
    return true;
  return std::any_of(tree->child_begin(), tree->child_end(),
                     [node](const clang::Stmt* child) { return contains(child, node); });
}

// threadIdx.x and its kin, which Clang spells as a property of a builtin variable.
std::optional<std::string> builtin(const clang::Expr* expr) {
  if (const auto* pseudo = llvm::dyn_cast<clang::PseudoObjectExpr>(expr))
    expr = pseudo->getSyntacticForm()->IgnoreParenImpCasts();
  const auto* property = llvm::dyn_cast<clang::MSPropertyRefExpr>(expr);
  if (property == nullptr)
    return std::nullopt;
  const clang::Expr* object = property->getBaseExpr()->IgnoreParenImpCasts();
  if (const auto* opaque = llvm::dyn_cast<clang::OpaqueValueExpr>(object))
    object = opaque->getSourceExpr()->IgnoreParenImpCasts();
  const auto* base = llvm::dyn_cast_or_null<clang::DeclRefExpr>(object);
  if (base == nullptr)
    return std::nullopt;
  const std::string name = base->getDecl()->getNameAsString();
  if (name != "threadIdx" && name != "blockIdx" && name != "blockDim" && name != "gridDim")
    return std::nullopt;
  return name + "." + property->getPropertyDecl()->getNameAsString();
}

// A pointer into an array parameter: which one, and where, in its elements. `step` is how many
// of them one element of the pointer's own type spans (4 for a float* cast to float4*).
struct Pointer {
  unsigned param = 0;
  Polynomial offset;
  long long step = 1;
};

class Finder : public clang::RecursiveASTVisitor<Finder> {
public:
  explicit Finder(const clang::FunctionDecl& kernel)
      : uses(kernel.getNumParams()), kernel_(kernel), context_(kernel.getASTContext()), root_(this),
        function_(&kernel) {
    for (unsigned i = 0; i < kernel.getNumParams(); ++i)
      params_[kernel.getParamDecl(i)] = i;
    changes_.TraverseStmt(kernel.getBody());
    changes_.finish();
  }

  // A helper `caller` calls at `call` (a __device__ function, a lambda): its parameters stand for
  // the call's arguments as the caller reads them, pointers into the kernel's arrays and integer
  // polynomials, so that `lap(x, i)` reading a[k - 1] and a[k + 1] reads x[i - 1] and x[i + 1].
  // What it accesses is recorded at the kernel's own call.
  // `pointers` are the caller's reading of the call's arguments as pointers.
  Finder(Finder& caller, const clang::FunctionDecl& helper, const clang::CallExpr& call,
         std::vector<std::optional<Pointer>> pointers)
      : kernel_(caller.kernel_), context_(caller.context_), root_(caller.root_), caller_(&caller),
        function_(&helper), params_(caller.params_),
        callSite_(caller.caller_ != nullptr ? caller.callSite_ : call.getExprLoc()),
        depth_(caller.depth_ + 1) {
    changes_.TraverseStmt(helper.getBody());
    changes_.finish();
    const llvm::ArrayRef<const clang::Expr*> arguments = parameterArguments(call);
    for (unsigned i = 0; i < helper.getNumParams() && i < arguments.size(); ++i) {
      const clang::ParmVarDecl* param = helper.getParamDecl(i);
      arguments_[param] = arguments[i];
      if (param->getType()->isPointerType()) {
        if (pointers[i])
          pointers_[param] = std::move(*pointers[i]);
      } else if (param->getType()->isIntegralOrEnumerationType()) {
        if (std::optional<Polynomial> value = caller.read(arguments[i]))
          values_[param] = std::move(*value);
      }
    }
    ranges_ = caller.ranges_; // the caller's counting loops its arguments name
  }

  bool VisitBinaryOperator(clang::BinaryOperator* op) {
    if (op->isAssignmentOp())
      target(op->getLHS(), op->getOpcode() == clang::BO_Assign);
    return true;
  }
  bool VisitCXXOperatorCallExpr(clang::CXXOperatorCallExpr* call) {
    if (call->isAssignmentOp() && call->getNumArgs() > 0)
      target(call->getArg(0), call->getOperator() == clang::OO_Equal);
    return true;
  }
  bool VisitUnaryOperator(clang::UnaryOperator* op) {
    if (op->isIncrementDecrementOp())
      target(op->getSubExpr(), false);
    if (op->getOpcode() == clang::UO_Deref)
      if (const std::optional<Pointer> at = pointer(op->getSubExpr()))
        access(op, *at, {});
    return true;
  }
  // __ldg(x + i) and the other cache-hinted loads read *p; the __st* stores write it.
  bool VisitCallExpr(clang::CallExpr* call) {
    const clang::FunctionDecl* callee = call->getDirectCallee();
    const std::string name = callee != nullptr && callee->getIdentifier() != nullptr
                                 ? callee->getName().str()
                                 : std::string();
    static const std::set<std::string> loads{"__ldg",  "__ldcg", "__ldca",
                                             "__ldcs", "__ldlu", "__ldcv"};
    static const std::set<std::string> stores{"__stwb", "__stcg", "__stcs", "__stwt"};
    const bool load = loads.count(name) > 0 && call->getNumArgs() == 1;
    const bool store = stores.count(name) > 0 && call->getNumArgs() == 2;
    if (load || store) {
      if (const std::optional<Pointer> at = pointer(call->getArg(0)))
        record(*at, {}, !store, store, call->getExprLoc());
    } else if (guards_ == 0) {
      follow(*call);
    }
    return true;
  }

  // Reads and writes under a condition on the thread's place in its block (`if (threadIdx.x <
  // RADIUS)`: a few threads loading a shared tile's halo) happen for those threads alone: where
  // they fall in the chunk is the condition's, which is no polynomial, so they are not compared.
  bool TraverseIfStmt(clang::IfStmt* stmt) {
    return guarded(stmt->getCond(), [&] { return Base::TraverseIfStmt(stmt); });
  }
  bool TraverseConditionalOperator(clang::ConditionalOperator* op) {
    return guarded(op->getCond(), [&] { return Base::TraverseConditionalOperator(op); });
  }

  // A[i][j] of a 2D array parameter (`float (*A)[N]`) accesses its element A[i], a row: the
  // subscript of the row, an array, is that access; the one into it reads no pointer.
  bool VisitArraySubscriptExpr(clang::ArraySubscriptExpr* subscript) {
    const std::optional<Pointer> at = pointer(subscript->getBase());
    const std::optional<Polynomial> index = at ? read(subscript->getIdx()) : std::nullopt;
    if (index)
      access(subscript, *at, *index);
    return true;
  }

  std::vector<std::vector<ir::IndexUse>> uses;

private:
  using Base = clang::RecursiveASTVisitor<Finder>;

  // Looks into a helper with a body that an argument points into an array for, or a lambda (which
  // may index the kernel's arrays it captured); not into a recursion, nor deeper than other
  // analyses follow calls.
  void follow(const clang::CallExpr& call) {
    const clang::FunctionDecl* definition =
        depth_ < kMaxCallDepth && root_->followed_ < kMaxFollowedCalls ? calleeDefinition(call)
                                                                       : nullptr;
    if (definition == nullptr)
      return;
    for (const Finder* f = this; f != nullptr; f = f->caller_)
      if (f->function_ == definition)
        return;
    const auto* method = llvm::dyn_cast<clang::CXXMethodDecl>(definition);
    const bool lambda = method != nullptr && method->getParent()->isLambda();
    std::vector<std::optional<Pointer>> pointers;
    for (const clang::Expr* argument : parameterArguments(call))
      pointers.push_back(pointer(argument));
    if (!lambda && std::none_of(pointers.begin(), pointers.end(),
                                [](const std::optional<Pointer>& at) { return at.has_value(); }))
      return;
    ++root_->followed_;
    Finder helper(*this, *definition, call, std::move(pointers));
    helper.TraverseStmt(definition->getBody());
  }

  // The finder of the body that changes `var` (its own, or a caller's for what a lambda
  // captured); null where no body does.
  const Finder* ownerOf(const clang::VarDecl* var) const {
    for (const Finder* f = this; f != nullptr; f = f->caller_)
      if (f->changes_.changed.count(var) > 0)
        return f;
    return nullptr;
  }

  // The value a local declared without one gets from its only assignment, where `ref` comes
  // after it (before it, the local holds no value; in a loop, the assignment's own iteration).
  // `changes`: those of the body that changes the local.
  const clang::Expr* assignedOnce(const LocalChanges& changes, const clang::VarDecl* var,
                                  const clang::DeclRefExpr* ref) const {
    if (var->hasInit() || changes.changed.at(var).size() != 1)
      return nullptr;
    const auto found = changes.assignments.find(var);
    if (found == changes.assignments.end() || found->second.size() != 1)
      return nullptr;
    const clang::BinaryOperator* op = found->second.front();
    const clang::SourceManager& sources = context_.getSourceManager();
    if (!sources.isBeforeInTranslationUnit(sources.getExpansionLoc(op->getEndLoc()),
                                           sources.getExpansionLoc(ref->getBeginLoc())))
      return nullptr;
    return op->getRHS();
  }

  // The loop that sets `var` in its init (`int k; for (k = -1; k <= 1; k++)`) and holds `ref`,
  // where the variable changes only in such loops' inits and increments.
  struct AssignedLoop {
    const clang::ForStmt* loop = nullptr;
    size_t index = 0;                   // among the loops that set the variable
    const clang::Expr* first = nullptr; // the value the init assigns
  };
  std::optional<AssignedLoop> assignedLoopOf(const LocalChanges& changes, const clang::VarDecl* var,
                                             const clang::DeclRefExpr* ref) const {
    const auto found = changes.assignedLoops.find(var);
    if (found == changes.assignedLoops.end())
      return std::nullopt;
    const std::vector<const clang::ForStmt*>& loops = found->second;
    const auto init = [](const clang::ForStmt* loop) {
      return llvm::cast<clang::BinaryOperator>(loop->getInit());
    };
    const auto initTarget = [&](const clang::ForStmt* loop) {
      return init(loop)->getLHS()->IgnoreParens();
    };
    for (const clang::DeclRefExpr* change : changes.changed.at(var))
      if (std::none_of(loops.begin(), loops.end(), [&](const clang::ForStmt* loop) {
            return initTarget(loop) == change || contains(loop->getInc(), change);
          }))
        return std::nullopt;
    std::optional<AssignedLoop> out;
    for (size_t k = 0; k < loops.size(); ++k)
      if (contains(loops[k], ref) && initTarget(loops[k]) != ref) {
        if (out)
          return std::nullopt;
        out = AssignedLoop{loops[k], k, init(loops[k])->getRHS()};
      }
    return out;
  }

  // `read(value)` of the value a local stands for, unless that value is being read already (a
  // local whose value names itself).
  template <class Read>
  auto expand(const clang::VarDecl* var, const clang::Expr* value, Read read)
      -> decltype(read(value)) {
    if (!expanding_.insert(var).second)
      return std::nullopt;
    auto out = read(value);
    expanding_.erase(var);
    return out;
  }

  template <typename Traverse> bool guarded(const clang::Expr* cond, Traverse traverse) {
    const bool onPlace = cond != nullptr && onPlaceInBlock(*cond);
    guards_ += onPlace ? 1 : 0;
    const bool result = traverse();
    guards_ -= onPlace ? 1 : 0;
    return result;
  }

  // Whether the condition picks threads by their place in the block or in a record: a
  // comparison (or a value tested alone) that depends on threadIdx but not on blockIdx, or a
  // remainder or mask of the thread's index (`i % 2 == 0`, `threadIdx.x & 1`: a pair's partner),
  // directly or through the locals it reads.
  bool onPlaceInBlock(const clang::Stmt& cond, bool top = true) {
    const auto* op = llvm::dyn_cast<clang::BinaryOperator>(&cond);
    if (op != nullptr && (op->getOpcode() == clang::BO_Rem || op->getOpcode() == clang::BO_And)) {
      std::set<std::string> builtins;
      builtinsOf(op, builtins, 0);
      if (builtins.count("threadIdx") > 0)
        return true;
    }
    const bool logical = op != nullptr && op->isLogicalOp();
    if ((op != nullptr && op->isComparisonOp()) || (top && !logical)) {
      std::set<std::string> builtins;
      builtinsOf(&cond, builtins, 0);
      if (builtins.count("threadIdx") > 0 && builtins.count("blockIdx") == 0)
        return true;
    }
    return std::any_of(cond.child_begin(), cond.child_end(),
                       [this, logical](const clang::Stmt* child) {
                         return child != nullptr && onPlaceInBlock(*child, logical);
                       });
  }

  // A helper's parameter depends on what its argument does in the caller (a tid passed in).
  void builtinsOf(const clang::Stmt* stmt, std::set<std::string>& out, int depth) const {
    if (stmt == nullptr || depth > 8)
      return;
    if (const auto* e = llvm::dyn_cast<clang::Expr>(stmt))
      if (const std::optional<std::string> name = builtin(e->IgnoreParenImpCasts())) {
        out.insert(name->substr(0, name->find('.')));
        return;
      }
    if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(stmt)) {
      const auto* param = llvm::dyn_cast<clang::ParmVarDecl>(ref->getDecl());
      if (const auto bound = param != nullptr ? arguments_.find(param) : arguments_.end();
          bound != arguments_.end())
        caller_->builtinsOf(bound->second, out, depth + 1);
      else if (const auto* var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
               var != nullptr && param == nullptr && var->hasInit())
        builtinsOf(var->getInit(), out, depth + 1);
    }
    for (const clang::Stmt* child : stmt->children())
      builtinsOf(child, out, depth);
  }

  // The array parameter and offset a pointer expression points at: the parameter itself, a
  // local pointer the body never changes (`row = in + y * w`), p + k, p - k, &p[k] and casts of
  // these; nullopt for anything else (a parameter the kernel advances itself, a loaded pointer).
  std::optional<Pointer> pointer(const clang::Expr* expr) {
    expr = expr->IgnoreParens();
    if (!expr->getType()->isPointerType())
      return std::nullopt;
    if (const auto* cast = llvm::dyn_cast<clang::CastExpr>(expr)) {
      const clang::Expr* from = cast->getSubExpr();
      if (cast->getCastKind() == clang::CK_ArrayToPointerDecay || !from->getType()->isPointerType())
        return std::nullopt;
      std::optional<Pointer> inner = pointer(from);
      if (!inner)
        return std::nullopt;
      // float* as float4*: one element of the new type spans 4 of the parameter's.
      const std::optional<long long> step = elementsPerStep(*inner, expr->getType());
      if (!step)
        return std::nullopt;
      inner->step = *step;
      return inner;
    }
    if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(expr)) {
      const auto* var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
      if (var == nullptr || ownerOf(var) != nullptr)
        return std::nullopt;
      if (const auto* param = llvm::dyn_cast<clang::ParmVarDecl>(var)) {
        if (const auto bound = pointers_.find(param); bound != pointers_.end())
          return bound->second;
        const auto found = params_.find(param);
        return found == params_.end() ? std::nullopt
                                      : std::optional<Pointer>(Pointer{found->second, {}, 1});
      }
      if (!var->hasInit())
        return std::nullopt;
      std::optional<Pointer> value =
          expand(var, var->getInit(), [this](const clang::Expr* e) { return pointer(e); });
      if (!value)
        return std::nullopt;
      const std::optional<long long> step = elementsPerStep(*value, expr->getType());
      return step && *step == value->step ? value : std::nullopt;
    }
    if (const auto* unary = llvm::dyn_cast<clang::UnaryOperator>(expr)) {
      const auto* subscript =
          llvm::dyn_cast<clang::ArraySubscriptExpr>(unary->getSubExpr()->IgnoreParens());
      if (unary->getOpcode() != clang::UO_AddrOf || subscript == nullptr)
        return std::nullopt;
      std::optional<Pointer> base = pointer(subscript->getBase());
      const std::optional<Polynomial> index = base ? read(subscript->getIdx()) : std::nullopt;
      return index ? advanced(std::move(*base), *index, 1) : std::nullopt;
    }
    const auto* binary = llvm::dyn_cast<clang::BinaryOperator>(expr);
    if (binary == nullptr ||
        (binary->getOpcode() != clang::BO_Add && binary->getOpcode() != clang::BO_Sub))
      return std::nullopt;
    const bool left = binary->getLHS()->getType()->isPointerType();
    if (!left && binary->getOpcode() == clang::BO_Sub)
      return std::nullopt;
    std::optional<Pointer> base = pointer(left ? binary->getLHS() : binary->getRHS());
    const std::optional<Polynomial> by =
        base ? read(left ? binary->getRHS() : binary->getLHS()) : std::nullopt;
    return by ? advanced(std::move(*base), *by, binary->getOpcode() == clang::BO_Sub ? -1 : 1)
              : std::nullopt;
  }

  std::optional<Pointer> advanced(Pointer p, const Polynomial& by, long long sign) {
    const std::optional<Polynomial> scaled = product(by, {{{}, sign * p.step}});
    std::optional<Polynomial> offset = scaled ? sum(p.offset, *scaled, 1) : std::nullopt;
    if (!offset)
      return std::nullopt;
    p.offset = std::move(*offset);
    return p;
  }

  // How many elements of `p`'s parameter one element of `type` (a pointer type) spans; nullopt
  // where it is no whole number of them (a char* view of floats).
  std::optional<long long> elementsPerStep(const Pointer& p, clang::QualType type) const {
    const clang::QualType pointee = type->getPointeeType();
    const clang::QualType element = kernel_.getParamDecl(p.param)->getType()->getPointeeType();
    if (pointee.isNull() || element.isNull() || pointee->isIncompleteType() ||
        element->isIncompleteType() || pointee->isDependentType() || element->isDependentType())
      return std::nullopt;
    const long long size = context_.getTypeSizeInChars(pointee).getQuantity();
    const long long unit = context_.getTypeSizeInChars(element).getQuantity();
    if (unit <= 0 || size <= 0 || size % unit != 0)
      return std::nullopt;
    return size / unit;
  }

  // An element access at `p` + `index` (in elements of the pointer's type): its first and last
  // element of the parameter, read, written or both as the assignment around it says.
  void access(const clang::Expr* element, const Pointer& p, const Polynomial& index) {
    const auto role = targets_.find(element);
    const bool reads = role == targets_.end() || !role->second;
    const bool writes = role != targets_.end();
    for (const Polynomial& at : atLoopEnds(index))
      record(p, at, reads, writes, element->getExprLoc());
  }

  // Under a condition on the thread's place in its block (see TraverseIfStmt), nothing.
  void record(const Pointer& p, const Polynomial& index, bool reads, bool writes,
              clang::SourceLocation where) {
    const std::optional<Pointer> first = guards_ == 0 ? advanced(p, index, 1) : std::nullopt;
    if (!first)
      return;
    std::vector<Polynomial> ends{first->offset};
    if (p.step > 1)
      if (std::optional<Polynomial> last = sum(first->offset, {{{}, p.step - 1}}, 1))
        ends.push_back(std::move(*last));
    for (const Polynomial& at : ends)
      for (const bool write : {false, true})
        if (write ? writes : reads)
          root_->add(p.param, at, write, callSite_.isValid() ? callSite_ : where);
  }

  // The element an assignment's target is (y[i], y[i].x, *(y + i)), and whether it is only
  // written.
  void target(const clang::Expr* lhs, bool onlyWritten) {
    const clang::Expr* e = lhs->IgnoreParens();
    while (const auto* member = llvm::dyn_cast<clang::MemberExpr>(e)) {
      if (member->isArrow())
        return;
      e = member->getBase()->IgnoreParens();
    }
    const auto* deref = llvm::dyn_cast<clang::UnaryOperator>(e);
    if (llvm::isa<clang::ArraySubscriptExpr>(e) ||
        (deref != nullptr && deref->getOpcode() == clang::UO_Deref))
      targets_[e] = onlyWritten;
    // B[i][j] = v writes B[i]'s element j: the row, partly.
    while (const auto* subscript = llvm::dyn_cast<clang::ArraySubscriptExpr>(e)) {
      const auto* decay = llvm::dyn_cast<clang::ImplicitCastExpr>(subscript->getBase());
      if (decay == nullptr || decay->getCastKind() != clang::CK_ArrayToPointerDecay)
        break;
      e = decay->getSubExpr()->IgnoreParens();
      if (llvm::isa<clang::ArraySubscriptExpr>(e))
        targets_[e] = false;
    }
  }

  void add(unsigned array, const Polynomial& index, bool write, clang::SourceLocation where) {
    ir::IndexUse use;
    use.write = write;
    for (const auto& [monomial, coefficient] : index) {
      if (std::all_of(monomial.begin(), monomial.end(), isParamAtom)) {
        ir::OffsetTerm term{coefficient, {}};
        for (const std::string& atom : monomial)
          term.params.push_back(std::stoi(atom.substr(1)));
        use.offset.push_back(std::move(term));
        continue;
      }
      ir::OffsetTerm scale{coefficient, {}};
      for (const std::string& atom : monomial)
        if (isParamAtom(atom))
          scale.params.push_back(std::stoi(atom.substr(1)));
      use.baseScales.push_back(std::move(scale));
      std::string atoms, threadAtoms;
      for (const std::string& atom : monomial) {
        atoms += " * " + atom;
        if (!isParamAtom(atom))
          threadAtoms += (threadAtoms.empty() ? "" : " * ") + atom;
      }
      use.base += (use.base.empty() ? "" : " + ") + std::to_string(coefficient) + atoms;
      use.baseAtoms.push_back(std::move(threadAtoms));
    }
    for (const ir::IndexUse& seen : uses[array])
      if (seen.write == use.write && seen.base == use.base && seen.offset == use.offset)
        return;
    const clang::SourceManager& sources = context_.getSourceManager();
    const clang::PresumedLoc presumed = sources.getPresumedLoc(sources.getExpansionLoc(where));
    if (presumed.isValid()) {
      use.line = presumed.getLine();
      use.column = presumed.getColumn();
    }
    uses[array].push_back(std::move(use));
  }

  std::optional<Polynomial> read(const clang::Expr* expr) {
    if (expr == nullptr)
      return std::nullopt;
    expr = expr->IgnoreParenImpCasts();
    if (!expr->isValueDependent() && !expr->isTypeDependent())
      if (const std::optional<llvm::APSInt> value = expr->getIntegerConstantExpr(context_)) {
        if (value->getSignificantBits() > 64)
          return std::nullopt;
        const long long constant = value->getExtValue();
        return constant == 0 ? Polynomial{} : Polynomial{{{}, constant}};
      }
    if (std::optional<std::string> atom = builtin(expr))
      return Polynomial{{{*atom}, 1}};
    if (const auto* cast = llvm::dyn_cast<clang::ExplicitCastExpr>(expr))
      return cast->getType()->isIntegerType() ? read(cast->getSubExpr()) : std::nullopt;
    if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(expr))
      return variable(ref);
    if (const auto* unary = llvm::dyn_cast<clang::UnaryOperator>(expr)) {
      if (unary->getOpcode() == clang::UO_Plus)
        return read(unary->getSubExpr());
      if (unary->getOpcode() == clang::UO_Minus)
        if (std::optional<Polynomial> inner = read(unary->getSubExpr()))
          return sum({}, *inner, -1);
      return std::nullopt;
    }
    const auto* binary = llvm::dyn_cast<clang::BinaryOperator>(expr);
    if (binary == nullptr)
      return std::nullopt;
    const std::optional<Polynomial> left = read(binary->getLHS());
    if (!left)
      return std::nullopt;
    if (binary->getOpcode() == clang::BO_Shl) {
      const std::optional<Polynomial> shift = read(binary->getRHS());
      if (!shift || shift->size() > 1 || (shift->size() == 1 && !shift->begin()->first.empty()))
        return std::nullopt;
      const long long bits = shift->empty() ? 0 : shift->begin()->second;
      if (bits < 0 || bits > 62)
        return std::nullopt;
      return product(*left, {{{}, 1LL << bits}});
    }
    const std::optional<Polynomial> right = read(binary->getRHS());
    if (!right)
      return std::nullopt;
    switch (binary->getOpcode()) {
    case clang::BO_Add:
      return sum(*left, *right, 1);
    case clang::BO_Sub:
      return sum(*left, *right, -1);
    case clang::BO_Mul:
      return product(*left, *right);
    default:
      return std::nullopt;
    }
  }

  // An integer parameter is an atom; a local the body never changes is its initializer; a for
  // loop's variable that only the loop's increment changes is an atom.
  std::optional<Polynomial> variable(const clang::DeclRefExpr* ref) {
    const auto* var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
    if (var == nullptr || !var->getType()->isIntegralOrEnumerationType())
      return std::nullopt;
    if (const auto* param = llvm::dyn_cast<clang::ParmVarDecl>(var)) {
      if (ownerOf(param) != nullptr)
        return std::nullopt;
      if (const auto bound = values_.find(param); bound != values_.end())
        return bound->second;
      const auto found = params_.find(param);
      if (found == params_.end())
        return std::nullopt;
      return Polynomial{{{"@" + std::to_string(found->second)}, 1}};
    }
    const Finder* owner = ownerOf(var);
    const auto readValue = [this](const clang::Expr* e) { return read(e); };
    if (owner == nullptr)
      return var->hasInit() ? expand(var, var->getInit(), readValue) : std::nullopt;
    const LocalChanges& changes = owner->changes_;
    const std::vector<const clang::DeclRefExpr*>& changed = changes.changed.at(var);
    std::string atom = var->getNameAsString() + "#" + std::to_string(var->getID());
    // The for loop that declares the local in its init.
    const auto declaringLoop = changes.loops.find(var);
    const clang::ForStmt* loop =
        declaringLoop != changes.loops.end() ? declaringLoop->second : nullptr;
    const clang::Expr* first = var->getInit();
    if (loop == nullptr) {
      if (const clang::Expr* value = assignedOnce(changes, var, ref))
        return expand(var, value, readValue);
      const std::optional<AssignedLoop> assignedLoop = assignedLoopOf(changes, var, ref);
      if (!assignedLoop)
        return std::nullopt;
      loop = assignedLoop->loop;
      first = assignedLoop->first;
      atom += "@" + std::to_string(assignedLoop->index); // one atom per loop that reuses it
    } else if (!std::all_of(changed.begin(), changed.end(),
                            [loop](const clang::DeclRefExpr* change) {
                              return contains(loop->getInc(), change);
                            })) {
      return std::nullopt;
    }
    if (ranges_.count(atom) == 0)
      if (std::optional<std::pair<Polynomial, Polynomial>> range = loopRange(*var, *loop, first))
        ranges_[atom] = std::move(*range);
    return Polynomial{{{atom}, 1}};
  }

  // The first and last values of a loop's variable that counts by one from `first` to a bound,
  // both free of the thread (for (int r = -R; r <= R; ++r), for (k = 0; k < K; k++)); nullopt
  // otherwise.
  std::optional<std::pair<Polynomial, Polynomial>>
  loopRange(const clang::VarDecl& var, const clang::ForStmt& loop, const clang::Expr* first) {
    int step = 0;
    const clang::Expr* inc = loop.getInc() ? loop.getInc()->IgnoreParenImpCasts() : nullptr;
    if (const auto* unary = llvm::dyn_cast_or_null<clang::UnaryOperator>(inc))
      step = unary->isIncrementOp() ? 1 : unary->isDecrementOp() ? -1 : 0;
    else if (const auto* compound = llvm::dyn_cast_or_null<clang::CompoundAssignOperator>(inc))
      if (const std::optional<Polynomial> by = read(compound->getRHS());
          by && *by == Polynomial{{{}, 1}})
        step = compound->getOpcode() == clang::BO_AddAssign   ? 1
               : compound->getOpcode() == clang::BO_SubAssign ? -1
                                                              : 0;
    const auto* cond = llvm::dyn_cast_or_null<clang::BinaryOperator>(
        loop.getCond() ? loop.getCond()->IgnoreParenImpCasts() : nullptr);
    if (step == 0 || cond == nullptr || first == nullptr)
      return std::nullopt;
    const auto* counter = llvm::dyn_cast<clang::DeclRefExpr>(cond->getLHS()->IgnoreParenImpCasts());
    if (counter == nullptr || counter->getDecl() != &var)
      return std::nullopt;
    const std::optional<Polynomial> from = read(first);
    std::optional<Polynomial> bound = read(cond->getRHS());
    if (!from || !bound || !freeOfThreads(*from) || !freeOfThreads(*bound))
      return std::nullopt;
    const clang::BinaryOperatorKind op = cond->getOpcode();
    if (step > 0 && (op == clang::BO_LT || op == clang::BO_LE))
      bound = op == clang::BO_LT ? sum(*bound, {{{}, 1}}, -1) : bound;
    else if (step < 0 && (op == clang::BO_GT || op == clang::BO_GE))
      bound = op == clang::BO_GT ? sum(*bound, {{{}, 1}}, 1) : bound;
    else
      return std::nullopt;
    if (!bound)
      return std::nullopt;
    return std::make_pair(*from, *bound);
  }

  static bool freeOfThreads(const Polynomial& p) {
    return std::all_of(p.begin(), p.end(), [](const auto& term) {
      return std::all_of(term.first.begin(), term.first.end(), isParamAtom);
    });
  }

  // The index, and where it depends linearly on counting loops, the index at each end of them
  // (x[i + r] at r = -R and at r = R): the reads of a radius loop reach as far as those. The
  // index itself stays: a loop over the chunk (z from b to e) compares by its variable.
  std::vector<Polynomial> atLoopEnds(const Polynomial& index) const {
    std::vector<Polynomial> out{index};
    std::vector<Polynomial> ends{index};
    for (const auto& [atom, range] : ranges_) {
      if (std::none_of(index.begin(), index.end(), [&atom](const auto& term) {
            return std::count(term.first.begin(), term.first.end(), atom) > 0;
          }))
        continue;
      std::vector<Polynomial> next;
      for (const Polynomial& p : ends)
        for (const Polynomial* end : {&range.first, &range.second}) {
          std::optional<Polynomial> substituted = substitute(p, atom, *end);
          if (!substituted)
            return out;
          next.push_back(std::move(*substituted));
        }
      ends = std::move(next);
      if (ends.size() > 16)
        return out;
    }
    if (ends.size() > 1)
      out.insert(out.end(), ends.begin(), ends.end());
    return out;
  }

  static std::optional<Polynomial> substitute(const Polynomial& p, const std::string& atom,
                                              const Polynomial& value) {
    Polynomial out;
    for (const auto& [monomial, coefficient] : p) {
      const auto count = std::count(monomial.begin(), monomial.end(), atom);
      if (count > 1)
        return std::nullopt;
      std::optional<Polynomial> term = Polynomial{{monomial, coefficient}};
      if (count == 1) {
        Monomial rest = monomial;
        rest.erase(std::find(rest.begin(), rest.end(), atom));
        term = product({{rest, coefficient}}, value);
      }
      std::optional<Polynomial> more = term ? sum(std::move(out), *term, 1) : std::nullopt;
      if (!more)
        return std::nullopt;
      out = std::move(*more);
    }
    return out;
  }

  const clang::FunctionDecl& kernel_;
  const clang::ASTContext& context_;
  Finder* root_;                        // the kernel's, which collects the uses
  const Finder* caller_ = nullptr;      // a helper's
  const clang::FunctionDecl* function_; // whose body this finder reads
  std::map<const clang::ParmVarDecl*, unsigned> params_;
  // A helper's parameters: the call's arguments, and what the caller reads of them.
  std::map<const clang::ParmVarDecl*, const clang::Expr*> arguments_;
  std::map<const clang::ParmVarDecl*, Pointer> pointers_;
  std::map<const clang::ParmVarDecl*, Polynomial> values_;
  clang::SourceLocation callSite_; // a helper's: the kernel's call it was reached by
  std::size_t depth_ = 0;
  int followed_ = 0; // the kernel's: calls read so far
  LocalChanges changes_;
  std::map<const clang::Expr*, bool> targets_; // true: only written
  std::set<const clang::VarDecl*> expanding_;
  // Counting loops' variables (their atoms) and their first and last values.
  std::map<std::string, std::pair<Polynomial, Polynomial>> ranges_;
  int guards_ = 0; // conditions on the thread's place in its block around the traversal
};

} // namespace

std::vector<std::vector<ir::IndexUse>> indexUses(const clang::FunctionDecl& kernel) {
  Finder finder(kernel);
  finder.TraverseStmt(kernel.getBody());
  return std::move(finder.uses);
}

} // namespace overlap::frontend
