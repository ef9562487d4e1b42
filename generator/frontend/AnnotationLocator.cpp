#include "frontend/AnnotationLocator.h"

#include "frontend/MacroArgumentScanner.h"

#include <clang/Basic/SourceManager.h>

namespace overlap::frontend {

AnnotationSource locateAnnotation(const AnnotationUse& use, const clang::SourceManager& sources) {
  AnnotationSource source;
  // The outermost expansion: if OVERLAP_KERNEL was itself used inside another macro, the scan
  // below sees that macro's name and says so.
  const clang::SourceLocation start = sources.getExpansionLoc(use.name);
  source.invocation = start;
  const auto [file, offset] = sources.getDecomposedLoc(start);
  bool invalid = false;
  const llvm::StringRef buffer = sources.getBufferData(file, &invalid);
  if (invalid) {
    source.error = std::string("cannot read the source of this ") + kKernelMacro + " annotation";
    return source;
  }
  const MacroArgumentSpan span =
      findMacroArguments(std::string_view(buffer.data(), buffer.size()), offset, kKernelMacro);
  if (!span.ok()) {
    source.error = span.error + "; write " + kKernelMacro +
                   "(...) directly before the kernel, not through another macro";
    return source;
  }
  source.text = std::string(buffer.substr(span.begin, span.end - span.begin));
  source.begin = start.getLocWithOffset(static_cast<int>(span.begin - offset));
  return source;
}

} // namespace overlap::frontend
