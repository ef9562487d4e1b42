#include "frontend/TypeSpeller.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/HeaderSearch.h>

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

namespace overlap::frontend {
namespace {

clang::PrintingPolicy generatedCodePolicy(const clang::ASTContext& context) {
  clang::PrintingPolicy policy(context.getLangOpts());
  policy.SuppressTagKeyword = true;
  policy.SuppressScope = false;
  policy.FullyQualifiedName = true;
  policy.SuppressUnwrittenScope = true;
  policy.PrintCanonicalTypes = true;
  policy.Bool = true;
  return policy;
}

// "namespace a { inline namespace v1 { struct S; } }" for a tag declared at namespace scope.
std::string forwardDeclaration(const clang::TagDecl& tag, const std::string& declarator) {
  std::string open;
  std::string close;
  for (const clang::DeclContext* scope = tag.getDeclContext(); !scope->isTranslationUnit();
       scope = scope->getParent()) {
    if (const auto* ns = llvm::dyn_cast<clang::NamespaceDecl>(scope)) {
      open = std::string(ns->isInline() ? "inline " : "") + "namespace " + ns->getNameAsString() +
             " { " + open;
      close += " }";
    } else if (const auto* linkage = llvm::dyn_cast<clang::LinkageSpecDecl>(scope)) {
      open = std::string("extern \"") +
             (linkage->getLanguage() == clang::LinkageSpecLanguageIDs::C ? "C" : "C++") + "\" { " +
             open;
      close += " }";
    }
  }
  return open + declarator + close;
}

// Why code outside the kernel file cannot name a tag the kernel file declares; empty if it can.
std::string unnameableReason(const clang::TagDecl& tag) {
  for (const clang::DeclContext* scope = tag.getDeclContext(); !scope->isTranslationUnit();
       scope = scope->getParent()) {
    if (scope->isFunctionOrMethod())
      return "is declared inside a function";
    if (scope->isRecord())
      return "is nested in a class, which host code would need to see whole";
    if (const auto* ns = llvm::dyn_cast<clang::NamespaceDecl>(scope);
        ns && ns->isAnonymousNamespace())
      return "is in an anonymous namespace";
  }
  // typedef struct { ... } block_q8_0: the typedef names the struct for linkage, and so for the
  // generated header too.
  if (tag.getName().empty() && tag.getTypedefNameForAnonDecl() == nullptr)
    return "has no name";
  return "";
}

// The name code outside the kernel file knows a tag by: its own, or its typedef's.
std::string tagName(const clang::TagDecl& tag) {
  if (const clang::TypedefNameDecl* alias = tag.getTypedefNameForAnonDecl();
      alias != nullptr && tag.getName().empty())
    return alias->getNameAsString();
  return tag.getNameAsString();
}

const char* recordKeyword(const clang::RecordDecl& record) {
  return record.isUnion() ? "union" : record.isClass() ? "class" : "struct";
}

// "template <typename P0, int P1> struct plus;": the class template declared ahead, without its
// default arguments (the kernel file, included before the header, has given them already); empty
// where a parameter is a template template parameter or a non-type one of a dependent type.
std::string templateForwardDeclarator(const clang::ClassTemplateDecl& pattern,
                                      const clang::PrintingPolicy& policy) {
  std::string params;
  const clang::TemplateParameterList& list = *pattern.getTemplateParameters();
  for (unsigned i = 0; i < list.size(); ++i) {
    const clang::NamedDecl* param = list.getParam(i);
    std::string spelled;
    if (const auto* type = llvm::dyn_cast<clang::TemplateTypeParmDecl>(param)) {
      spelled = type->isParameterPack() ? "typename..." : "typename";
    } else if (const auto* value = llvm::dyn_cast<clang::NonTypeTemplateParmDecl>(param)) {
      if (value->getType()->isDependentType() || value->isParameterPack())
        return "";
      spelled = value->getType().getAsString(policy);
    } else {
      return "";
    }
    params += (i == 0 ? "" : ", ") + spelled + " P" + std::to_string(i);
  }
  return "template <" + params + "> " + recordKeyword(*pattern.getTemplatedDecl()) + " " +
         pattern.getNameAsString() + ";";
}

} // namespace

TypeSpeller::TypeSpeller(clang::ASTContext& context, const clang::HeaderSearch& headers)
    : context_(context), headers_(headers), policy_(generatedCodePolicy(context)) {}

clang::QualType TypeSpeller::plain(clang::QualType type) const {
  const clang::QualType canonical = type.getCanonicalType();
  clang::Qualifiers qualifiers = canonical.getLocalQualifiers();
  qualifiers.removeRestrict();
  clang::QualType unqualified = canonical.getLocalUnqualifiedType();
  if (const auto* pointer = unqualified->getAs<clang::PointerType>())
    unqualified = context_.getPointerType(plain(pointer->getPointeeType()));
  return context_.getQualifiedType(unqualified, qualifiers);
}

std::optional<std::string> TypeSpeller::spell(clang::QualType type, std::string* problem) {
  const clang::QualType plainType = plain(type);
  if (!collectNeeds(plainType, problem))
    return std::nullopt;
  return plainType.getAsString(policy_);
}

bool TypeSpeller::collectNeeds(clang::QualType type, std::string* problem) {
  clang::QualType inner = type.getCanonicalType();
  for (;;) {
    if (const auto* pointer = inner->getAs<clang::PointerType>())
      inner = pointer->getPointeeType();
    else if (const auto* array = context_.getAsArrayType(inner))
      inner = array->getElementType();
    else
      break;
  }
  if (const auto* tag = inner->getAsTagDecl())
    return needTag(*tag, problem);
  return true;
}

bool TypeSpeller::needTag(const clang::TagDecl& tag, std::string* problem) {
  // A class template specialization needs its template's header and its arguments' types.
  if (const auto* specialization = llvm::dyn_cast<clang::ClassTemplateSpecializationDecl>(&tag)) {
    for (const clang::TemplateArgument& argument : specialization->getTemplateArgs().asArray())
      if (argument.getKind() == clang::TemplateArgument::Type &&
          !collectNeeds(argument.getAsType(), problem))
        return false;
  }
  const clang::SourceManager& sources = context_.getSourceManager();
  // Where it is defined: CUDA's headers declare some of each other's types ahead.
  const clang::TagDecl& declared =
      tag.getDefinition() != nullptr ? *tag.getDefinition() : *tag.getCanonicalDecl();
  const clang::SourceLocation at = sources.getExpansionLoc(declared.getLocation());
  const clang::FileID file = sources.getFileID(at);
  if (file == sources.getMainFileID()) {
    const std::string reason = unnameableReason(tag);
    if (!reason.empty()) {
      *problem = "type '" + tag.getQualifiedNameAsString() + "' " + reason +
                 ", so code outside the kernel file cannot name it; declare it at namespace "
                 "scope, or in a header the kernel file includes";
      return false;
    }
    if (const auto* specialization = llvm::dyn_cast<clang::ClassTemplateSpecializationDecl>(&tag)) {
      const std::string declarator =
          templateForwardDeclarator(*specialization->getSpecializedTemplate(), policy_);
      if (declarator.empty()) {
        *problem = "type '" + tag.getQualifiedNameAsString() +
                   "' is a specialization of a class template of the kernel file whose "
                   "parameters the generated header cannot declare ahead; declare the template "
                   "in a header the kernel file includes";
        return false;
      }
      addDeclaration(forwardDeclaration(tag, declarator));
      return true;
    }
    // An unnamed tag's typedef conflicts with its declaration ahead where the kernel file is seen.
    const bool unnamed = tag.getName().empty();
    if (const auto* record = llvm::dyn_cast<clang::RecordDecl>(&tag)) {
      addDeclaration(
          forwardDeclaration(tag, std::string(recordKeyword(*record)) + " " + tagName(tag) + ";"),
          unnamed);
      return true;
    }
    const auto& enumeration = llvm::cast<clang::EnumDecl>(tag);
    if (!enumeration.isFixed()) {
      *problem = "enum '" + tag.getQualifiedNameAsString() +
                 "' has no fixed underlying type, so the generated header cannot declare it; "
                 "give it one (enum E : int) or declare it in a header the kernel file includes";
      return false;
    }
    addDeclaration(
        forwardDeclaration(
            tag, std::string(enumeration.isScoped() ? "enum class " : "enum ") + tagName(tag) +
                     " : " + enumeration.getIntegerType().getCanonicalType().getAsString(policy_) +
                     ";"),
        unnamed);
    return true;
  }
  const clang::OptionalFileEntryRef entry = sources.getFileEntryRefForID(file);
  if (!entry) {
    *problem = "type '" + tag.getQualifiedNameAsString() +
               "' is not declared in a file the generated header could include";
    return false;
  }
  bool angled = false;
  const clang::OptionalFileEntryRef mainEntry =
      sources.getFileEntryRefForID(sources.getMainFileID());
  std::string path = headers_.suggestPathToFileForDiagnostics(
      *entry, mainEntry ? mainEntry->getName() : llvm::StringRef(), &angled);
  // CUDA declares some types in .hpp files that refuse to be included on their own
  // (cuda_fp16.hpp says to include cuda_fp16.h): take the .h beside it.
  if (llvm::sys::path::extension(path) == ".hpp") {
    llvm::SmallString<256> sibling(entry->getName());
    llvm::sys::path::replace_extension(sibling, ".h");
    if (llvm::sys::fs::exists(sibling))
      path = path.substr(0, path.size() - 4) + ".h";
  }
  addInclude(angled ? "<" + path + ">" : "\"" + path + "\"");
  return true;
}

void TypeSpeller::addInclude(const std::string& include) {
  if (seen_.insert("#include " + include).second)
    needs_.includes.push_back(include);
}

void TypeSpeller::addDeclaration(const std::string& declaration, bool withoutKernelFileOnly) {
  if (seen_.insert(declaration).second)
    (withoutKernelFileOnly ? needs_.declarationsWithoutKernelFile : needs_.declarations)
        .push_back(declaration);
}

} // namespace overlap::frontend
