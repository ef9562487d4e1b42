// What the frontend reads from the AST: kernel names, every parameter's type as spelled, its
// pointee/value type, constness, kinds and sizes, template-ness, positions, and the annotation
// text verbatim with its position. Checked on the found kernels, before the annotation checker.
#include "FrontendTestSupport.h"

#include <gtest/gtest.h>

#include <string>

namespace overlap::frontend {
namespace {

using ir::ElementKind;
using ir::ScalarKind;
using testing::positionOf;
using testing::runOnCode;

struct ExpectedParameter {
  std::string name;
  std::string type;
  bool isPointer;
  std::string valueType;
  bool pointeeConst;
  ScalarKind scalarKind;
  ElementKind elementKind;
  unsigned elementSize;
};

void expectParameters(const ir::KernelSignature& signature,
                      const std::vector<ExpectedParameter>& expected) {
  ASSERT_EQ(signature.params.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const ir::Parameter& actual = signature.params[i];
    const ExpectedParameter& want = expected[i];
    SCOPED_TRACE("parameter " + want.name);
    EXPECT_EQ(actual.name, want.name);
    EXPECT_EQ(actual.type, want.type);
    EXPECT_EQ(actual.isPointer, want.isPointer);
    EXPECT_EQ(actual.valueType, want.valueType);
    EXPECT_EQ(actual.pointeeConst, want.pointeeConst);
    EXPECT_EQ(actual.scalarKind, want.scalarKind);
    EXPECT_EQ(actual.elementKind, want.elementKind);
    EXPECT_EQ(actual.elementSize, want.elementSize);
  }
}

const std::string kPrelude = "#include <overlap/annotate.h>\n"
                             "#include <cstddef>\n"
                             "struct Opaque;\n"
                             "struct Pair { double first, second; };\n"
                             "typedef const float cfloat;\n"
                             "using real = double;\n"
                             "enum Mode { Fast, Exact };\n";

TEST(Extraction, ScalarParameters) {
  const std::string code =
      kPrelude + "OVERLAP_KERNEL(partition(n) offset(n))\n"
                 "__global__ void scalars(int n, unsigned u, long long ll, unsigned short us,\n"
                 "    signed char sc, unsigned char uc, char c, std::size_t size, bool flag,\n"
                 "    double d, const float f, Mode mode, Pair pair, __int128 wide) {}\n";
  const InMemoryResult run = runOnCode(code);
  ASSERT_EQ(run.result.frontend.found.size(), 1u) << run.diagnostics;
  const ir::KernelSignature& signature = run.result.frontend.found[0].signature;
  EXPECT_EQ(signature.name, "scalars");
  EXPECT_FALSE(signature.isTemplate);
  const auto Signed = ScalarKind::SignedInteger;
  const auto Unsigned = ScalarKind::UnsignedInteger;
  expectParameters(
      signature,
      {
          {"n", "int", false, "int", false, Signed, ElementKind::I32, 4},
          {"u", "unsigned int", false, "unsigned int", false, Unsigned, ElementKind::U32, 4},
          {"ll", "long long", false, "long long", false, Signed, ElementKind::I64, 8},
          {"us", "unsigned short", false, "unsigned short", false, Unsigned, ElementKind::U16, 2},
          {"sc", "signed char", false, "signed char", false, Signed, ElementKind::I8, 1},
          {"uc", "unsigned char", false, "unsigned char", false, Unsigned, ElementKind::U8, 1},
          // x86-64: plain char is signed.
          {"c", "char", false, "char", false, Signed, ElementKind::I8, 1},
          {"size", "std::size_t", false, "std::size_t", false, Unsigned, ElementKind::U64, 8},
          {"flag", "bool", false, "bool", false, ScalarKind::Boolean, ElementKind::Other, 1},
          {"d", "double", false, "double", false, ScalarKind::FloatingPoint, ElementKind::F64, 8},
          {"f", "const float", false, "float", false, ScalarKind::FloatingPoint, ElementKind::F32,
           4},
          {"mode", "Mode", false, "Mode", false, ScalarKind::Other, ElementKind::Other, 4},
          {"pair", "Pair", false, "Pair", false, ScalarKind::Other, ElementKind::Other, 16},
          {"wide", "__int128", false, "__int128", false, Signed, ElementKind::Other, 16},
      });
}

TEST(Extraction, PointerParameters) {
  const std::string code =
      kPrelude +
      "OVERLAP_KERNEL(partition(n) offset(n))\n"
      "__global__ void pointers(int n, const float* cf, double* d, const int* const ci,\n"
      "    unsigned long long* ull, void* raw, const void* craw, Opaque* opaque, Pair* pairs,\n"
      "    cfloat* viaTypedef, real* alias, float array[], short* __restrict__ restricted) {}\n";
  const InMemoryResult run = runOnCode(code);
  ASSERT_EQ(run.result.frontend.found.size(), 1u) << run.diagnostics;
  const auto Float = ScalarKind::FloatingPoint;
  const auto Signed = ScalarKind::SignedInteger;
  const auto Other = ScalarKind::Other;
  expectParameters(
      run.result.frontend.found[0].signature,
      {
          {"n", "int", false, "int", false, Signed, ElementKind::I32, 4},
          {"cf", "const float *", true, "float", true, Float, ElementKind::F32, 4},
          {"d", "double *", true, "double", false, Float, ElementKind::F64, 8},
          {"ci", "const int *const", true, "int", true, Signed, ElementKind::I32, 4},
          {"ull", "unsigned long long *", true, "unsigned long long", false,
           ScalarKind::UnsignedInteger, ElementKind::U64, 8},
          {"raw", "void *", true, "void", false, Other, ElementKind::Other, 0},
          {"craw", "const void *", true, "void", true, Other, ElementKind::Other, 0},
          {"opaque", "Opaque *", true, "Opaque", false, Other, ElementKind::Other, 0},
          {"pairs", "Pair *", true, "Pair", false, Other, ElementKind::Other, 16},
          // The const hides in the typedef: still a const pointee, of value type float.
          {"viaTypedef", "cfloat *", true, "float", true, Float, ElementKind::F32, 4},
          {"alias", "real *", true, "real", false, Float, ElementKind::F64, 8},
          // Array parameters are pointers.
          {"array", "float *", true, "float", false, Float, ElementKind::F32, 4},
          {"restricted", "short *__restrict", true, "short", false, Signed, ElementKind::I16, 2},
      });
}

TEST(Extraction, TemplateKernelIsFlaggedAndHasNoSizesForDependentTypes) {
  const std::string code = "#include <overlap/annotate.h>\n"
                           "template <class T>\n"
                           "OVERLAP_KERNEL(partition(n) offset(n))\n"
                           "__global__ void fill(int n, T* out, T value) {}\n"
                           "template __global__ void fill<float>(int, float*, float);\n";
  const InMemoryResult run = runOnCode(code);
  // The explicit instantiation carries the attribute too but is not a kernel of its own.
  ASSERT_EQ(run.result.frontend.found.size(), 1u) << run.diagnostics;
  const ir::KernelSignature& signature = run.result.frontend.found[0].signature;
  EXPECT_TRUE(signature.isTemplate);
  ASSERT_EQ(signature.params.size(), 3u);
  EXPECT_EQ(signature.params[1].type, "T *");
  EXPECT_TRUE(signature.params[1].isPointer);
  EXPECT_EQ(signature.params[1].valueType, "T");
  EXPECT_EQ(signature.params[1].elementSize, 0u);
  EXPECT_EQ(signature.params[1].elementKind, ElementKind::Other);
  EXPECT_FALSE(signature.params[2].isPointer);
  EXPECT_EQ(signature.params[2].elementSize, 0u);
  // The annotation checker rejects templates.
  EXPECT_FALSE(run.result.ok());
}

TEST(Extraction, SeveralKernelsInSourceOrderWithPositions) {
  const std::string code = "#include <overlap/annotate.h>\n"
                           "OVERLAP_KERNEL(partition(n) offset(n) extent(y: n) copy(y[lo:hi])\n"
                           "               launch(grid: ceil_div(len, 128), block: 128))\n"
                           "__global__ void first(int n, float* y) {}\n"
                           "\n"
                           "__global__ void unannotated(int n, float* y) {}\n"
                           "\n"
                           "OVERLAP_KERNEL(  partition(m) offset(m) extent(v: m)\n"
                           "    copyout(v[lo:hi]) launch(grid: len, block: 1))\n"
                           "__global__ void second(long m,\n"
                           "                       double* v) {}\n";
  const InMemoryResult run = runOnCode(code);
  EXPECT_TRUE(run.result.ok()) << run.diagnostics;
  const auto& found = run.result.frontend.found;
  ASSERT_EQ(found.size(), 2u) << run.diagnostics;
  EXPECT_EQ(found[0].signature.name, "first");
  EXPECT_EQ(found[1].signature.name, "second");
  EXPECT_EQ(found[0].line, positionOf(code, "first(").line);
  EXPECT_EQ(found[1].line, positionOf(code, "second(").line);

  // Parameter positions are those of their names.
  const ir::Parameter& v = found[1].signature.params[1];
  const testing::Position vAt = positionOf(code, "v) {}");
  EXPECT_EQ(v.line, vAt.line);
  EXPECT_EQ(v.column, vAt.column);
  const ir::Parameter& m = found[1].signature.params[0];
  const testing::Position mAt = positionOf(code, "m,\n");
  EXPECT_EQ(m.line, mAt.line);
  EXPECT_EQ(m.column, mAt.column);

  // The annotation text is kept verbatim, newlines and indentation included, and starts right
  // after the parenthesis.
  EXPECT_EQ(found[0].annotation, "partition(n) offset(n) extent(y: n) copy(y[lo:hi])\n"
                                 "               launch(grid: ceil_div(len, 128), block: 128)");
  EXPECT_EQ(found[1].annotation, "  partition(m) offset(m) extent(v: m)\n"
                                 "    copyout(v[lo:hi]) launch(grid: len, block: 1)");
  const testing::Position secondText = positionOf(code, "  partition(m)");
  EXPECT_EQ(found[1].annotationLine, secondText.line);
  EXPECT_EQ(found[1].annotationColumn, secondText.column);

  // Both checked: the IR carries the kernel's file and line.
  ASSERT_EQ(run.result.frontend.kernels.size(), 2u);
  EXPECT_EQ(run.result.frontend.kernels[1].signature.name, "second");
  EXPECT_EQ(run.result.frontend.kernels[1].file, "input.cu");
  EXPECT_EQ(run.result.frontend.kernels[1].line, found[1].line);
}

TEST(Extraction, AnnotatedDeclarationWithALaterDefinition) {
  const std::string code = "#include <overlap/annotate.h>\n"
                           "OVERLAP_KERNEL(partition(n) offset(n) extent(y: n) copy(y[lo:hi])\n"
                           "               launch(grid: len, block: 1))\n"
                           "__global__ void twice(int n, float* y);\n"
                           "__global__ void twice(int count, float* values) {}\n";
  const InMemoryResult run = runOnCode(code);
  EXPECT_TRUE(run.result.ok()) << run.diagnostics;
  ASSERT_EQ(run.result.frontend.found.size(), 1u);
  // The annotation names the declaration's parameters, so the signature is the declaration's.
  EXPECT_EQ(run.result.frontend.found[0].signature.params[1].name, "y");
  EXPECT_EQ(run.result.frontend.found[0].line, 4u);
}

TEST(Extraction, KernelsInAnonymousNamespaceAndExternCAreAccepted) {
  const std::string code = "#include <overlap/annotate.h>\n"
                           "namespace {\n"
                           "OVERLAP_KERNEL(partition(n) offset(n) extent(y: n) copy(y[lo:hi])\n"
                           "               launch(grid: len, block: 1))\n"
                           "__global__ void hidden(int n, float* y) {}\n"
                           "} // namespace\n"
                           "extern \"C\" {\n"
                           "OVERLAP_KERNEL(partition(n) offset(n) extent(y: n) copy(y[lo:hi])\n"
                           "               launch(grid: len, block: 1))\n"
                           "__global__ void plain(int n, float* y) {}\n"
                           "}\n";
  const InMemoryResult run = runOnCode(code);
  EXPECT_TRUE(run.result.ok()) << run.diagnostics;
  ASSERT_EQ(run.result.frontend.kernels.size(), 2u);
  EXPECT_EQ(run.result.frontend.kernels[0].signature.name, "hidden");
  EXPECT_EQ(run.result.frontend.kernels[1].signature.name, "plain");
}

TEST(Extraction, AnnotationInAnIncludedHeaderIsIgnoredWithAWarning) {
  const std::map<std::string, std::string> headers = {
      {"other.cuh", "#include <overlap/annotate.h>\n"
                    "OVERLAP_KERNEL(partition(n) offset(n) extent(y: n) copy(y[lo:hi])\n"
                    "               launch(grid: len, block: 1))\n"
                    "__global__ void elsewhere(int n, float* y) {}\n"}};
  const std::string code = "#include \"other.cuh\"\n"
                           "OVERLAP_KERNEL(partition(n) offset(n) extent(y: n) copy(y[lo:hi])\n"
                           "               launch(grid: len, block: 1))\n"
                           "__global__ void here(int n, float* y) {}\n";
  const InMemoryResult run = runOnCode(code, "input.cu", {}, headers);
  EXPECT_TRUE(run.result.ok()) << run.diagnostics;
  ASSERT_EQ(run.result.frontend.kernels.size(), 1u);
  EXPECT_EQ(run.result.frontend.kernels[0].signature.name, "here");
  EXPECT_NE(run.diagnostics.find("other.cuh:2:1: warning: OVERLAP_KERNEL outside the file"),
            std::string::npos)
      << run.diagnostics;
  // The header is a dependency of the generated files.
  const auto& dependencies = run.result.frontend.dependencies;
  ASSERT_FALSE(dependencies.empty());
  EXPECT_EQ(dependencies.front(), "input.cu");
  EXPECT_NE(std::find_if(dependencies.begin(), dependencies.end(),
                         [](const std::string& path) {
                           return path.size() >= 9 && path.substr(path.size() - 9) == "other.cuh";
                         }),
            dependencies.end());
}

} // namespace
} // namespace overlap::frontend
