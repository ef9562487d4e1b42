#include "frontend/AnnotatedDeclFinder.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/Basic/SourceManager.h>

namespace overlap::frontend {
namespace {

// Declarations that only group others: an annotation inside one is before one of theirs.
bool isGrouping(const clang::Decl& decl) {
  if (llvm::isa<clang::NamespaceDecl>(decl))
    return true;
  if (const auto* linkage = llvm::dyn_cast<clang::LinkageSpecDecl>(&decl))
    return linkage->hasBraces();
  return false;
}

} // namespace

AnnotationTarget findAnnotationTarget(clang::ASTContext& context, clang::SourceLocation end) {
  const clang::SourceManager& sources = context.getSourceManager();
  const clang::SourceLocation annotationEnd = sources.getExpansionLoc(end);
  const clang::DeclContext* scope = context.getTranslationUnitDecl();
  for (;;) {
    const clang::Decl* inside = nullptr;
    for (const clang::Decl* decl : scope->decls()) {
      if (decl->isImplicit())
        continue;
      const clang::SourceLocation begin = sources.getExpansionLoc(decl->getBeginLoc());
      const clang::SourceLocation last = sources.getExpansionLoc(decl->getEndLoc());
      if (begin.isInvalid() || last.isInvalid() ||
          sources.isBeforeInTranslationUnit(last, annotationEnd))
        continue; // entirely before the annotation
      if (!sources.isBeforeInTranslationUnit(begin, annotationEnd)) {
        // The first declaration after it. `extern "C" __global__ void k()` is its function.
        if (const auto* linkage = llvm::dyn_cast<clang::LinkageSpecDecl>(decl);
            linkage && !linkage->hasBraces() && !linkage->decls_empty())
          return {*linkage->decls_begin(), false};
        return {decl, false};
      }
      inside = decl;
      break;
    }
    if (inside == nullptr)
      return {};
    // Between `template <...>` and the function's name: before the function.
    if (const auto* templ = llvm::dyn_cast<clang::FunctionTemplateDecl>(inside)) {
      const clang::SourceLocation name =
          sources.getExpansionLoc(templ->getTemplatedDecl()->getLocation());
      return {inside, sources.isBeforeInTranslationUnit(name, annotationEnd)};
    }
    if (!isGrouping(*inside))
      return {inside, true};
    scope = llvm::cast<clang::DeclContext>(inside);
  }
}

} // namespace overlap::frontend
