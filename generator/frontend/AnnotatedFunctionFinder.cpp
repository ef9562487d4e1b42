#include "frontend/AnnotatedFunctionFinder.h"

#include "frontend/AnnotationLocator.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/RecursiveASTVisitor.h>

namespace overlap::frontend {
namespace {

class Finder : public clang::RecursiveASTVisitor<Finder> {
public:
  explicit Finder(std::vector<AnnotatedFunction>& found) : found_(found) {}

  bool VisitFunctionDecl(clang::FunctionDecl* function) {
    for (const auto* attribute : function->specific_attrs<clang::AnnotateAttr>()) {
      if (!attribute->isInherited() && attribute->getAnnotation() == kKernelAnnotation)
        found_.push_back({function, attribute});
    }
    return true;
  }

private:
  std::vector<AnnotatedFunction>& found_;
};

} // namespace

std::vector<AnnotatedFunction> findAnnotatedFunctions(clang::ASTContext& context) {
  std::vector<AnnotatedFunction> found;
  Finder(found).TraverseDecl(context.getTranslationUnitDecl());
  return found;
}

} // namespace overlap::frontend
