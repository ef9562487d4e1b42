#include "frontend/KernelCollector.h"

#include "annotation/AnnotationSema.h"
#include "annotation/Instantiations.h"
#include "annotation/Parser.h"
#include "emit/Emitter.h"
#include "frontend/AnnotatedDeclFinder.h"
#include "frontend/AnnotationLocator.h"
#include "frontend/DeferredDiagnostics.h"
#include "frontend/DiagnosticReporter.h"
#include "frontend/KernelSignatureExtractor.h"
#include "frontend/TypeSpeller.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/Expr.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Lex/Lexer.h>
#include <clang/Lex/MacroInfo.h>
#include <clang/Lex/Preprocessor.h>

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/Path.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <string>

namespace overlap::frontend {
namespace {

// The declarations that make Clang instantiate kernel templates are named after the annotation
// (its offset in the file) and the instantiate clause (its index), and follow this line.
constexpr const char* kInstantiationPrefix = "overlap_instantiation_";
constexpr const char* kConstantPrefix = "overlap_constant_";
constexpr const char* kRequestsHeading =
    "// overlap-gen: the kernel template instantiations the annotations list\n";

std::string instantiationVariable(unsigned annotationOffset, std::size_t index) {
  return kInstantiationPrefix + std::to_string(annotationOffset) + "_" + std::to_string(index);
}

// The first use of the macro name as a whole identifier in `text`, or npos.
std::size_t findIdentifier(llvm::StringRef text, llvm::StringRef identifier) {
  const auto isIdentifierChar = [](char c) { return llvm::isAlnum(c) || c == '_'; };
  for (std::size_t at = text.find(identifier); at != llvm::StringRef::npos;
       at = text.find(identifier, at + 1)) {
    const bool startsWord = at == 0 || !isIdentifierChar(text[at - 1]);
    const std::size_t after = at + identifier.size();
    const bool endsWord = after >= text.size() || !isIdentifierChar(text[after]);
    if (startsWord && endsWord)
      return at;
  }
  return llvm::StringRef::npos;
}

// Spans of the main file, as file offsets.
struct Span {
  unsigned begin = 0;
  unsigned end = 0;
  bool contains(unsigned offset) const { return begin <= offset && offset <= end; }
};

// The bodies of the main file's functions, where an error cannot change any kernel's signature.
class BodyFinder : public clang::RecursiveASTVisitor<BodyFinder> {
public:
  BodyFinder(const clang::SourceManager& sources, std::vector<Span>& bodies)
      : sources_(sources), bodies_(bodies) {}

  bool VisitFunctionDecl(clang::FunctionDecl* function) {
    const clang::Stmt* body = function->getBody();
    if (body == nullptr || !function->doesThisDeclarationHaveABody())
      return true;
    const clang::SourceLocation begin = sources_.getExpansionLoc(body->getBeginLoc());
    const clang::SourceLocation end = sources_.getExpansionLoc(body->getEndLoc());
    if (sources_.getFileID(begin) == sources_.getMainFileID() &&
        sources_.getFileID(end) == sources_.getMainFileID())
      bodies_.push_back({sources_.getFileOffset(begin), sources_.getFileOffset(end)});
    return true;
  }

private:
  const clang::SourceManager& sources_;
  std::vector<Span>& bodies_;
};

// What an annotation stands before, once located.
struct Annotation {
  AnnotationUse use;
  AnnotationSource source;
  AnnotationTarget target;
  unsigned offset = 0; // of the invocation in the main file
};

class Collector {
public:
  Collector(clang::CompilerInstance& compiler, clang::ASTContext& context, FrontendOutput& output,
            const AnnotationUses& uses, DeferredDiagnostics& diagnostics)
      : compiler_(compiler), context_(context), sources_(context.getSourceManager()),
        reporter_(compiler.getDiagnostics()), output_(output), uses_(uses),
        diagnostics_(diagnostics),
        types_(context, compiler.getPreprocessor().getHeaderSearchInfo()) {}

  void run() {
    locateAnnotations();
    if (!releaseParseDiagnostics())
      return;
    unsigned inMainFile = 0;
    for (const Annotation& annotation : annotations_) {
      if (!sources_.isWrittenInMainFile(annotation.source.invocation)) {
        reporter_.warning(annotation.source.invocation,
                          std::string(kKernelMacro) +
                              " outside the file being generated for is ignored; run the "
                              "generator on the file that defines the kernel");
        continue;
      }
      ++inMainFile;
      collect(annotation);
    }
    if (inMainFile == 0 && !reportedError_) {
      const clang::SourceLocation start = sources_.getLocForStartOfFile(sources_.getMainFileID());
      const clang::PresumedLoc presumed = sources_.getPresumedLoc(start);
      const std::string name = presumed.isValid() ? presumed.getFilename() : "the input";
      error(start, "no " + std::string(kKernelMacro) + " annotations in " + name +
                       "; mark a __global__ kernel with " + kKernelMacro +
                       "(...) from <overlap/annotate.h>");
    }
    collectDeviceGlobals();
    output_.header = types_.needs();
  }

private:
  void error(clang::SourceLocation at, const std::string& message,
             clang::CharSourceRange highlight = {}) {
    reporter_.error(at, message, highlight);
    reportedError_ = true;
  }

  void locateAnnotations() {
    for (const AnnotationUse& use : uses_) {
      Annotation annotation;
      annotation.use = use;
      annotation.source = locateAnnotation(use, sources_);
      annotation.target = findAnnotationTarget(context_, use.end);
      annotation.offset = sources_.getFileOffset(annotation.source.invocation);
      annotations_.push_back(annotation);
    }
  }

  // --- clang's own diagnostics ----------------------------------------------------------------

  // Shows clang's diagnostics of the parse, errors in code the kernels do not need as warnings.
  // False when generation cannot go on (an error that matters, or a second parse that will show
  // them all again).
  bool releaseParseDiagnostics() {
    bool errors = false;
    for (const clang::StoredDiagnostic& held : diagnostics_.held())
      errors = errors || held.getLevel() >= clang::DiagnosticsEngine::Error;
    if (!errors) {
      if (needsSecondPass()) {
        diagnostics_.drop();
        return false;
      }
      diagnostics_.release(
          compiler_.getDiagnostics(), [](const clang::StoredDiagnostic&) { return false; },
          [this](const clang::StoredDiagnostic& d) { return relocateRequest(d); });
      return true;
    }
    const bool fatal = diagnostics_.holdsFatalError();
    std::vector<Span> bodies;
    std::vector<Span> kernels;
    if (!fatal) {
      BodyFinder(sources_, bodies).TraverseDecl(context_.getTranslationUnitDecl());
      kernels = annotatedSpans();
    }
    const auto harmless = [&](const clang::StoredDiagnostic& diagnostic) {
      if (fatal || !diagnostic.getLocation().isValid())
        return false;
      const clang::SourceLocation at = sources_.getExpansionLoc(diagnostic.getLocation());
      if (sources_.getFileID(at) != sources_.getMainFileID())
        return false;
      const unsigned offset = sources_.getFileOffset(at);
      for (const Span& kernel : kernels)
        if (kernel.contains(offset))
          return false;
      for (const Span& body : bodies)
        if (body.contains(offset))
          return true;
      return false;
    };
    bool allHarmless = !fatal;
    for (const clang::StoredDiagnostic& held : diagnostics_.held())
      if (held.getLevel() >= clang::DiagnosticsEngine::Error && !harmless(held))
        allHarmless = false;
    if (allHarmless && needsSecondPass()) {
      diagnostics_.drop();
      return false;
    }
    diagnostics_.release(compiler_.getDiagnostics(), harmless,
                         [this](const clang::StoredDiagnostic& d) { return relocateRequest(d); });
    if (!allHarmless) {
      reportedError_ = true;
      explainMissingMacro();
    }
    return allHarmless;
  }

