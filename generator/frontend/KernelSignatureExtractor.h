// Reads an annotated kernel's signature from the AST into the Clang-free IR the annotation checker
// and the emitter work on.
#pragma once

#include "ir/KernelIR.h"

#include <clang/Basic/SourceLocation.h>

#include <string>
#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
class FunctionTemplateDecl;
class NamedDecl;
class QualType;
} // namespace clang

namespace overlap::frontend {

class TypeSpeller;

// A parameter whose type generated code cannot spell, and why.
struct SignatureProblem {
  clang::SourceLocation at;
  std::string message;
};

// The kernel's name (qualified by its named namespaces), its parameters (types as generated code
// spells them, with pointee/value types, kinds, sizes, vector accesses and positions). For an
// instantiation of a kernel template, also its template arguments. Parameter positions are the
// presumed line/column of the parameter's name, as in compiler diagnostics.
ir::KernelSignature extractSignature(const clang::FunctionDecl& kernel, TypeSpeller& types,
                                     std::vector<SignatureProblem>* problems);

// A kernel template's name and template parameters (its function parameters are dependent).
ir::KernelSignature extractTemplateSignature(const clang::FunctionTemplateDecl& kernel);

// "ns::inner::k" for k in namespace ns::inner; anonymous and inline namespaces are left out (the
// names in them are reachable without them).
std::string qualifiedName(const clang::NamedDecl& decl);

// The element kind of a value of this type: float → F32, double → F64, __half → F16,
// __nv_bfloat16 → BF16, integers other than bool by size and signedness; a struct made of one of
// these with no padding (float2, uchar4, __half2) → that kind; everything else → Other.
ir::ElementKind elementKindOf(clang::QualType type, const clang::ASTContext& context);

ir::ScalarKind scalarKindOf(clang::QualType type);

// Size in bytes, 0 where it is unknown: void, incomplete, dependent and function types.
unsigned elementSizeOf(clang::QualType type, const clang::ASTContext& context);

} // namespace overlap::frontend
