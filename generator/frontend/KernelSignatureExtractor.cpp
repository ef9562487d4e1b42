#include "frontend/KernelSignatureExtractor.h"

#include "frontend/GridSyncFinder.h"
#include "frontend/IndexOffsetFinder.h"
#include "frontend/IndexTermFinder.h"
#include "frontend/ParameterAccessFinder.h"
#include "frontend/TypeSpeller.h"
#include "frontend/VectorAccessFinder.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/AST/Type.h>

#include <clang/Basic/SourceManager.h>
#include <set>

namespace overlap::frontend {
namespace {

// An array parameter (float x[]) is a pointer; its type prints as the array unless decayed.
clang::QualType adjustedParameterType(const clang::ParmVarDecl& param) {
  clang::QualType type = param.getType();
  if (const auto* decayed = type->getAs<clang::DecayedType>())
    return decayed->getDecayedType();
  return type;
}

ir::ElementKind builtinKind(const clang::BuiltinType& builtin, const clang::ASTContext& context) {
  switch (builtin.getKind()) {
  case clang::BuiltinType::Float:
    return ir::ElementKind::F32;
  case clang::BuiltinType::Double:
    return ir::ElementKind::F64;
  default:
    break;
  }
  if (!builtin.isInteger() || builtin.isBooleanType())
    return ir::ElementKind::Other;
  const bool isSigned = builtin.isSignedInteger();
  switch (context.getTypeSize(&builtin)) {
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

// The kind of every lane of a struct, and the bytes they fill; Other when the lanes differ.
ir::ElementKind recordLaneKind(const clang::RecordDecl& record, const clang::ASTContext& context,
                               unsigned* bytes);

ir::ElementKind laneKind(clang::QualType type, const clang::ASTContext& context, unsigned* bytes) {
  const clang::QualType canonical = type.getCanonicalType();
  if (const auto* array = context.getAsConstantArrayType(canonical)) {
    unsigned elementBytes = 0;
    const ir::ElementKind kind = laneKind(array->getElementType(), context, &elementBytes);
    *bytes = elementBytes * static_cast<unsigned>(array->getSize().getZExtValue());
    return kind;
  }
  if (canonical->isIncompleteType() || canonical->isDependentType())
    return ir::ElementKind::Other;
  *bytes = static_cast<unsigned>(context.getTypeSizeInChars(canonical).getQuantity());
  if (const auto* builtin = canonical->getAs<clang::BuiltinType>())
    return builtinKind(*builtin, context);
  const auto* record = canonical->getAsRecordDecl();
  if (record == nullptr)
    return ir::ElementKind::Other;
  // CUDA's 16-bit floating types are structs of an unsigned short.
  if (record->getDeclContext()->isTranslationUnit()) {
    if (record->getName() == "__half")
      return ir::ElementKind::F16;
    if (record->getName() == "__nv_bfloat16")
      return ir::ElementKind::BF16;
  }
  unsigned lanes = 0;
  const ir::ElementKind kind = recordLaneKind(*record, context, &lanes);
  return lanes == *bytes ? kind : ir::ElementKind::Other; // padding: not plain lanes
}

ir::ElementKind recordLaneKind(const clang::RecordDecl& record, const clang::ASTContext& context,
                               unsigned* bytes) {
  const auto* cxx = llvm::dyn_cast<clang::CXXRecordDecl>(&record);
  if (record.isUnion() || (cxx && cxx->hasDefinition() && cxx->getNumBases() > 0) ||
      record.field_empty())
    return ir::ElementKind::Other;
  std::optional<ir::ElementKind> common;
  *bytes = 0;
  for (const clang::FieldDecl* field : record.fields()) {
    if (field->isBitField())
      return ir::ElementKind::Other;
    unsigned fieldBytes = 0;
    const ir::ElementKind kind = laneKind(field->getType(), context, &fieldBytes);
    if (kind == ir::ElementKind::Other || (common && *common != kind))
      return ir::ElementKind::Other;
    common = kind;
    *bytes += fieldBytes;
  }
  return *common;
}

// A pointer among the fields of a class passed by value (its bases', its members' and arrays'
// of them too), or null.
const clang::FieldDecl* pointerField(clang::QualType type, unsigned depth = 0) {
  constexpr unsigned kDeepest = 8;
  type = type.getCanonicalType();
  while (const clang::ArrayType* array = type->getAsArrayTypeUnsafe())
    type = array->getElementType().getCanonicalType();
  const clang::RecordDecl* record = type->getAsRecordDecl();
  if (record == nullptr || depth > kDeepest || !record->getDefinition())
    return nullptr;
  record = record->getDefinition();
  if (const auto* cxx = llvm::dyn_cast<clang::CXXRecordDecl>(record))
    for (const clang::CXXBaseSpecifier& base : cxx->bases())
      if (const clang::FieldDecl* field = pointerField(base.getType(), depth + 1))
        return field;
  for (const clang::FieldDecl* field : record->fields()) {
    clang::QualType fieldType = field->getType().getCanonicalType();
    while (const clang::ArrayType* array = fieldType->getAsArrayTypeUnsafe())
      fieldType = array->getElementType().getCanonicalType();
    if (fieldType->isPointerType() || fieldType->isReferenceType())
      return field;
    if (const clang::FieldDecl* inner = pointerField(fieldType, depth + 1))
      return inner;
  }
  return nullptr;
}

ir::Parameter extractParameter(const clang::ParmVarDecl& param, unsigned vectorAlignment,
                               const ParameterAccess& access, const IndexTerm& indexTerm,
                               TypeSpeller& types, std::vector<SignatureProblem>* problems) {
  const clang::ASTContext& context = param.getASTContext();
  // A parameter's own const (const int n) is no part of the function's type.
  const clang::QualType type = types.plain(adjustedParameterType(param)).getUnqualifiedType();
  ir::Parameter result;
  result.name = param.getNameAsString();
  std::string problem;
  if (std::optional<std::string> spelled = types.spell(type, &problem))
    result.type = *spelled;
  else
    problems->push_back({param.getLocation(), "parameter '" + result.name + "': " + problem});
  result.isPointer = type->isPointerType();
  if (type->isFunctionPointerType())
    problems->push_back({param.getLocation(),
                         "parameter '" + result.name +
                             "' is a pointer to a function, which the variants cannot pass: it is "
                             "no array to copy, and the tuner has no function to give it"});
  if (const clang::FieldDecl* field = result.isPointer ? nullptr : pointerField(type))
    problems->push_back(
        {param.getLocation(),
         "parameter '" + result.name + "' passes '" + result.type +
             "' by value, which holds a pointer ('" + field->getQualifiedNameAsString() +
             "'): the variants neither copy what it points to nor advance it to a chunk; pass "
             "the arrays as pointer parameters of the kernel"});
  clang::QualType value = type;
  if (result.isPointer) {
    const clang::QualType pointee = type->getPointeeType();
    result.pointeeConst = pointee.isConstQualified();
    result.pointeePointer = pointee->isPointerType();
    value = pointee;
  }
  value = value.getUnqualifiedType();
  if (std::optional<std::string> spelled = types.spell(value, &problem))
    result.valueType = *spelled;
  result.scalarKind = scalarKindOf(value);
  result.elementKind = elementKindOf(value, context);
  result.elementSize = elementSizeOf(value, context);
  result.vectorAccessAlignment = result.isPointer ? vectorAlignment : 0;

  const clang::SourceManager& sources = context.getSourceManager();
  const clang::SourceLocation at =
      param.getLocation().isValid() ? param.getLocation() : param.getBeginLoc();
  // Line and column as written (of the macro's use for an expansion); left 0 where unknown.
  const auto place = [&sources](clang::SourceLocation where, unsigned* line, unsigned* column) {
    const clang::PresumedLoc presumed = sources.getPresumedLoc(sources.getExpansionLoc(where));
    if (presumed.isValid()) {
      *line = presumed.getLine();
      *column = presumed.getColumn();
    }
  };
  place(at, &result.line, &result.column);
  if (access.write.isValid())
    place(access.write, &result.writeLine, &result.writeColumn);
  if (access.plainWrite.isValid())
    place(access.plainWrite, &result.plainWriteLine, &result.plainWriteColumn);
  if (access.readBeforeWrite.isValid())
    place(access.readBeforeWrite, &result.readLine, &result.readColumn);
  if (indexTerm.where.isValid()) {
    place(indexTerm.where, &result.indexLine, &result.indexColumn);
    result.indexedArray = static_cast<int>(indexTerm.array);
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
  unsigned bytes = 0;
  return laneKind(type, context, &bytes);
}

std::string qualifiedName(const clang::NamedDecl& decl) {
  std::string name = decl.getNameAsString();
  for (const clang::DeclContext* scope = decl.getDeclContext(); !scope->isTranslationUnit();
       scope = scope->getParent())
    if (const auto* ns = llvm::dyn_cast<clang::NamespaceDecl>(scope);
        ns && !ns->isAnonymousNamespace() && !ns->isInline())
      name = ns->getNameAsString() + "::" + name;
  return name;
}

namespace {

// The parameters the body of `function` names.
class NamedParams : public clang::RecursiveASTVisitor<NamedParams> {
public:
  std::set<const clang::ParmVarDecl*> named;
  bool VisitDeclRefExpr(clang::DeclRefExpr* ref) {
    if (const auto* param = llvm::dyn_cast<clang::ParmVarDecl>(ref->getDecl()))
      named.insert(param);
    return true;
  }
};

} // namespace

ir::KernelSignature extractSignature(const clang::FunctionDecl& kernel, TypeSpeller& types,
                                     std::vector<SignatureProblem>* problems) {
  ir::KernelSignature signature;
  signature.name = qualifiedName(kernel);
  const std::vector<unsigned> alignments = vectorAccessAlignments(kernel);
  const std::vector<ParameterAccess> accesses = parameterAccesses(kernel);
  const std::vector<IndexTerm> terms = indexTerms(kernel);
  std::vector<std::vector<ir::IndexUse>> uses = indexUses(kernel);
  NamedParams names;
  names.TraverseStmt(kernel.getBody());
  for (unsigned i = 0; i < kernel.getNumParams(); ++i) {
    signature.params.push_back(extractParameter(*kernel.getParamDecl(i), alignments[i], accesses[i],
                                                terms[i], types, problems));
    signature.params.back().named = names.named.count(kernel.getParamDecl(i)) > 0;
    signature.params.back().indexUses = std::move(uses[i]);
  }
  // A parameter pack (template <typename... Args> k(int n, Args... args)): generated code spells
  // the kernel's parameters one by one and its template arguments as written, which a pack's
  // expansion is neither.
  if (const clang::FunctionDecl* pattern = kernel.getTemplateInstantiationPattern())
    for (const clang::ParmVarDecl* param : pattern->parameters())
      if (param->isParameterPack()) {
        problems->push_back({param->getLocation(),
                             "kernel '" + signature.name + "' takes a parameter pack ('" +
                                 param->getNameAsString() +
                                 "'), which Overlap's entry points cannot pass; give the kernel "
                                 "parameters of their own (a template of fixed arity, or a "
                                 "struct of values)"});
        break;
      }
  if (const std::optional<clang::SourceLocation> barrier = gridWideBarrier(kernel))
    problems->push_back(
        {*barrier, "kernel '" + signature.name +
                       "' synchronizes its whole grid here (a cooperative groups grid sync), "
                       "which holds only when the whole grid is launched cooperatively; Overlap's "
                       "variants launch it with <<<...>>>, most of them once per chunk: split the "
                       "phases into kernels of their own"});
  if (const auto* bounds = kernel.getAttr<clang::CUDALaunchBoundsAttr>())
    if (const clang::Expr* threads = bounds->getMaxThreads();
        threads != nullptr && !threads->isValueDependent())
      if (const std::optional<llvm::APSInt> value =
              threads->getIntegerConstantExpr(kernel.getASTContext()))
        signature.maxThreadsPerBlock = value->getExtValue();
  return signature;
}

ir::KernelSignature extractTemplateSignature(const clang::FunctionTemplateDecl& kernel) {
  ir::KernelSignature signature;
  signature.name = qualifiedName(*kernel.getTemplatedDecl());
  signature.isTemplate = true;
  for (const clang::NamedDecl* param : *kernel.getTemplateParameters()) {
    ir::TemplateParam out;
    out.name = param->getNameAsString();
    if (const auto* type = llvm::dyn_cast<clang::TemplateTypeParmDecl>(param)) {
      out.isType = true;
      out.hasDefault = type->hasDefaultArgument();
    } else if (const auto* value = llvm::dyn_cast<clang::NonTypeTemplateParmDecl>(param)) {
      out.hasDefault = value->hasDefaultArgument();
    } else if (const auto* templ = llvm::dyn_cast<clang::TemplateTemplateParmDecl>(param)) {
      out.hasDefault = templ->hasDefaultArgument();
    }
    signature.templateParams.push_back(out);
  }
  return signature;
}

} // namespace overlap::frontend