  // The annotated kernels' declarations and the annotations themselves: an error there matters.
  std::vector<Span> annotatedSpans() const {
    std::vector<Span> spans;
    const auto add = [&](clang::SourceLocation begin, clang::SourceLocation end) {
      begin = sources_.getExpansionLoc(begin);
      end = sources_.getExpansionLoc(end);
      if (sources_.getFileID(begin) == sources_.getMainFileID() &&
          sources_.getFileID(end) == sources_.getMainFileID())
        spans.push_back({sources_.getFileOffset(begin), sources_.getFileOffset(end)});
    };
    for (const Annotation& annotation : annotations_) {
      add(annotation.use.name, annotation.use.end);
      if (annotation.target.decl != nullptr)
        add(annotation.target.decl->getBeginLoc(), annotation.target.decl->getEndLoc());
    }
    return spans;
  }

  // Without <overlap/annotate.h>, OVERLAP_KERNEL(...) parses as a declaration and clang's
  // messages ("a type specifier is required") do not name the cause.
  void explainMissingMacro() {
    if (compiler_.getPreprocessor().isMacroDefined(kKernelMacro))
      return;
    const clang::FileID mainFile = sources_.getMainFileID();
    const llvm::StringRef text = sources_.getBufferData(mainFile);
    const std::size_t use = findIdentifier(text, kKernelMacro);
    if (use == llvm::StringRef::npos)
      return;
    error(sources_.getLocForStartOfFile(mainFile).getLocWithOffset(static_cast<int>(use)),
          std::string(kKernelMacro) +
              " is not defined; add '#include <overlap/annotate.h>' before its first use");
  }

  // --- requests for a second parse: template instantiations and the file's constants ---------

  // The annotated function (a template's pattern), when the annotation stands before one.
  static const clang::FunctionDecl* annotatedFunction(const Annotation& annotation) {
    if (annotation.target.inside || !annotation.source.ok())
      return nullptr;
    if (const auto* templ =
            llvm::dyn_cast_or_null<clang::FunctionTemplateDecl>(annotation.target.decl))
      return templ->getTemplatedDecl();
    return llvm::dyn_cast_or_null<clang::FunctionDecl>(annotation.target.decl);
  }

  // The names of the file's constants an annotation uses: names its expressions read that are
  // none of the kernel's parameters, template parameters or param(...) declarations.
  std::vector<annotation::Name> constantNames(const Annotation& annotation,
                                              const clang::FunctionDecl& function) const {
    std::set<std::string> own;
    for (const clang::ParmVarDecl* param : function.parameters())
      own.insert(param->getNameAsString());
    if (const clang::FunctionTemplateDecl* templ = function.getDescribedFunctionTemplate())
      for (const clang::NamedDecl* param : *templ->getTemplateParameters())
        own.insert(param->getNameAsString());
    annotation::Diagnostics ignored;
    for (const annotation::ParamClause& clause :
         annotation::parseAnnotation(annotation.source.text, ignored).hostParams)
      for (const annotation::HostParamSyntax& param : clause.params)
        own.insert(param.name.text);
    std::vector<annotation::Name> names;
    for (const annotation::Name& name : annotation::expressionNames(annotation.source.text))
      if (!own.count(name.text))
        names.push_back(name);
    fileFunctions(annotation, function, &names);
    return names;
  }

  // The functions of the file the annotation calls, directly or through another's body. With
  // `bodyNames`, the names their bodies read that are no constant found yet, each at the
  // annotation's call that leads to it.
  std::vector<ir::FileFunction>
  fileFunctions(const Annotation& annotation, const clang::FunctionDecl& function,
                std::vector<annotation::Name>* bodyNames = nullptr) const {
    std::vector<ir::FileFunction> functions;
    std::vector<annotation::Name> pending = annotation::calledFunctions(annotation.source.text);
    while (!pending.empty()) {
      const annotation::Name call = pending.back();
      pending.pop_back();
      if (std::any_of(functions.begin(), functions.end(),
                      [&](const ir::FileFunction& known) { return known.name == call.text; }))
        continue;
      std::optional<ir::FileFunction> found = fileFunction(call.text, function);
      if (!found)
        continue; // the checker says it is unknown
      const annotation::BodyNames used = annotation::bodyNames(*found);
      for (const annotation::Name& called : used.calls)
        pending.push_back({called.text, call.offset, call.length});
      if (bodyNames != nullptr)
        for (const annotation::Name& name : used.names)
          if (std::none_of(bodyNames->begin(), bodyNames->end(),
                           [&](const annotation::Name& known) { return known.text == name.text; }))
            bodyNames->push_back({name.text, call.offset, call.length});
      functions.push_back(std::move(*found));
    }
    return functions;
  }

  // `name` as a function-like macro, or a function of the kernel's scope, for annotations to call
  // (FileFunction); what keeps one from being called is said in `unusable`.
  std::optional<ir::FileFunction> fileFunction(const std::string& name,
                                               const clang::FunctionDecl& kernel) const {
    ir::FileFunction result;
    result.name = name;
    const clang::Preprocessor& preprocessor = compiler_.getPreprocessor();
    if (const clang::MacroInfo* macro = macroAt(name, kernel)) {
      if (!macro->isFunctionLike())
        return std::nullopt;
      result.macro = true;
      result.where = where(macro->getDefinitionLoc());
      for (const clang::IdentifierInfo* param : macro->params())
        result.params.push_back(param->getName().str());
      if (macro->isVariadic())
        result.unusable = "it takes a variable number of arguments";
      for (const clang::Token& token : macro->tokens()) {
        if (token.isOneOf(clang::tok::hash, clang::tok::hashhash, clang::tok::hashat))
          result.unusable = "it quotes or pastes tokens (# or ##)";
        result.body += (result.body.empty() ? "" : " ") + preprocessor.getSpelling(token);
      }
      return result;
    }
    std::vector<const clang::FunctionDecl*> found;
    for (const clang::NamedDecl* decl :
         lookupInKernelScopes(name, kernel, [](const clang::NamedDecl& decl) {
           return llvm::isa<clang::FunctionTemplateDecl, clang::FunctionDecl>(decl);
         })) {
      if (const auto* templ = llvm::dyn_cast<clang::FunctionTemplateDecl>(decl))
        found.push_back(templ->getTemplatedDecl());
      else
        found.push_back(llvm::cast<clang::FunctionDecl>(decl));
    }
    if (found.empty())
      return std::nullopt;
    const clang::FunctionDecl* definition = found.front()->getDefinition();
    result.where = where((definition != nullptr ? definition : found.front())->getLocation());
    for (const clang::ParmVarDecl* param : found.front()->parameters())
      result.params.push_back(param->getNameAsString());
    const auto* body = definition != nullptr
                           ? llvm::dyn_cast_or_null<clang::CompoundStmt>(definition->getBody())
                           : nullptr;
    const auto* only = body != nullptr && body->size() == 1
                           ? llvm::dyn_cast<clang::ReturnStmt>(body->body_front())
                           : nullptr;
    const clang::QualType returned = found.front()->getReturnType();
    if (found.size() > 1)
      result.unusable = "it is overloaded";
    else if (definition == nullptr)
      result.unusable = "its body is not in this file";
    else if (only == nullptr || only->getRetValue() == nullptr)
      result.unusable = "its body is more than one return statement";
    else if (!returned->isDependentType() && !returned->isIntegerType())
      result.unusable =
          "it returns '" + returned.getAsString(context_.getPrintingPolicy()) + "', not an integer";
    for (const clang::ParmVarDecl* param : found.front()->parameters())
      if (result.unusable.empty() && param->getName().empty())
        result.unusable = "a parameter of it has no name";
    if (!result.unusable.empty())
      return result;
    result.body = sourceText(only->getRetValue()->getSourceRange());
    for (const clang::ParmVarDecl* param : found.front()->parameters())
      result.defaults.push_back(param->hasDefaultArg() && !param->hasUnparsedDefaultArg() &&
                                        !param->hasUninstantiatedDefaultArg()
                                    ? sourceText(param->getDefaultArgRange())
                                    : "");
    if (&kernelScope(*found.front()) != &kernelScope(kernel))
      qualifyNames(result, *found.front());
    return result;
  }

