#include "frontend/KernelCollector.h"

#include "annotation/AnnotationSema.h"
#include "frontend/AnnotatedDeclFinder.h"
#include "frontend/AnnotationLocator.h"
#include "frontend/DiagnosticReporter.h"
#include "frontend/KernelSignatureExtractor.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Lex/Preprocessor.h>

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/StringExtras.h>

#include <map>

#include <string>

namespace overlap::frontend {
namespace {

// The generated source calls the kernel by its plain name from the global namespace, so it must
// be reachable from there unqualified. Returns the offending enclosing scope, or null.
const clang::Decl* unsupportedEnclosingScope(const clang::FunctionDecl& function) {
  for (const clang::DeclContext* scope = function.getDeclContext(); !scope->isTranslationUnit();
       scope = scope->getParent()) {
    if (const auto* ns = llvm::dyn_cast<clang::NamespaceDecl>(scope)) {
      if (!ns->isAnonymousNamespace() && !ns->isInline())
        return ns;
    } else if (!llvm::isa<clang::LinkageSpecDecl>(scope)) {
      return llvm::cast<clang::Decl>(scope);
    }
  }
  return nullptr;
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

class Collector {
public:
  Collector(clang::CompilerInstance& compiler, clang::ASTContext& context, FrontendOutput& output)
      : compiler_(compiler), context_(context), sources_(context.getSourceManager()),
        reporter_(compiler.getDiagnostics()), output_(output) {}

  void run() {
    if (compiler_.getDiagnostics().hasErrorOccurred()) {
      // The user's code does not compile: clang said why. Annotations are not looked at, since
      // declarations may be broken and every further message would be a consequence.
      explainMissingMacro();
      return;
    }
    unsigned inMainFile = 0;
    for (const AnnotatedDecl& annotated : findAnnotatedDecls(context_)) {
      const clang::SourceLocation invocation =
          sources_.getExpansionLoc(annotated.attribute->getLocation());
      if (!sources_.isWrittenInMainFile(invocation)) {
        reporter_.warning(invocation, std::string(kKernelMacro) +
                                          " outside the file being generated for is ignored; "
                                          "run the generator on the file that defines the kernel");
        continue;
      }
      ++inMainFile;
      collect(annotated, invocation);
    }
    if (inMainFile == 0 && !compiler_.getDiagnostics().hasErrorOccurred()) {
      const clang::SourceLocation start = sources_.getLocForStartOfFile(sources_.getMainFileID());
      const clang::PresumedLoc presumed = sources_.getPresumedLoc(start);
      const std::string name = presumed.isValid() ? presumed.getFilename() : "the input";
      reporter_.error(start, "no " + std::string(kKernelMacro) + " annotations in " + name +
                                 "; mark a __global__ kernel with " + kKernelMacro +
                                 "(...) from <overlap/annotate.h>");
    }
  }

private:
  void collect(const AnnotatedDecl& annotated, clang::SourceLocation invocation) {
    const auto* function = llvm::dyn_cast<clang::FunctionDecl>(annotated.decl);
    if (function == nullptr) {
      const auto* named = llvm::dyn_cast<clang::NamedDecl>(annotated.decl);
      const std::string what = named != nullptr && !named->getName().empty()
                                   ? "'" + named->getNameAsString() + "'"
                                   : "a declaration";
      reporter_.error(annotated.decl->getLocation(),
                      std::string(kKernelMacro) + " is on " + what +
                          ", which is not a function; put it directly before a __global__ kernel");
      return;
    }
    collectKernel(*function, *annotated.attribute, invocation);
  }

  void collectKernel(const clang::FunctionDecl& function, const clang::AnnotateAttr& attribute,
                     clang::SourceLocation invocation) {
    const std::string name = function.getNameAsString();
    const clang::SourceLocation nameLoc = function.getLocation();

    const clang::Decl* canonical = function.getCanonicalDecl();
    const auto [first, inserted] = firstAnnotation_.try_emplace(canonical, invocation);
    if (!inserted) {
      reporter_.error(invocation,
                      "kernel '" + name + "' is annotated twice; keep one " + kKernelMacro);
      reporter_.note(first->second, "the first annotation is here");
      return;
    }
    // Generated names (K_binding, K_descriptor, K_explicit, ...) come from the plain name, so two
    // annotated overloads would define them twice.
    const auto [sameName, fresh] = annotatedByName_.try_emplace(name, invocation);
    if (!fresh) {
      reporter_.error(invocation, "another annotated kernel is already named '" + name +
                                      "' (an overload); the generated functions are named after "
                                      "the kernel, so give each annotated kernel its own name");
      reporter_.note(sameName->second, "the other annotated '" + name + "' is here");
      return;
    }
    if (!function.hasAttr<clang::CUDAGlobalAttr>()) {
      reporter_.error(nameLoc, "'" + name + "' is marked " + kKernelMacro +
                                   " but is not a __global__ kernel; annotate the kernel "
                                   "itself, not a host or device function");
      return;
    }
    if (const clang::Decl* scope = unsupportedEnclosingScope(function)) {
      std::string where = "a class";
      if (const auto* ns = llvm::dyn_cast<clang::NamespaceDecl>(scope))
        where = "namespace '" + ns->getNameAsString() + "'";
      reporter_.error(nameLoc, "kernel '" + name + "' is declared inside " + where +
                                   "; annotated kernels must be at global scope (an anonymous "
                                   "namespace is fine) because the generated code calls them "
                                   "by their plain name");
      return;
    }
    if (!function.isDefined()) {
      reporter_.error(nameLoc, "kernel '" + name +
                                   "' is annotated but not defined in this file; "
                                   "the generated source includes this file and launches the "
                                   "kernel, so its definition must be here");
      return;
    }
    const AnnotationSource source = locateAnnotation(attribute, sources_);
    if (!source.ok()) {
      reporter_.error(source.invocation, source.error);
      return;
    }

    FoundKernel found;
    found.signature = extractSignature(function);
    found.annotation = source.text;
    found.line = sources_.getPresumedLineNumber(sources_.getExpansionLoc(nameLoc));
    const clang::PresumedLoc textAt = sources_.getPresumedLoc(source.begin);
    if (textAt.isValid()) {
      found.annotationLine = textAt.getLine();
      found.annotationColumn = textAt.getColumn();
    }
    output_.found.push_back(found);

    annotation::SemaResult checked = annotation::buildKernel(source.text, found.signature);
    reporter_.reportAnnotation(checked.diagnostics, source.begin,
                               static_cast<unsigned>(source.text.size()));
    if (!checked.kernel || annotation::hasErrors(checked.diagnostics))
      return;
    ir::Kernel kernel = std::move(*checked.kernel);
    const clang::PresumedLoc kernelAt = sources_.getPresumedLoc(sources_.getExpansionLoc(nameLoc));
    if (kernelAt.isValid())
      kernel.file = kernelAt.getFilename();
    kernel.line = found.line;
    output_.kernels.push_back(std::move(kernel));
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
    reporter_.error(sources_.getLocForStartOfFile(mainFile).getLocWithOffset(static_cast<int>(use)),
                    std::string(kKernelMacro) +
                        " is not defined; add '#include <overlap/annotate.h>' before its first "
                        "use");
  }

  clang::CompilerInstance& compiler_;
  clang::ASTContext& context_;
  const clang::SourceManager& sources_;
  DiagnosticReporter reporter_;
  FrontendOutput& output_;
  llvm::DenseMap<const clang::Decl*, clang::SourceLocation> firstAnnotation_;
  std::map<std::string, clang::SourceLocation> annotatedByName_;
};

} // namespace

void KernelCollector::HandleTranslationUnit(clang::ASTContext& context) {
  Collector(compiler_, context, output_).run();
}

} // namespace overlap::frontend
