// Spells the types of parameters and device variables for the generated code, whose header a
// host compiler must understand with nothing else included: typedefs become the types they name
// (`real` is float, `half` is __half), `restrict` goes (it means nothing to a host declaration,
// and nvcc refuses `&x` of a restrict pointer as a `const void*`), and the header includes the
// header that declares each remaining class or enum type, or declares it itself when the kernel
// file does.
#pragma once

#include "ir/KernelIR.h"

#include <clang/AST/PrettyPrinter.h>
#include <clang/AST/Type.h>

#include <optional>
#include <set>
#include <string>

namespace clang {
class ASTContext;
class HeaderSearch;
class TagDecl;
} // namespace clang

namespace overlap::frontend {

class TypeSpeller {
public:
  TypeSpeller(clang::ASTContext& context, const clang::HeaderSearch& headers);

  // The type without typedefs and restrict, spelled as generated code writes it; nullopt with
  // `problem` set when code outside the kernel file cannot name it.
  std::optional<std::string> spell(clang::QualType type, std::string* problem);

  // The type without typedefs and restrict.
  clang::QualType plain(clang::QualType type) const;

  const ir::HeaderNeeds& needs() const { return needs_; }

  // How generated code spells types (and template arguments): canonical, fully qualified.
  const clang::PrintingPolicy& policy() const { return policy_; }

private:
  bool collectNeeds(clang::QualType type, std::string* problem);
  bool needTag(const clang::TagDecl& tag, std::string* problem);
  void addInclude(const std::string& include);
  void addDeclaration(const std::string& declaration, bool withoutKernelFileOnly = false);

  clang::ASTContext& context_;
  const clang::HeaderSearch& headers_;
  clang::PrintingPolicy policy_;
  ir::HeaderNeeds needs_;
  std::set<std::string> seen_;
};

} // namespace overlap::frontend