  std::string sourceText(clang::SourceRange range) const {
    return clang::Lexer::getSourceText(sources_.getExpansionRange(range), sources_,
                                       context_.getLangOpts())
        .str();
  }

  // Spells the names `function` (of another scope than the kernel's) reads in its body and
  // default arguments as its scope sees them ("kThreads" of namespace cfg is "::cfg::kThreads"),
  // so that the kernel's scope finds what the function does. Macros stay: they are no scope's.
  void qualifyNames(ir::FileFunction& result, const clang::FunctionDecl& function) const {
    auto qualify = [&](std::string& text) {
      annotation::BodyNames used = annotation::bodyNames(result, text);
      enum class Use { Read, Call, Size };
      std::vector<std::pair<annotation::Name, Use>> names;
      for (const annotation::Name& name : used.names)
        names.emplace_back(name, Use::Read);
      for (const annotation::Name& name : used.calls)
        names.emplace_back(name, Use::Call);
      for (const annotation::Name& name : used.types)
        names.emplace_back(name, Use::Size);
      std::sort(names.begin(), names.end(), [](const auto& a, const auto& b) {
        return a.first.offset > b.first.offset; // from the end, so offsets stay true
      });
      for (const auto& [name, use] : names) {
        if (macroAt(name.text, function) != nullptr)
          continue;
        const auto found =
            lookupInKernelScopes(name.text, function, [use = use](const clang::NamedDecl& d) {
              switch (use) {
              case Use::Read:
                return llvm::isa<clang::VarDecl, clang::EnumConstantDecl>(d);
              case Use::Call:
                return llvm::isa<clang::FunctionDecl, clang::FunctionTemplateDecl>(d);
              case Use::Size:
                return llvm::isa<clang::TypeDecl>(d);
              }
              return false;
            });
        const std::optional<std::string> spelled =
            found.empty() ? std::nullopt : qualifiedSpelling(*found.back());
        if (!spelled)
          continue;
        if (use == Use::Size) // the span is all of sizeof(TYPE)
          text.replace(name.offset, name.length, "sizeof(" + *spelled + ")");
        else if (use == Use::Call) // the span is the whole call; its name ends before the '('
          text.replace(name.offset,
                       llvm::StringRef(text).substr(name.offset).split('(').first.rtrim().size(),
                       *spelled);
        else
          text.replace(name.offset, name.length, *spelled);
      }
    };
    qualify(result.body);
    for (std::string& value : result.defaults)
      qualify(value);
  }

  // "::cfg::kThreads": how any scope names `decl`, a declaration of a namespace, class or
  // enumeration; none for one of a function or a template.
  static std::optional<std::string> qualifiedSpelling(const clang::NamedDecl& decl) {
    std::string spelled = decl.getNameAsString();
    for (const clang::DeclContext* scope = decl.getDeclContext(); !scope->isTranslationUnit();
         scope = scope->getParent()) {
      if (llvm::isa<clang::LinkageSpecDecl>(scope))
        continue;
      if (const auto* ns = llvm::dyn_cast<clang::NamespaceDecl>(scope)) {
        if (!ns->isAnonymousNamespace()) // its names are its parent's
          spelled = ns->getNameAsString() + "::" + spelled;
      } else if (const auto* enumeration = llvm::dyn_cast<clang::EnumDecl>(scope)) {
        if (enumeration->isScoped())
          spelled = enumeration->getNameAsString() + "::" + spelled;
      } else if (const auto* record = llvm::dyn_cast<clang::CXXRecordDecl>(scope);
                 record != nullptr && !record->getName().empty() &&
                 record->getDescribedClassTemplate() == nullptr &&
                 !llvm::isa<clang::ClassTemplateSpecializationDecl>(record)) {
        spelled = record->getNameAsString() + "::" + spelled;
      } else {
        return std::nullopt;
      }
    }
    return "::" + spelled;
  }

  // "relu.cu:12": where a message says a function of the file is.
  std::string where(clang::SourceLocation location) const {
    const clang::PresumedLoc presumed = sources_.getPresumedLoc(sources_.getExpansionLoc(location));
    if (presumed.isInvalid())
      return "the file";
    return llvm::sys::path::filename(presumed.getFilename()).str() + ":" +
           std::to_string(presumed.getLine());
  }

  // The scope the kernel is declared in, where its annotation's names are looked up.
  static const clang::DeclContext& kernelScope(const clang::FunctionDecl& function) {
    const clang::DeclContext* scope = function.getDeclContext();
    while (llvm::isa<clang::LinkageSpecDecl>(scope))
      scope = scope->getParent();
    return *scope;
  }

  // The macro `name` where `function` is declared (a later #define or #undef does not change what
  // it means there), or null.
  const clang::MacroInfo* macroAt(llvm::StringRef name, const clang::FunctionDecl& function) const {
    if (name.contains(':'))
      return nullptr;
    const clang::IdentifierInfo* identifier = &context_.Idents.get(name);
    if (!identifier->hadMacroDefinition())
      return nullptr;
    return compiler_.getPreprocessor()
        .getMacroDefinitionAtLoc(identifier, sources_.getExpansionLoc(function.getLocation()))
        .getMacroInfo();
  }

