#include "frontend/IncludedFiles.h"

namespace overlap::frontend {

bool IncludedFiles::sawDependency(llvm::StringRef fileName, bool /*fromModule*/, bool /*isSystem*/,
                                  bool isModuleFile, bool isMissing) {
  // <built-in> and <command line> are the preprocessor's own buffers, not files.
  return !isMissing && !isModuleFile && !fileName.empty() && !fileName.starts_with("<");
}

} // namespace overlap::frontend
