// Records every OVERLAP_KERNEL(...) the preprocessor expands. The macro expands to nothing, also
// for the generator, so it may stand wherever a declaration may start: above `template <...>` as
// well as before `__global__`. The collector then pairs each use with the declaration after it.
#pragma once

#include <clang/Basic/SourceLocation.h>
#include <clang/Lex/PPCallbacks.h>

#include <memory>
#include <vector>

namespace overlap::frontend {

struct AnnotationUse {
  clang::SourceLocation name; // the macro's name where it was expanded (may be a macro location)
  clang::SourceLocation end;  // the invocation's closing parenthesis, as a file location
};

using AnnotationUses = std::vector<AnnotationUse>;

class AnnotationRecorder : public clang::PPCallbacks {
public:
  explicit AnnotationRecorder(std::shared_ptr<AnnotationUses> uses) : uses_(std::move(uses)) {}

  void MacroExpands(const clang::Token& name, const clang::MacroDefinition& definition,
                    clang::SourceRange range, const clang::MacroArgs* args) override;

private:
  std::shared_ptr<AnnotationUses> uses_;
};

} // namespace overlap::frontend