  // Why the file's constants, which requests evaluate at the end of the file, would not give
  // `name` the meaning it has at `function`: a macro defined, redefined or #undef'd after it.
  std::string changedAfter(const std::string& name, const clang::FunctionDecl& function) const {
    const clang::MacroInfo* there = macroAt(name, function);
    const clang::MacroInfo* atEnd =
        name.find(':') != std::string::npos
            ? nullptr
            : compiler_.getPreprocessor().getMacroInfo(&context_.Idents.get(name));
    if (there == atEnd)
      return "";
    const std::string kernel = "kernel '" + function.getNameAsString() + "'";
    const std::string fix = "; Overlap reads the file's macros at its end, so it cannot give the "
                            "annotation the value the kernel sees: give the later one another name";
    if (there == nullptr)
      return "macro '" + name + "' is defined only after " + kernel + " (" +
             where(atEnd->getDefinitionLoc()) + ")" + fix;
    return "macro '" + name + "' is " +
           (atEnd != nullptr
                ? "defined again after " + kernel + " (" + where(atEnd->getDefinitionLoc()) + ")"
                : "#undef'd after " + kernel) +
           fix;
  }

  // `name`, as the kernel's scope sees it, is a macro or a variable or enumerator Clang can
  // evaluate as a constant.
  bool namesConstant(const std::string& name, const clang::FunctionDecl& function) const {
    if (macroAt(name, function) != nullptr)
      return true;
    const clang::NamedDecl* found = fileDeclaration(name, function);
    if (const auto* var = llvm::dyn_cast_or_null<clang::VarDecl>(found))
      return whyNotAConstant(*var).empty();
    return llvm::isa_and_nonnull<clang::EnumConstantDecl>(found);
  }

  // Where the kernel's scope looks `spelled` up ("n", "cfg::kThreads", "::Pixel", "Tile::kRows"),
  // innermost first: the kernel's scope and those around it for a plain name, the namespace, class
  // or enumeration a qualified name's prefix names for a qualified one. Empty when the prefix
  // names none of them, or the spelling is no name (builtin words such as "unsigned int").
  struct ScopedName {
    llvm::SmallVector<const clang::DeclContext*, 4> scopes;
    llvm::StringRef last;
  };
  ScopedName lookupScopes(llvm::StringRef spelled, const clang::FunctionDecl& function) const {
    llvm::SmallVector<llvm::StringRef, 4> parts;
    spelled.split(parts, "::");
    const bool global = parts.size() > 1 && parts.front().empty();
    if (global)
      parts.erase(parts.begin());
    ScopedName result;
    if (parts.empty() || llvm::any_of(parts, [](llvm::StringRef part) {
          return part.empty() || part.contains(' ');
        }))
      return result;
    for (const clang::DeclContext* scope = global ? context_.getTranslationUnitDecl()
                                                  : &kernelScope(function);
         scope != nullptr; scope = scope->getParent())
      result.scopes.push_back(scope);
    for (std::size_t i = 0; i + 1 < parts.size() && !result.scopes.empty(); ++i) {
      const auto inner = lookupIn(result.scopes, parts[i], [](const clang::NamedDecl& decl) {
        return llvm::isa<clang::NamespaceDecl, clang::RecordDecl, clang::EnumDecl>(decl);
      });
      result.scopes.clear();
      if (!inner.empty())
        result.scopes.push_back(llvm::cast<clang::DeclContext>(inner.back()));
    }
    result.last = parts.back();
    return result;
  }

  using DeclFilter = llvm::function_ref<bool(const clang::NamedDecl&)>;

  // The declarations named `name` that `keep` accepts, in the innermost of `scopes` that has one.
  // With `before` valid, only the declarations that precede it count, as in C++.
  llvm::SmallVector<const clang::NamedDecl*, 2>
  lookupIn(llvm::ArrayRef<const clang::DeclContext*> scopes, llvm::StringRef name, DeclFilter keep,
           clang::SourceLocation before = {}) const {
    llvm::SmallVector<const clang::NamedDecl*, 2> kept;
    const auto declaredBefore = [&](const clang::NamedDecl& decl) {
      const clang::SourceLocation first = decl.getCanonicalDecl()->getLocation();
      return keep(decl) && (before.isInvalid() || first.isInvalid() ||
                            sources_.isBeforeInTranslationUnit(first, before));
    };
    for (const clang::DeclContext* scope : scopes) {
      lookupThroughDirectives(*scope, clang::DeclarationName(&context_.Idents.get(name)),
                              declaredBefore, kept, 0);
      if (!kept.empty())
        break;
    }
    return kept;
  }

  // What `scope` declares as `name`, or else what the namespaces its using-directives nominate
  // do: an anonymous namespace's names are the enclosing scope's through an implicit one.
  static void lookupThroughDirectives(const clang::DeclContext& scope, clang::DeclarationName name,
                                      DeclFilter keep,
                                      llvm::SmallVectorImpl<const clang::NamedDecl*>& kept,
                                      unsigned depth) {
    for (const clang::NamedDecl* found : scope.lookup(name))
      if (keep(*found))
        kept.push_back(found);
    if (!kept.empty() || depth == kMaxDirectiveDepth)
      return;
    for (const clang::UsingDirectiveDecl* directive : scope.using_directives())
      if (const clang::NamespaceDecl* nominated = directive->getNominatedNamespace())
        lookupThroughDirectives(*nominated, name, keep, kept, depth + 1);
  }
  static constexpr unsigned kMaxDirectiveDepth = 8; // namespaces may nominate each other

  // The declarations `spelled` names that `keep` accepts, as the kernel's scope sees it.
  llvm::SmallVector<const clang::NamedDecl*, 2>
  lookupInKernelScopes(llvm::StringRef spelled, const clang::FunctionDecl& function,
                       DeclFilter keep) const {
    const ScopedName scoped = lookupScopes(spelled, function);
    return lookupIn(scoped.scopes, scoped.last, keep, function.getLocation());
  }

  // The variable or enumerator `name` names as the kernel's scope sees it, or null.
  const clang::NamedDecl* fileDeclaration(const std::string& name,
                                          const clang::FunctionDecl& function) const {
    const auto found = lookupInKernelScopes(name, function, [](const clang::NamedDecl& decl) {
      return llvm::isa<clang::VarDecl, clang::EnumConstantDecl>(decl);
    });
    return found.empty() ? nullptr : found.front();
  }

  // The type `spelled` ("float4", "ns::Point", "::Pixel", "Index_t") as the kernel's scope sees
  // it, when it names a type of the file that depends on no template parameter; else null.
  clang::QualType fileType(const std::string& spelled, const clang::FunctionDecl& function) const {
    const auto found = lookupInKernelScopes(spelled, function, [](const clang::NamedDecl& decl) {
      return llvm::isa<clang::TypeDecl>(decl);
    });
    if (found.empty())
      return {};
    const clang::QualType declared =
        context_.getTypeDeclType(llvm::cast<clang::TypeDecl>(found.back()));
    if (declared.isNull() || declared->isDependentType())
      return {};
    return declared;
  }

  // The size of the complete type `spelled` of the file (fileType), for sizeof(...).
  std::optional<unsigned> fileTypeSize(const std::string& spelled,
                                       const clang::FunctionDecl& function) const {
    const clang::QualType type = fileType(spelled, function);
    if (type.isNull() || type->isIncompleteType())
      return std::nullopt;
    return static_cast<unsigned>(context_.getTypeSizeInChars(type).getQuantity());
  }

