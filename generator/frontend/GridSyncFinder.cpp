#include "frontend/GridSyncFinder.h"

#include "frontend/FollowedCalls.h"

#include <clang/AST/Decl.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>

namespace overlap::frontend {
namespace {

bool inCooperativeGroups(const clang::Decl& decl) {
  for (const clang::DeclContext* scope = decl.getDeclContext(); scope != nullptr;
       scope = scope->getParent())
    if (const auto* ns = llvm::dyn_cast<clang::NamespaceDecl>(scope);
        ns != nullptr && ns->getName() == "cooperative_groups")
      return true;
  return false;
}

// grid_group or multi_grid_group of cooperative_groups, through references and const.
bool isGridGroup(clang::QualType type) {
  const clang::CXXRecordDecl* record = type.getNonReferenceType()->getAsCXXRecordDecl();
  return record != nullptr && inCooperativeGroups(*record) &&
         (record->getName() == "grid_group" || record->getName() == "multi_grid_group");
}

using Barrier = std::optional<clang::SourceLocation>;
using Calls = CallFollower<Barrier>;

Barrier findBarrier(const clang::FunctionDecl& function, Calls& calls);

class Finder : public clang::RecursiveASTVisitor<Finder> {
public:
  explicit Finder(Calls& calls) : calls_(calls) {}

  Barrier found;

  bool VisitCallExpr(clang::CallExpr* call) {
    if (found)
      return false;
    const clang::FunctionDecl* callee = call->getDirectCallee();
    if (callee == nullptr)
      return true;
    if (barrier(*call, *callee)) {
      found = call->getExprLoc();
      return false;
    }
    const clang::FunctionDecl* definition = calls_.definition(*call);
    if (definition != nullptr && findBarrier(*definition, calls_)) {
      found = call->getExprLoc(); // where the kernel's own code reaches it
      return false;
    }
    return true;
  }

private:
  static bool barrier(const clang::CallExpr& call, const clang::FunctionDecl& callee) {
    const std::string name = callee.getNameAsString();
    if (name != "sync" && name != "barrier_wait")
      return false;
    if (const auto* member = llvm::dyn_cast<clang::CXXMemberCallExpr>(&call))
      return isGridGroup(member->getImplicitObjectArgument()->getType());
    // cooperative_groups::sync(group)
    return inCooperativeGroups(callee) && call.getNumArgs() == 1 &&
           isGridGroup(call.getArg(0)->getType());
  }

  Calls& calls_;
};

Barrier findBarrier(const clang::FunctionDecl& function, Calls& calls) {
  // cooperative_groups' own functions hold the barriers themselves; the calls into them decide.
  if (inCooperativeGroups(function))
    return std::nullopt;
  return calls.follow(function, [&calls](const clang::FunctionDecl& followed) {
    Finder finder(calls);
    finder.TraverseStmt(followed.getBody());
    return finder.found;
  });
}

} // namespace

std::optional<clang::SourceLocation> gridWideBarrier(const clang::FunctionDecl& kernel) {
  Calls calls;
  return findBarrier(kernel, calls);
}

} // namespace overlap::frontend
