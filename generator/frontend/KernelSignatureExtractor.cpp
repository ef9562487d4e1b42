#include "frontend/KernelSignatureExtractor.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Type.h>
#include <clang/Basic/SourceManager.h>

namespace overlap::frontend {
namespace {

// Drops a const at the top of `type`, also where a typedef carries it (typedef const float cf).
clang::QualType withoutTopLevelConst(clang::QualType type) {
  if (type.isLocalConstQualified()) {
    type.removeLocalConst();
    return type;
  }
  if (type.isConstQualified()) {
    clang::QualType canonical = type.getCanonicalType();
    canonical.removeLocalConst();
    return canonical;
  }
  return type;
}

// An array parameter (float x[]) is a pointer; its type prints as the array unless decayed.
clang::QualType adjustedParameterType(const clang::ParmVarDecl& param) {
  clang::QualType type = param.getType();
  if (const auto* decayed = type->getAs<clang::DecayedType>())
    return decayed->getDecayedType();
  return type;
}

ir::Parameter extractParameter(const clang::ParmVarDecl& param, const clang::ASTContext& context) {
  const clang::PrintingPolicy& policy = context.getPrintingPolicy();
  const clang::QualType type = adjustedParameterType(param);
  ir::Parameter result;
  result.name = param.getNameAsString();
  result.type = type.getAsString(policy);
  result.isPointer = type->isPointerType();
  clang::QualType value = type;
  if (result.isPointer) {
    const clang::QualType pointee = type->getPointeeType();
    result.pointeeConst = pointee.isConstQualified();
    value = pointee;
  }
  value = withoutTopLevelConst(value);
  result.valueType = value.getAsString(policy);
  result.scalarKind = scalarKindOf(value);
  result.elementKind = elementKindOf(value, context);
  result.elementSize = elementSizeOf(value, context);

  const clang::SourceManager& sources = context.getSourceManager();
  const clang::SourceLocation at =
      param.getLocation().isValid() ? param.getLocation() : param.getBeginLoc();
  const clang::PresumedLoc presumed = sources.getPresumedLoc(sources.getExpansionLoc(at));
  if (presumed.isValid()) {
    result.line = presumed.getLine();
    result.column = presumed.getColumn();
  }
  return result;
}

} // namespace

ir::ScalarKind scalarKindOf(clang::QualType type) {
  const clang::QualType canonical = type.getCanonicalType();
  const auto* builtin = canonical->getAs<clang::BuiltinType>();
  if (builtin == nullptr)
    return ir::ScalarKind::Other;
  if (builtin->isBooleanType())
    return ir::ScalarKind::Boolean;
  if (builtin->isFloatingPoint())
    return ir::ScalarKind::FloatingPoint;
  if (builtin->isSignedInteger())
    return ir::ScalarKind::SignedInteger;
  if (builtin->isUnsignedInteger())
    return ir::ScalarKind::UnsignedInteger;
  return ir::ScalarKind::Other;
}

unsigned elementSizeOf(clang::QualType type, const clang::ASTContext& context) {
  if (type.isNull() || type->isDependentType() || type->isIncompleteType() ||
      type->isFunctionType() || type->isSizelessType())
    return 0;
  return static_cast<unsigned>(context.getTypeSizeInChars(type).getQuantity());
}

ir::ElementKind elementKindOf(clang::QualType type, const clang::ASTContext& context) {
  const clang::QualType canonical = type.getCanonicalType();
  const auto* builtin = canonical->getAs<clang::BuiltinType>();
  if (builtin == nullptr)
    return ir::ElementKind::Other;
  switch (builtin->getKind()) {
  case clang::BuiltinType::Float:
    return ir::ElementKind::F32;
  case clang::BuiltinType::Double:
    return ir::ElementKind::F64;
  default:
    break;
  }
  if (!builtin->isInteger() || builtin->isBooleanType())
    return ir::ElementKind::Other;
  const bool isSigned = builtin->isSignedInteger();
  switch (context.getTypeSize(canonical)) {
  case 8:
    return isSigned ? ir::ElementKind::I8 : ir::ElementKind::U8;
  case 16:
    return isSigned ? ir::ElementKind::I16 : ir::ElementKind::U16;
  case 32:
    return isSigned ? ir::ElementKind::I32 : ir::ElementKind::U32;
  case 64:
    return isSigned ? ir::ElementKind::I64 : ir::ElementKind::U64;
  default: // __int128
    return ir::ElementKind::Other;
  }
}

ir::KernelSignature extractSignature(const clang::FunctionDecl& kernel) {
  const clang::ASTContext& context = kernel.getASTContext();
  ir::KernelSignature signature;
  signature.name = kernel.getNameAsString();
  // Function templates and functions inside class templates: their parameter types are not
  // known until instantiation, which the generator cannot choose.
  signature.isTemplate = kernel.isTemplated();
  for (const clang::ParmVarDecl* param : kernel.parameters())
    signature.params.push_back(extractParameter(*param, context));
  return signature;
}

} // namespace overlap::frontend