  // The builtin types that param(...)'s types of the file stand for (typedef int Index_t).
  std::vector<ir::TypeAlias> hostParamAliases(const Annotation& annotation,
                                              const clang::FunctionDecl& function) const {
    std::vector<ir::TypeAlias> aliases;
    annotation::Diagnostics ignored;
    for (const annotation::ParamClause& clause :
         annotation::parseAnnotation(annotation.source.text, ignored).hostParams)
      for (const annotation::HostParamSyntax& param : clause.params) {
        const clang::QualType type = fileType(param.type, function);
        if (!type.isNull() && type.getCanonicalType()->isBuiltinType())
          aliases.push_back(
              {param.type, type.getCanonicalType().getAsString(context_.getPrintingPolicy())});
      }
    return aliases;
  }

  // Why a variable of the file cannot stand in an annotation expression ("" when it can): the
  // expressions are fixed when the file is compiled and evaluated on the host.
  std::string whyNotAConstant(const clang::VarDecl& var) const {
    const clang::QualType type = var.getType();
    const std::string name = "'" + var.getNameAsString() + "'";
    if (const clang::CXXRecordDecl* record = type->getAsCXXRecordDecl();
        record && record->getName().starts_with("__cuda_builtin_"))
      return name + " is a CUDA built-in variable of the device, which the host computing the "
                    "annotation does not have; give the value as a constant or a parameter";
    if (!type.isConstant(context_) && !var.isConstexpr())
      return name + " is a variable, which a call may change; annotation expressions use the "
                    "file's constants (const or constexpr, macros, enumerators) and the kernel's "
                    "parameters";
    if (!type->isIntegralOrEnumerationType() && !type->isRealFloatingType())
      return name + " is a '" + type.getAsString(context_.getPrintingPolicy()) +
             "', not an integer constant";
    return "";
  }

  // "namespace a { namespace { " and its closing, around a request in the kernel's scope.
  static std::pair<std::string, std::string> scopeText(const clang::FunctionDecl& function) {
    std::string open;
    std::string close;
    for (const clang::DeclContext* scope = &kernelScope(function); !scope->isTranslationUnit();
         scope = scope->getParent()) {
      const auto* ns = llvm::dyn_cast<clang::NamespaceDecl>(scope);
      if (ns == nullptr)
        continue;
      open = std::string(ns->isInline() ? "inline " : "") + "namespace " +
             (ns->isAnonymousNamespace() ? "" : ns->getNameAsString() + " ") + "{ " + open;
      close += "}";
    }
    return {open, close};
  }

  // How a request at the end of the file names the constant `name` means at `function`: a
  // declaration by its qualified name (a namespace reopened after the kernel may declare another
  // of the same name), a macro as it is.
  std::string requestSpelling(const std::string& name, const clang::FunctionDecl& function) const {
    if (macroAt(name, function) != nullptr)
      return name;
    const clang::NamedDecl* found = fileDeclaration(name, function);
    const std::optional<std::string> spelled =
        found != nullptr ? qualifiedSpelling(*found) : std::nullopt;
    return spelled ? *spelled : name;
  }

  // The request's variable for the constant `name` (qualified names too: cfg::kThreads becomes
  // cfg_ckThreads, k_b becomes k_ub, so that no two names share one).
  static std::string constantVariable(unsigned annotationOffset, llvm::StringRef name) {
    return kConstantPrefix + std::to_string(annotationOffset) + "_" + identifierFor(name);
  }
  static std::string identifierFor(llvm::StringRef name) {
    std::string identifier;
    for (const char c : name)
      identifier += c == '_' ? "_u" : c == ':' ? "_c" : std::string(1, c);
    return identifier;
  }

  // The first parse of a file whose annotations list instantiations Clang has not made yet, or
  // use the file's constants: it asks for them (output_.instantiationRequests), shows nothing, and
  // a second parse with the requests appended does the rest.
  bool needsSecondPass() {
    std::string requests;
    for (const Annotation& annotation : annotations_) {
      const clang::FunctionDecl* function = annotatedFunction(annotation);
      if (function == nullptr || !sources_.isWrittenInMainFile(annotation.source.invocation))
        continue;
      const auto [open, close] = scopeText(*function);
      for (const annotation::Name& name : constantNames(annotation, *function))
        if (!findVariable(constantVariable(annotation.offset, name.text), *function) &&
            namesConstant(name.text, *function) && changedAfter(name.text, *function).empty())
          requests += open + "[[maybe_unused]] static constexpr long long " +
                      constantVariable(annotation.offset, name.text) +
                      " = static_cast<long long>(" + requestSpelling(name.text, *function) + "); " +
                      close + "\n";
      const auto* templ =
          llvm::dyn_cast_or_null<clang::FunctionTemplateDecl>(annotation.target.decl);
      if (templ == nullptr)
        continue;
      const annotation::InstantiationsResult listed =
          annotation::instantiationsOf(annotation.source.text, extractTemplateSignature(*templ));
      if (annotation::hasErrors(listed.diagnostics))
        continue; // reported with the kernel; the other kernels' requests are still made
      if (listed.instantiations.empty() ||
          findVariable(instantiationVariable(annotation.offset, 0), *function) != nullptr)
        continue;
      for (std::size_t i = 0; i < listed.instantiations.size(); ++i) {
        std::string arguments;
        for (const std::string& argument : listed.instantiations[i].arguments)
          if (!argument.empty())
            arguments += (arguments.empty() ? "" : ", ") + argument;
        // In the kernel's scope, as its annotation's names are: instantiate(B = kBlock) may
        // name a constant of the kernel's namespace.
        requests += open + "[[maybe_unused]] static auto* const " +
                    instantiationVariable(annotation.offset, i) +
                    " = &::" + qualifiedName(*templ->getTemplatedDecl()) + "<" + arguments + ">; " +
                    close + "\n";
      }
    }
    output_.instantiationRequests = requests.empty() ? "" : kRequestsHeading + requests;
    return !requests.empty();
  }

  // A diagnostic about a request (a template argument or a constant Clang rejects) is shown at
  // the annotation's text that asked for it: the requests are not in the user's file.
  clang::FullSourceLoc relocateRequest(const clang::StoredDiagnostic& diagnostic) const {
    if (!diagnostic.getLocation().isValid())
      return {};
    const clang::SourceLocation at = sources_.getExpansionLoc(diagnostic.getLocation());
    if (sources_.getFileID(at) != sources_.getMainFileID())
      return {};
    const llvm::StringRef text = sources_.getBufferData(sources_.getMainFileID());
    const std::size_t heading = text.find(kRequestsHeading);
    const unsigned offset = sources_.getFileOffset(at);
    if (heading == llvm::StringRef::npos || offset < heading)
      return {};
    const std::size_t lineStart = text.rfind('\n', offset) + 1;
    const llvm::StringRef line = text.substr(lineStart, text.find('\n', offset) - lineStart);
    for (const char* prefix : {kInstantiationPrefix, kConstantPrefix}) {
      const std::size_t found = line.find(prefix);
      if (found == llvm::StringRef::npos)
        continue;
      unsigned annotationOffset = 0;
      llvm::StringRef rest = line.substr(found + std::strlen(prefix));
      if (rest.consumeInteger(10, annotationOffset) || !rest.consume_front("_"))
        return {};
      for (const Annotation& annotation : annotations_)
        if (annotation.offset == annotationOffset)
          if (const std::optional<unsigned> within = requestOffset(annotation, prefix, rest))
            return clang::FullSourceLoc(
                annotation.source.begin.getLocWithOffset(static_cast<int>(*within)), sources_);
    }
    return {};
  }

