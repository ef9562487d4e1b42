#include "frontend/AnnotatedDeclFinder.h"

#include "frontend/AnnotationLocator.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/RecursiveASTVisitor.h>

namespace overlap::frontend {
namespace {

class Finder : public clang::RecursiveASTVisitor<Finder> {
public:
  explicit Finder(std::vector<AnnotatedDecl>& found) : found_(found) {}

  bool VisitDecl(clang::Decl* decl) {
    for (const auto* attribute : decl->specific_attrs<clang::AnnotateAttr>()) {
      if (!attribute->isInherited() && attribute->getAnnotation() == kKernelAnnotation)
        found_.push_back({decl, attribute});
    }
    return true;
  }

private:
  std::vector<AnnotatedDecl>& found_;
};

} // namespace

std::vector<AnnotatedDecl> findAnnotatedDecls(clang::ASTContext& context) {
  std::vector<AnnotatedDecl> found;
  Finder(found).TraverseDecl(context.getTranslationUnitDecl());
  return found;
}

} // namespace overlap::frontend
