// Records every file the preprocessor enters, system headers included: the generated files
// depend on all of them (a CUDA or libstdc++ update can change a kernel's signature types).
#pragma once

#include <clang/Frontend/Utils.h>

namespace overlap::frontend {

class IncludedFiles : public clang::DependencyCollector {
public:
  bool needSystemDependencies() override { return true; }
  bool sawDependency(llvm::StringRef fileName, bool fromModule, bool isSystem, bool isModuleFile,
                     bool isMissing) override;
};

} // namespace overlap::frontend