  // Where in the annotation's text the request named by `rest` (after the prefix and the
  // annotation's offset) comes from: the instantiate clause, or the constant's first use.
  static std::optional<unsigned> requestOffset(const Annotation& annotation, const char* prefix,
                                               llvm::StringRef rest) {
    if (std::strcmp(prefix, kConstantPrefix) == 0) {
      const llvm::StringRef name =
          rest.take_while([](char c) { return llvm::isAlnum(c) || c == '_'; });
      for (const annotation::Name& used : annotation::expressionNames(annotation.source.text))
        if (identifierFor(used.text) == name)
          return used.offset;
      return std::nullopt;
    }
    unsigned index = 0;
    const auto* templ = llvm::dyn_cast_or_null<clang::FunctionTemplateDecl>(annotation.target.decl);
    if (templ == nullptr || rest.consumeInteger(10, index))
      return std::nullopt;
    const annotation::InstantiationsResult listed =
        annotation::instantiationsOf(annotation.source.text, extractTemplateSignature(*templ));
    if (index >= listed.instantiations.size())
      return std::nullopt;
    return listed.instantiations[index].offset;
  }

  // A request's variable, in the kernel's scope (or the translation unit's, for instantiations).
  const clang::VarDecl* findVariable(const std::string& name,
                                     const clang::FunctionDecl& function) const {
    const clang::IdentifierInfo& identifier = context_.Idents.get(name);
    for (const clang::DeclContext* scope :
         {&kernelScope(function),
          static_cast<const clang::DeclContext*>(context_.getTranslationUnitDecl())})
      for (const clang::NamedDecl* found : scope->lookup(clang::DeclarationName(&identifier)))
        if (const auto* var = llvm::dyn_cast<clang::VarDecl>(found))
          return var;
    return nullptr;
  }

  // The file's constants the annotation uses, as Clang evaluated them in the second parse.
  std::vector<ir::TemplateConstant> fileConstants(const Annotation& annotation,
                                                  const clang::FunctionDecl& function) {
    std::vector<ir::TemplateConstant> constants;
    annotation::Diagnostics findings; // shown once for all the instantiations
    const auto refuse = [&](const annotation::Name& name, std::string message) {
      findings.push_back(
          {annotation::Diagnostic::Severity::Error, name.offset, name.length, std::move(message)});
    };
    for (const annotation::Name& name : constantNames(annotation, function)) {
      if (const std::string why = changedAfter(name.text, function); !why.empty()) {
        refuse(name, why);
        constants.push_back({name.text, 1}); // so that the checker does not call it unknown
        continue;
      }
      const clang::VarDecl* var =
          findVariable(constantVariable(annotation.offset, name.text), function);
      if (var == nullptr) {
        // A variable of the file that is no constant was not asked for: said here, and given a
        // value so that the checker does not also call the name unknown.
        if (const auto* named =
                llvm::dyn_cast_or_null<clang::VarDecl>(fileDeclaration(name.text, function))) {
          const std::string why = whyNotAConstant(*named);
          if (!why.empty()) {
            refuse(name, why);
            constants.push_back({name.text, 1});
          }
        }
        continue; // else not a constant of the file: the checker says what it is not
      }
      if (var->getInit() == nullptr)
        continue;
      // The request casts to long long, which would truncate 1.5 to 1 without a word.
      const clang::Expr* written = var->getInit()->IgnoreParenImpCasts();
      if (const auto* cast = llvm::dyn_cast<clang::CXXStaticCastExpr>(written))
        written = cast->getSubExpr()->IgnoreParenImpCasts();
      if (written->getType()->isRealFloatingType())
        refuse(name, "'" + name.text + "' is a floating-point value (" +
                         written->getType().getAsString(context_.getPrintingPolicy()) +
                         "); annotation expressions compute with integers");
      if (const std::optional<llvm::APSInt> value =
              var->getInit()->getIntegerConstantExpr(context_))
        constants.push_back({name.text, value->getExtValue()});
    }
    reportFindings(annotation, findings);
    return constants;
  }

  // The specialization `&K<...>` in an instantiation request names.
  static const clang::FunctionDecl* requestedSpecialization(const clang::VarDecl& var) {
    const clang::Expr* init = var.getInit();
    if (init == nullptr)
      return nullptr;
    init = init->IgnoreParenImpCasts();
    if (const auto* address = llvm::dyn_cast<clang::UnaryOperator>(init))
      init = address->getSubExpr()->IgnoreParenImpCasts();
    if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(init))
      return llvm::dyn_cast<clang::FunctionDecl>(ref->getDecl());
    return nullptr;
  }

  void collectTemplate(const Annotation& annotation, const clang::FunctionTemplateDecl& templ) {
    const clang::FunctionDecl& pattern = *templ.getTemplatedDecl();
    if (!checkKernelDeclaration(annotation, pattern, templ.getCanonicalDecl()))
      return;
    const ir::KernelSignature templateSignature = extractTemplateSignature(templ);
    const annotation::InstantiationsResult listed =
        annotation::instantiationsOf(annotation.source.text, templateSignature);
    reportFindings(annotation, listed.diagnostics);
    if (annotation::hasErrors(listed.diagnostics))
      return;
    std::vector<std::pair<const clang::FunctionDecl*, std::string>> instances;
    for (std::size_t i = 0; i < listed.instantiations.size(); ++i) {
      const clang::VarDecl* request =
          findVariable(instantiationVariable(annotation.offset, i), pattern);
      const clang::FunctionDecl* instance = request ? requestedSpecialization(*request) : nullptr;
      if (instance == nullptr) {
        error(annotation.source.invocation,
              "internal error: the instantiation this instantiate(...) lists was not made");
        return;
      }
      instances.emplace_back(instance, listed.instantiations[i].name);
    }
    if (listed.instantiations.empty()) {
      // No instantiate clauses: the explicit instantiations in this file.
      for (const clang::FunctionDecl* instance : templ.specializations()) {
        const clang::TemplateSpecializationKind kind = instance->getTemplateSpecializationKind();
        if ((kind == clang::TSK_ExplicitInstantiationDefinition ||
             kind == clang::TSK_ExplicitInstantiationDeclaration) &&
            sources_.isWrittenInMainFile(
                sources_.getExpansionLoc(instance->getPointOfInstantiation())))
          instances.emplace_back(instance, "");
      }
    }
    if (instances.empty()) {
      error(annotation.source.invocation,
            "kernel '" + templateSignature.name +
                "' is a template; list the instantiations to generate for with instantiate(" +
                (templateSignature.templateParams.empty()
                     ? std::string("T")
                     : templateSignature.templateParams.front().name) +
                " = ..., ...) clauses, or instantiate it explicitly in this file");
      return;
    }
    for (const auto& [instance, name] : instances)
      collectInstance(annotation, *instance, name);
  }

