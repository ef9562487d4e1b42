#include "frontend/AnnotationRecorder.h"

#include "frontend/AnnotationLocator.h"

#include <clang/Basic/IdentifierTable.h>
#include <clang/Lex/Token.h>

namespace overlap::frontend {

void AnnotationRecorder::MacroExpands(const clang::Token& name,
                                      const clang::MacroDefinition& /*definition*/,
                                      clang::SourceRange range, const clang::MacroArgs* /*args*/) {
  const clang::IdentifierInfo* identifier = name.getIdentifierInfo();
  if (identifier == nullptr || identifier->getName() != kKernelMacro)
    return;
  uses_->push_back({name.getLocation(), range.getEnd()});
}

} // namespace overlap::frontend
