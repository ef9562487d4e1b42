// Reads an annotated kernel's signature from the AST into the Clang-free IR the annotation checker
// and the emitter work on.
#pragma once

#include "ir/KernelIR.h"

namespace clang {
class ASTContext;
class FunctionDecl;
class QualType;
} // namespace clang

namespace overlap::frontend {

// The kernel's name, its parameters (types as spelled, with pointee/value types, kinds, sizes and
// positions) and whether it is a template. Parameter positions are the presumed line/column of
// the parameter's name, as in compiler diagnostics.
ir::KernelSignature extractSignature(const clang::FunctionDecl& kernel);

// The element kind of a value of this type: float → F32, double → F64, integers other than bool
// by size and signedness; everything else (bool, enums, classes, dependent types) → Other.
ir::ElementKind elementKindOf(clang::QualType type, const clang::ASTContext& context);

ir::ScalarKind scalarKindOf(clang::QualType type);

// Size in bytes, 0 where it is unknown: void, incomplete, dependent and function types.
unsigned elementSizeOf(clang::QualType type, const clang::ASTContext& context);

} // namespace overlap::frontend