  void collectInstance(const Annotation& annotation, const clang::FunctionDecl& instance,
                       const std::string& name) {
    std::vector<SignatureProblem> problems;
    ir::KernelSignature signature = extractSignature(instance, types_, &problems);
    std::vector<std::string> printed;
    const clang::PrintingPolicy& policy = types_.policy();
    if (const clang::TemplateArgumentList* arguments = instance.getTemplateSpecializationArgs()) {
      const clang::TemplateParameterList* params =
          instance.getPrimaryTemplate()->getTemplateParameters();
      for (unsigned i = 0; i < arguments->size(); ++i) {
        const clang::TemplateArgument& argument = arguments->get(i);
        std::string text;
        llvm::raw_string_ostream out(text);
        argument.print(policy, out, /*IncludeType=*/false);
        out.flush();
        printed.push_back(text);
        if (i >= params->size())
          continue;
        const std::string param = params->getParam(i)->getNameAsString();
        if (argument.getKind() == clang::TemplateArgument::Integral)
          signature.constants.push_back({param, argument.getAsIntegral().getExtValue()});
        else if (argument.getKind() == clang::TemplateArgument::Type &&
                 !argument.getAsType()->isIncompleteType() &&
                 !argument.getAsType()->isDependentType())
          signature.typeSizes.push_back(
              {param, static_cast<unsigned>(
                          context_.getTypeSizeInChars(argument.getAsType()).getQuantity())});
      }
    }
    std::string list;
    for (const std::string& text : printed)
      list += (list.empty() ? "" : ", ") + text;
    signature.templateArguments = "<" + list + ">";
    signature.entryName =
        name.empty() ? annotation::derivedEntryName(instance.getNameAsString(), printed) : name;
    collectSignature(annotation, instance, std::move(signature), problems);
  }

  // --- kernels --------------------------------------------------------------------------------

  void collect(const Annotation& annotation) {
    if (!annotation.source.ok()) {
      error(annotation.source.invocation, annotation.source.error);
      return;
    }
    const clang::Decl* decl = annotation.target.decl;
    if (decl == nullptr) {
      error(annotation.source.invocation,
            std::string(kKernelMacro) +
                " is not followed by a declaration; put it directly before a __global__ kernel");
      return;
    }
    if (annotation.target.inside) {
      error(annotation.source.invocation,
            std::string(kKernelMacro) + " stands inside the declaration of " + describe(*decl) +
                "; put it directly before a __global__ kernel");
      return;
    }
    if (const auto* templ = llvm::dyn_cast<clang::FunctionTemplateDecl>(decl)) {
      collectTemplate(annotation, *templ);
      return;
    }
    const auto* function = llvm::dyn_cast<clang::FunctionDecl>(decl);
    if (function == nullptr) {
      error(decl->getLocation(), std::string(kKernelMacro) + " is on " + describe(*decl) +
                                     ", which is not a function; put it directly before a "
                                     "__global__ kernel");
      return;
    }
    if (!checkKernelDeclaration(annotation, *function, function->getCanonicalDecl()))
      return;
    std::vector<SignatureProblem> problems;
    ir::KernelSignature signature = extractSignature(*function, types_, &problems);
    signature.entryName = annotation::entryNameOf(annotation.source.text);
    collectSignature(annotation, *function, std::move(signature), problems);
  }

  static std::string describe(const clang::Decl& decl) {
    const auto* named = llvm::dyn_cast<clang::NamedDecl>(&decl);
    return named != nullptr && !named->getName().empty() ? "'" + named->getNameAsString() + "'"
                                                         : "a declaration";
  }

  // Where and how the annotated kernel (or kernel template) is declared.
  bool checkKernelDeclaration(const Annotation& annotation, const clang::FunctionDecl& function,
                              const clang::Decl* canonical) {
    const std::string name = function.getNameAsString();
    const clang::SourceLocation nameLoc = function.getLocation();
    const auto [first, inserted] = firstAnnotation_.try_emplace(canonical, annotation.use.name);
    if (!inserted) {
      error(annotation.source.invocation,
            "kernel '" + name + "' is annotated twice; keep one " + kKernelMacro);
      reporter_.note(sources_.getExpansionLoc(first->second), "the first annotation is here");
      return false;
    }
    if (!function.hasAttr<clang::CUDAGlobalAttr>()) {
      error(nameLoc, "'" + name + "' is marked " + kKernelMacro +
                         " but is not a __global__ kernel; annotate the kernel itself, not a "
                         "host or device function");
      return false;
    }
    for (const clang::DeclContext* scope = function.getDeclContext(); !scope->isTranslationUnit();
         scope = scope->getParent())
      if (!llvm::isa<clang::NamespaceDecl>(scope) && !llvm::isa<clang::LinkageSpecDecl>(scope)) {
        error(nameLoc, "kernel '" + name +
                           "' is declared inside a class; annotated kernels must be at namespace "
                           "scope, where the generated code can call them");
        return false;
      }
    if (!function.isDefined() && !function.isThisDeclarationADefinition()) {
      error(nameLoc, "kernel '" + name +
                         "' is annotated but not defined in this file; the generated source "
                         "includes this file and launches the kernel, so its definition must be "
                         "here");
      return false;
    }
    return true;
  }

  void collectSignature(const Annotation& annotation, const clang::FunctionDecl& function,
                        ir::KernelSignature signature,
                        const std::vector<SignatureProblem>& problems) {
    const clang::SourceLocation nameLoc = function.getLocation();
    // Generated names (K_binding, K_descriptor, K_explicit, ...) come from the entry name, so
    // two annotated kernels (overloads, equal instantiation names) would define them twice.
    const std::string entry = qualifiedEntry(signature);
    const auto [sameName, fresh] = annotatedByName_.try_emplace(entry, annotation.use.name);
    if (!fresh) {
      error(annotation.source.invocation,
            "another annotated kernel already has the entry points '" + entry +
                "_...'; give each annotated kernel its own name, with name(NAME) (an "
                "instantiation of a template with instantiate(NAME: ...))");
      reporter_.note(sources_.getExpansionLoc(sameName->second), "the other one is here");
      return;
    }
    if (const auto taken = userDeclarationOfAGeneratedName(function, entry)) {
      error(annotation.source.invocation,
            taken->first +
                " is declared in this file, and Overlap generates a declaration of that name "
                "for this kernel; rename it, or name the kernel's entry points with name(NAME) "
                "(instantiate(NAME: ...) for a template)");
      reporter_.note(sources_.getExpansionLoc(taken->second), "declared here");
      return;
    }
    for (const SignatureProblem& problem : problems)
      error(sources_.getExpansionLoc(problem.at), problem.message);
    if (!problems.empty())
      return;

    FoundKernel found;
    found.signature = signature;
    found.annotation = annotation.source.text;
    found.line = sources_.getPresumedLineNumber(sources_.getExpansionLoc(nameLoc));
    const clang::PresumedLoc textAt = sources_.getPresumedLoc(annotation.source.begin);
    if (textAt.isValid()) {
      found.annotationLine = textAt.getLine();
      found.annotationColumn = textAt.getColumn();
    }
    output_.found.push_back(found);

    // The file's constants and the sizes sizeof(...) may ask for.
    const clang::FunctionDecl& declared = function.getPrimaryTemplate() != nullptr
                                              ? *function.getPrimaryTemplate()->getTemplatedDecl()
                                              : function;
    for (const ir::TemplateConstant& constant : fileConstants(annotation, declared))
      signature.constants.push_back(constant);
    for (const ir::Parameter& param : signature.params)
      if (param.elementSize != 0)
        signature.typeSizes.push_back({param.valueType, param.elementSize});
    signature.functions = fileFunctions(annotation, declared);
    std::vector<annotation::Name> types = annotation::sizeofTypes(annotation.source.text);
    for (const ir::FileFunction& function : signature.functions) {
      const std::vector<annotation::Name> used = annotation::bodyNames(function).types;
      types.insert(types.end(), used.begin(), used.end());
    }
    for (const annotation::Name& type : types)
      if (std::none_of(signature.typeSizes.begin(), signature.typeSizes.end(),
                       [&](const ir::TypeSize& known) { return known.name == type.text; }))
        if (const std::optional<unsigned> bytes = fileTypeSize(type.text, declared))
          signature.typeSizes.push_back({type.text, *bytes});
    signature.typeAliases = hostParamAliases(annotation, declared);
    annotation::SemaResult checked = annotation::buildKernel(annotation.source.text, signature);
    reportFindings(annotation, checked.diagnostics);
    if (!checked.kernel || annotation::hasErrors(checked.diagnostics))
      return;
    ir::Kernel kernel = std::move(*checked.kernel);
    const clang::PresumedLoc kernelAt = sources_.getPresumedLoc(sources_.getExpansionLoc(nameLoc));
    if (kernelAt.isValid())
      kernel.file = kernelAt.getFilename();
    kernel.line = found.line;
    output_.kernels.push_back(std::move(kernel));
  }

  // A declaration of the kernel's namespace, or a macro, that the generated code would declare
  // again (K_explicit, K_tuned_async, K_binding, ...): the user's own baseline function of that
  // name would make nvcc fail on the generated source, far from the cause. Its name and where it
  // is, or nullopt.
  std::optional<std::pair<std::string, clang::SourceLocation>>
  userDeclarationOfAGeneratedName(const clang::FunctionDecl& kernel,
                                  const std::string& entry) const {
    const std::string::size_type colons = entry.rfind("::");
    const std::string base = colons == std::string::npos ? entry : entry.substr(colons + 2);
    const clang::DeclContext* scope = kernel.getDeclContext()->getEnclosingNamespaceContext();
    for (const std::string& suffix : emit::generatedNameSuffixes()) {
      clang::IdentifierInfo& name = context_.Idents.get(base + suffix);
      // The generated source includes this file: a macro defined at its end applies there.
      if (const clang::MacroInfo* macro = compiler_.getPreprocessor().getMacroInfo(&name))
        return std::make_pair("macro '" + name.getName().str() + "'", macro->getDefinitionLoc());
      for (const clang::NamedDecl* found : scope->lookup(clang::DeclarationName(&name)))
        return std::make_pair("'" + found->getQualifiedNameAsString() + "'", found->getLocation());
    }
    return std::nullopt;
  }

  static std::string qualifiedEntry(const ir::KernelSignature& signature) {
    if (signature.entryName.empty())
      return signature.name;
    const std::string::size_type colons = signature.name.rfind("::");
    return colons == std::string::npos ? signature.entryName
                                       : signature.name.substr(0, colons + 2) + signature.entryName;
  }

  // An annotation's findings, once each: the instantiations of a template share its text.
  void reportFindings(const Annotation& annotation, const annotation::Diagnostics& findings) {
    annotation::Diagnostics fresh;
    for (const annotation::Diagnostic& finding : findings) {
      if (finding.severity == annotation::Diagnostic::Severity::Error)
        reportedError_ = true;
      if (reported_.insert({annotation.offset, finding.offset, finding.message}).second)
        fresh.push_back(finding);
    }
    reporter_.reportAnnotation(fresh, annotation.source.begin,
                               static_cast<unsigned>(annotation.source.text.size()));
  }

  // --- __constant__ and __device__ variables --------------------------------------------------

  void collectDeviceGlobals() {
    for (const clang::Decl* decl : context_.getTranslationUnitDecl()->decls())
      collectDeviceGlobals(*decl);
  }

  void collectDeviceGlobals(const clang::Decl& decl) {
    if (const auto* ns = llvm::dyn_cast<clang::NamespaceDecl>(&decl)) {
      for (const clang::Decl* inner : ns->decls())
        collectDeviceGlobals(*inner);
      return;
    }
    if (const auto* linkage = llvm::dyn_cast<clang::LinkageSpecDecl>(&decl)) {
      for (const clang::Decl* inner : linkage->decls())
        collectDeviceGlobals(*inner);
      return;
    }
    const auto* var = llvm::dyn_cast<clang::VarDecl>(&decl);
    if (var == nullptr || var->isImplicit() || !var->isThisDeclarationADefinition() ||
        var->getDescribedVarTemplate() != nullptr ||
        !sources_.isWrittenInMainFile(sources_.getExpansionLoc(var->getLocation())))
      return;
    const bool constant = var->hasAttr<clang::CUDAConstantAttr>();
    if (!constant && !var->hasAttr<clang::CUDADeviceAttr>())
      return;
    clang::QualType element = var->getType();
    long long count = 1;
    while (const auto* array = context_.getAsConstantArrayType(element)) {
      count *= static_cast<long long>(array->getSize().getZExtValue());
      element = array->getElementType();
    }
    std::string problem;
    const std::optional<std::string> spelled = types_.spell(element.getUnqualifiedType(), &problem);
    if (!spelled || element->isIncompleteType()) {
      // Host code cannot name it, so it gets no setter; said, since the docs promise one to every
      // variable of the file.
      reporter_.warning(
          var->getLocation(),
          "no setter for '" + var->getNameAsString() + "'" +
              (problem.empty() ? std::string(": its type is incomplete") : ": " + problem) +
              "; set it with cudaMemcpyToSymbol in the kernel file");
      return;
    }
    ir::DeviceGlobal global;
    global.name = qualifiedName(*var);
    global.elementType = *spelled;
    global.count = count;
    global.constant = constant;
    global.readOnly = element.isConstQualified();
    global.line = sources_.getPresumedLineNumber(sources_.getExpansionLoc(var->getLocation()));
    output_.globals.push_back(global);
  }

  clang::CompilerInstance& compiler_;
  clang::ASTContext& context_;
  const clang::SourceManager& sources_;
  DiagnosticReporter reporter_;
  FrontendOutput& output_;
  const AnnotationUses& uses_;
  DeferredDiagnostics& diagnostics_;
  TypeSpeller types_;
  std::vector<Annotation> annotations_;
  std::map<const clang::Decl*, clang::SourceLocation> firstAnnotation_;
  std::map<std::string, clang::SourceLocation> annotatedByName_;
  std::set<std::tuple<unsigned, unsigned, std::string>> reported_;
  bool reportedError_ = false;
};

} // namespace

void KernelCollector::HandleTranslationUnit(clang::ASTContext& context) {
  Collector(compiler_, context, output_, *uses_, diagnostics_).run();
}

} // namespace overlap::frontend
