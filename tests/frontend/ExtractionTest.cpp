// What the frontend reads from the AST: kernel names, every parameter's type as generated code
// spells it (typedefs resolved, restrict and a parameter's own const dropped), its pointee/value
// type, constness, kinds (lanes of vector types) and sizes, template instantiations, vector
// accesses, positions, the annotation text verbatim with its position, the file's device
// variables and what the generated header must include or declare. Checked on the found kernels,
// before the annotation checker.
#include "FrontendTestSupport.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace overlap::frontend {
namespace {

using ir::ElementKind;
using ir::ScalarKind;
using testing::positionOf;
using testing::runOnCode;

// A launch expression's value for the chunk [0, 1000); nullopt for none.
std::optional<long long> atChunk(const ir::ExprPtr& expr) {
  ir::Environment chunk;
  chunk.lo = 0;
  chunk.hi = 1000;
  return expr ? ir::evaluate(*expr, chunk) : std::nullopt;
}

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
                             "enum Mode : int { Fast, Exact };\n";

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
          {"size", "unsigned long", false, "unsigned long", false, Unsigned, ElementKind::U64, 8},
          {"flag", "bool", false, "bool", false, ScalarKind::Boolean, ElementKind::Other, 1},
          {"d", "double", false, "double", false, ScalarKind::FloatingPoint, ElementKind::F64, 8},
          // A parameter's own const is no part of the entry points' types.
          {"f", "float", false, "float", false, ScalarKind::FloatingPoint, ElementKind::F32, 4},
          {"mode", "Mode", false, "Mode", false, ScalarKind::Other, ElementKind::Other, 4},
          // A struct of one scalar type holds lanes of that type.
          {"pair", "Pair", false, "Pair", false, ScalarKind::Other, ElementKind::F64, 16},
          {"wide", "__int128", false, "__int128", false, Signed, ElementKind::Other, 16},
      });
}

// CUDA's __grid_constant__ on a by-value parameter: Clang before 20 lacks the attribute, and the
// generator reads the parameter as the plain value, without a warning.
TEST(Extraction, GridConstantParametersAreTheirValueWithoutAWarning) {
  const std::string code = kPrelude + "OVERLAP_KERNEL(partition(n) offset(n) extent(y: n)\n"
                                      "               copy(y[lo:hi]) launch(grid: len, block: 1))\n"
                                      "__global__ void scaled(const __grid_constant__ Pair p,\n"
                                      "                       int n, float* y) {}\n";
  const InMemoryResult run = runOnCode(code);
  EXPECT_TRUE(run.result.ok());
  EXPECT_EQ(run.diagnostics, "");
  ASSERT_EQ(run.result.frontend.found.size(), 1u);
  const ir::Parameter& p = run.result.frontend.found[0].signature.params[0];
  EXPECT_EQ(p.type, "Pair");
  EXPECT_FALSE(p.isPointer);
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
          {"ci", "const int *", true, "int", true, Signed, ElementKind::I32, 4},
          {"ull", "unsigned long long *", true, "unsigned long long", false,
           ScalarKind::UnsignedInteger, ElementKind::U64, 8},
          {"raw", "void *", true, "void", false, Other, ElementKind::Other, 0},
          {"craw", "const void *", true, "void", true, Other, ElementKind::Other, 0},
          {"opaque", "Opaque *", true, "Opaque", false, Other, ElementKind::Other, 0},
          {"pairs", "Pair *", true, "Pair", false, Other, ElementKind::F64, 16},
          // Typedefs are resolved; a const hidden in one stays a const pointee.
          {"viaTypedef", "const float *", true, "float", true, Float, ElementKind::F32, 4},
          {"alias", "double *", true, "double", false, Float, ElementKind::F64, 8},
          // Array parameters are pointers.
          {"array", "float *", true, "float", false, Float, ElementKind::F32, 4},
          // restrict goes: it means nothing to host code, and nvcc refuses &x as a const void*.
          {"restricted", "short *", true, "short", false, Signed, ElementKind::I16, 2},
      });
}

TEST(Extraction, CudaHalfAndVectorTypesHaveTheKindOfTheirLanes) {
  const std::string code = "#include <overlap/annotate.h>\n"
                           "#include <cuda_fp16.h>\n"
                           "#include <cuda_bf16.h>\n"
                           "struct Point { float x, y, z; };\n"
                           "struct Mixed { float x; int y; };\n"
                           "OVERLAP_KERNEL(partition(n) offset(n))\n"
                           "__global__ void lanes(int n, half* h, half2* h2, __nv_bfloat16* b,\n"
                           "    float2* f2, float4* f4, double2* d2, int4* i4, uchar4* u4,\n"
                           "    Point* points, Mixed* mixed) {}\n";
  const InMemoryResult run = runOnCode(code);
  ASSERT_EQ(run.result.frontend.found.size(), 1u) << run.diagnostics;
  const auto Other = ScalarKind::Other;
  expectParameters(
      run.result.frontend.found[0].signature,
      {
          {"n", "int", false, "int", false, ScalarKind::SignedInteger, ElementKind::I32, 4},
          {"h", "__half *", true, "__half", false, Other, ElementKind::F16, 2},
          {"h2", "__half2 *", true, "__half2", false, Other, ElementKind::F16, 4},
          {"b", "__nv_bfloat16 *", true, "__nv_bfloat16", false, Other, ElementKind::BF16, 2},
          {"f2", "float2 *", true, "float2", false, Other, ElementKind::F32, 8},
          {"f4", "float4 *", true, "float4", false, Other, ElementKind::F32, 16},
          {"d2", "double2 *", true, "double2", false, Other, ElementKind::F64, 16},
          {"i4", "int4 *", true, "int4", false, Other, ElementKind::I32, 16},
          {"u4", "uchar4 *", true, "uchar4", false, Other, ElementKind::U8, 4},
          {"points", "Point *", true, "Point", false, Other, ElementKind::F32, 12},
          // Lanes of different types are no lanes.
          {"mixed", "Mixed *", true, "Mixed", false, Other, ElementKind::Other, 8},
      });
  // The header includes what declares the CUDA types and declares the file's own structs.
  const ir::HeaderNeeds& header = run.result.frontend.header;
  const auto includes = [&](const std::string& include) {
    return std::find(header.includes.begin(), header.includes.end(), include) !=
           header.includes.end();
  };
  EXPECT_TRUE(includes("<cuda_fp16.h>")) << ::testing::PrintToString(header.includes);
  EXPECT_TRUE(includes("<cuda_bf16.h>")) << ::testing::PrintToString(header.includes);
  EXPECT_EQ(header.declarations, (std::vector<std::string>{"struct Point;", "struct Mixed;"}));
}

TEST(Extraction, KernelsInNamedNamespacesAreQualified) {
  const std::string code = "#include <overlap/annotate.h>\n"
                           "namespace outer { namespace inner {\n"
                           "struct Params { int k; };\n"
                           "OVERLAP_KERNEL(partition(n) offset(n) extent(y: n) copy(y[lo:hi])\n"
                           "               launch(grid: len, block: 1))\n"
                           "__global__ void scale(int n, float* y, const Params* p) {}\n"
                           "} }\n";
  const InMemoryResult run = runOnCode(code);
  ASSERT_EQ(run.result.frontend.found.size(), 1u) << run.diagnostics;
  EXPECT_EQ(run.result.frontend.found[0].signature.name, "outer::inner::scale");
  EXPECT_EQ(run.result.frontend.found[0].signature.params[2].type, "const outer::inner::Params *");
  EXPECT_EQ(run.result.frontend.header.declarations,
            (std::vector<std::string>{"namespace outer { namespace inner { struct Params; } }"}));
}

TEST(Extraction, UnnamedTypesAreDeclaredByTheirTypedefsName) {
  // ggml's typedef struct { ... } block_q8_0: declared ahead for host code only, where the
  // kernel file's typedef (which conflicts with it) is not seen.
  const std::string code =
      "#include <overlap/annotate.h>\n"
      "typedef struct { float d; signed char qs[32]; } block_q8_0;\n"
      "namespace nn { typedef union { float f; int i; } Bits; }\n"
      "typedef enum : int { kOne, kTwo } Mode;\n"
      "struct Named { int k; };\n"
      "OVERLAP_KERNEL(partition(n) offset(n) extent(y, b, p: n) copy(y[lo:hi])\n"
      "               copyin(b[lo:hi], p[lo:hi]) launch(grid: len, block: 1))\n"
      "__global__ void scale(int n, block_q8_0* y, const nn::Bits* b,\n"
      "                      Mode m, const Named* p) {}\n";
  const InMemoryResult run = runOnCode(code);
  ASSERT_TRUE(run.result.ok()) << run.diagnostics;
  const ir::HeaderNeeds& header = run.result.frontend.header;
  EXPECT_EQ(header.declarations, (std::vector<std::string>{"struct Named;"}));
  EXPECT_EQ(header.declarationsWithoutKernelFile,
            (std::vector<std::string>{"struct block_q8_0;", "namespace nn { union Bits; }",
                                      "enum Mode : int;"}));
  EXPECT_EQ(run.result.frontend.found[0].signature.params[1].type, "block_q8_0 *");

  // Without a typedef there is no name at all.
  const std::string unnamed = "#include <overlap/annotate.h>\n"
                              "struct { float d; } g_block;\n"
                              "OVERLAP_KERNEL(partition(n) offset(n) extent(y: n) copy(y[lo:hi])\n"
                              "               launch(grid: len, block: 1))\n"
                              "__global__ void scale(int n, decltype(g_block)* y) {}\n";
  const InMemoryResult refused = runOnCode(unnamed);
  EXPECT_FALSE(refused.result.ok());
  EXPECT_NE(refused.diagnostics.find("has no name"), std::string::npos) << refused.diagnostics;
}

TEST(Extraction, TemplateInstantiationsListedByTheAnnotation) {
  const std::string code =
      "#include <overlap/annotate.h>\n"
      "OVERLAP_KERNEL(partition(n) offset(n) extent(x, y: n) copyin(x[lo:hi]) copyout(y[lo:hi])\n"
      "               launch(grid: ceil_div(len, BLOCK), block: BLOCK)\n"
      "               instantiate(T = float, BLOCK = 256) instantiate(dbl: T = double, BLOCK = "
      "64))\n"
      "template <class T, int BLOCK>\n"
      "__global__ void twice(const T* x, T* y, int n) {}\n";
  const InMemoryResult run = runOnCode(code);
  ASSERT_TRUE(run.result.ok()) << run.diagnostics;
  const auto& kernels = run.result.frontend.kernels;
  ASSERT_EQ(kernels.size(), 2u);
  EXPECT_EQ(kernels[0].signature.name, "twice");
  EXPECT_EQ(kernels[0].signature.templateArguments, "<float, 256>");
  EXPECT_EQ(kernels[0].signature.entryName, "twice_float_256");
  EXPECT_EQ(kernels[0].signature.params[0].type, "const float *");
  EXPECT_EQ(kernels[0].signature.params[0].elementSize, 4u);
  EXPECT_EQ(kernels[1].signature.templateArguments, "<double, 64>");
  EXPECT_EQ(kernels[1].signature.entryName, "dbl");
  EXPECT_EQ(kernels[1].signature.params[1].type, "double *");
  // BLOCK is a constant of each instantiation's expressions.
  ASSERT_TRUE(kernels[1].launch.block[0]);
  EXPECT_EQ(ir::evaluate(*kernels[1].launch.block[0], ir::Environment{}), 64);
  // The kernel's line is the template's.
  EXPECT_EQ(kernels[0].line, positionOf(code, "twice(").line);
}

TEST(Extraction, InstantiateArgumentsAreLookedUpInTheKernelsNamespace) {
  // As PyTorch's at::native kernels name their block size.
  const std::string code =
      "#include <overlap/annotate.h>\n"
      "namespace at { namespace native {\n"
      "constexpr int num_threads = 128;\n"
      "OVERLAP_KERNEL(partition(n) offset(n) extent(x: n) copy(x[lo:hi])\n"
      "               launch(grid: ceil_div(len, NT), block: NT) instantiate(NT = num_threads))\n"
      "template <int NT>\n"
      "__global__ void inc(float* x, int n) {}\n"
      "} }\n";
  const InMemoryResult run = runOnCode(code);
  ASSERT_TRUE(run.result.ok()) << run.diagnostics;
  ASSERT_EQ(run.result.frontend.kernels.size(), 1u);
  EXPECT_EQ(run.result.frontend.kernels[0].signature.templateArguments, "<128>");
  EXPECT_EQ(run.result.frontend.kernels[0].signature.entryName, "inc_128");
}

TEST(Extraction, SizeofNamesTheFilesTypes) {
  // A float4 staging tile in a kernel of float arrays, and structs of the kernel's namespace.
  const std::string code =
      "#include <overlap/annotate.h>\n"
      "struct Pixel { unsigned char r, g, b; };\n"
      "namespace img {\n"
      "struct Tile { double v[5]; };\n"
      "OVERLAP_KERNEL(partition(n) offset(n) extent(x: n) copy(x[lo:hi]) launch(grid: len, "
      "block: 32, shared: 2 * sizeof(float4) + sizeof(Tile) + sizeof(::Pixel) + "
      "sizeof(img::Tile)))\n"
      "__global__ void inc(float* x, int n) {}\n"
      "}\n";
  const InMemoryResult run = runOnCode(code);
  ASSERT_TRUE(run.result.ok()) << run.diagnostics;
  ASSERT_EQ(run.result.frontend.kernels.size(), 1u);
  const ir::ExprPtr& shared = run.result.frontend.kernels[0].launch.sharedBytes;
  ASSERT_TRUE(shared);
  EXPECT_EQ(ir::evaluate(*shared, ir::Environment{}), 2 * 16 + 40 + 3 + 40);

  // A type the kernel's scope does not declare is still refused, at its sizeof.
  const std::string unknown = "#include <overlap/annotate.h>\n"
                              "OVERLAP_KERNEL(partition(n) offset(n) extent(x: n) copy(x[lo:hi]) "
                              "launch(grid: len, block: 32, shared: sizeof(Tile)))\n"
                              "__global__ void inc(float* x, int n) {}\n";
  const InMemoryResult refused = runOnCode(unknown);
  EXPECT_FALSE(refused.result.ok());
  EXPECT_NE(refused.diagnostics.find("sizeof(Tile): not a type the annotation knows"),
            std::string::npos)
      << refused.diagnostics;
}

TEST(Extraction, ParamTakesTheFilesIntegerTypes) {
  // Index types as libraries declare them; the generated functions spell what they are.
  const std::string code =
      "#include <overlap/annotate.h>\n"
      "typedef int Index_t;\n"
      "namespace la { using idx = unsigned long long; }\n"
      "typedef double real;\n"
      "OVERLAP_KERNEL(param(Index_t rows, la::idx stride) partition(rows) offset extent(x: rows) "
      "copy(x[lo:hi]) launch(grid: len, block: 32))\n"
      "__global__ void inc(float* x) {}\n";
  const InMemoryResult run = runOnCode(code);
  ASSERT_TRUE(run.result.ok()) << run.diagnostics;
  ASSERT_EQ(run.result.frontend.kernels.size(), 1u);
  const auto& params = run.result.frontend.kernels[0].signature.params;
  ASSERT_EQ(params.size(), 3u);
  EXPECT_EQ(params[1].type, "int");
  EXPECT_EQ(params[2].type, "unsigned long long");

  std::string refusedCode = code;
  refusedCode.replace(refusedCode.find("Index_t rows"), 7, "real");
  const InMemoryResult refused = runOnCode(refusedCode);
  EXPECT_FALSE(refused.result.ok());
  EXPECT_NE(refused.diagnostics.find("'real' ('double') is not an integer type"), std::string::npos)
      << refused.diagnostics;
}

TEST(Extraction, AnnotationsCallTheFilesMacrosAndOneReturnFunctions) {
  // As frameworks size their launches: Caffe's CAFFE_GET_BLOCKS, a CEIL_DIV macro, a template.
  const std::string code =
      "#include <overlap/annotate.h>\n"
      "#define CEIL_DIV(M, N) (((M) + (N)-1) / (N))\n"
      "#define CUDA_NUM_THREADS 128\n"
      "const int CAFFE_CUDA_NUM_THREADS = 512;\n"
      "inline int CAFFE_GET_BLOCKS(const int N) {\n"
      "  return (N + CAFFE_CUDA_NUM_THREADS - 1) / CAFFE_CUDA_NUM_THREADS;\n"
      "}\n"
      "namespace ops {\n"
      "template <typename T> constexpr T div_up(T a, T b) { return CEIL_DIV(a, b); }\n"
      "OVERLAP_KERNEL(partition(n) offset(n) extent(x: n) copy(x[lo:hi])\n"
      "               launch(grid: CAFFE_GET_BLOCKS(len), block: CAFFE_CUDA_NUM_THREADS,\n"
      "                      shared: div_up(len, CUDA_NUM_THREADS) * 4))\n"
      "__global__ void relu(float* x, int n) {}\n"
      "}\n";
  const InMemoryResult run = runOnCode(code);
  ASSERT_TRUE(run.result.ok()) << run.diagnostics;
  ASSERT_EQ(run.result.frontend.kernels.size(), 1u);
  const ir::Launch& launch = run.result.frontend.kernels[0].launch;
  EXPECT_EQ(atChunk(launch.grid[0]), 2);
  EXPECT_EQ(atChunk(launch.sharedBytes), 8 * 4);

  // PyTorch's GET_BLOCKS checks before it returns: refused at the call, saying why.
  std::string checked = code;
  checked.replace(checked.find("  return (N +"), 0, "  int unused = 0;\n");
  const InMemoryResult refused = runOnCode(checked);
  EXPECT_FALSE(refused.result.ok());
  EXPECT_NE(refused.diagnostics.find("'CAFFE_GET_BLOCKS' (input.cu:5) cannot be called in an "
                                     "annotation: its body is more than one return statement"),
            std::string::npos)
      << refused.diagnostics;
}

TEST(Extraction, AnnotationsNameWhatTheKernelsScopeSeesQualifiedOrNot) {
  // Constants of an anonymous namespace or one a using-directive names, qualified constants of
  // namespaces, classes and enumerations, and a helper of another namespace whose body and
  // default argument read its own namespace's names and types, not the kernel's.
  const std::string code =
      "#include <overlap/annotate.h>\n"
      "namespace { constexpr int kThreads = 256; }\n"
      "namespace lib { constexpr int kUsed = 32; }\n"
      "using namespace lib;\n"
      "namespace cfg {\n"
      "constexpr int kThreads = 128;\n"
      "namespace detail { constexpr int kMax = 7; }\n"
      "enum class Width { kWide = 16 };\n"
      "struct Tile { static constexpr int kRows = 8; };\n"
      "struct Cell { double a, b; };\n"
      "constexpr int bytes(int n) { return n * sizeof(Cell); }\n"
      "constexpr int div_up(int a, int b) { return (a + b - 1) / b; }\n"
      "constexpr int blocks(int n, int threads = kThreads) {\n"
      "  return cfg :: div_up (n, threads) + detail::kMax * 0;\n"
      "}\n"
      "}\n"
      "OVERLAP_KERNEL(partition(n) offset(n) extent(x: n) copy(x[lo:hi])\n"
      "               launch(grid: (cfg::blocks(len), cfg::blocks(len, 4)),\n"
      "                      block: (kThreads / 64, kUsed, cfg::detail::kMax),\n"
      "                      shared: cfg::Tile::kRows * ::cfg::Width::kWide + cfg::bytes(2)))\n"
      "__global__ void relu(float* x, int n) {}\n";
  const InMemoryResult run = runOnCode(code);
  ASSERT_TRUE(run.result.ok()) << run.diagnostics;
  ASSERT_EQ(run.result.frontend.kernels.size(), 1u);
  const ir::Launch& launch = run.result.frontend.kernels[0].launch;
  EXPECT_EQ(atChunk(launch.grid[0]), 8); // cfg's kThreads, not the kernel's scope's
  EXPECT_EQ(atChunk(launch.grid[1]), 250);
  EXPECT_EQ(atChunk(launch.block[0]), 4);
  EXPECT_EQ(atChunk(launch.block[1]), 32);
  EXPECT_EQ(atChunk(launch.block[2]), 7);
  EXPECT_EQ(atChunk(launch.sharedBytes), 8 * 16 + 2 * 16); // sizeof(cfg::Cell)

  // A qualified name that is no constant of the file is unknown at its place.
  std::string misspelt = code;
  misspelt.replace(misspelt.find("cfg::detail::kMax)"), 17, "cfg::detail::kMix");
  const InMemoryResult refused = runOnCode(misspelt);
  EXPECT_FALSE(refused.result.ok());
  EXPECT_NE(refused.diagnostics.find("input.cu:19:53: error: 'cfg::detail::kMix' is not an "
                                     "integer constant the kernel's scope sees"),
            std::string::npos)
      << refused.diagnostics;
}

TEST(Extraction, AnnotationsReadTheFilesNamesAsTheKernelSeesThem) {
  // A namespace reopened after the kernel declares another kThreads, which the kernel does not
  // see; a helper declared before it may be defined after.
  const std::string code =
      "#include <overlap/annotate.h>\n"
      "constexpr int kThreads = 256;\n"
      "#define TILE 32\n"
      "int blocks(int n);\n"
      "namespace a {\n"
      "OVERLAP_KERNEL(partition(n) offset(n) extent(x: n) copy(x[lo:hi])\n"
      "               launch(grid: blocks(len), block: (kThreads / TILE, TILE)))\n"
      "__global__ void k(float* x, int n) {}\n"
      "}\n"
      "namespace a { constexpr int kThreads = 64; }\n"
      "int blocks(int n) { return (n + 255) / 256; }\n";
  const InMemoryResult run = runOnCode(code);
  ASSERT_TRUE(run.result.ok()) << run.diagnostics;
  const ir::Launch& launch = run.result.frontend.kernels[0].launch;
  EXPECT_EQ(atChunk(launch.grid[0]), 4);
  EXPECT_EQ(atChunk(launch.block[0]), 8);
  EXPECT_EQ(atChunk(launch.block[1]), 32);

  // A macro the file changes after the kernel would be read with its last meaning: refused.
  for (const auto& [after, message] : std::vector<std::pair<std::string, std::string>>{
           {"#undef TILE\n#define TILE 16\n",
            "macro 'TILE' is defined again after kernel 'k' (input.cu:13)"},
           {"#undef TILE\n", "macro 'TILE' is #undef'd after kernel 'k'"}}) {
    const InMemoryResult changed = runOnCode(code + after);
    EXPECT_FALSE(changed.result.ok());
    EXPECT_NE(changed.diagnostics.find("input.cu:7:61: error: " + message), std::string::npos)
        << changed.diagnostics;
  }
  std::string late = code;
  late.replace(late.find("#define TILE 32\n"), 16, "");
  const InMemoryResult defined = runOnCode(late + "#define TILE 16\n");
  EXPECT_NE(defined.diagnostics.find("macro 'TILE' is defined only after kernel 'k' (input.cu:11)"),
            std::string::npos)
      << defined.diagnostics;
}

TEST(Extraction, TemplateExplicitInstantiationsWithoutClauses) {
  const std::string code = "#include <overlap/annotate.h>\n"
                           "template <class T>\n"
                           "OVERLAP_KERNEL(partition(n) offset(n) extent(y: n) copy(y[lo:hi])\n"
                           "               launch(grid: len, block: 1))\n"
                           "__global__ void fill(int n, T* y) {}\n"
                           "template __global__ void fill<float>(int, float*);\n"
                           "template __global__ void fill<unsigned int>(int, unsigned int*);\n";
  const InMemoryResult run = runOnCode(code);
  ASSERT_TRUE(run.result.ok()) << run.diagnostics;
  const auto& kernels = run.result.frontend.kernels;
  ASSERT_EQ(kernels.size(), 2u);
  EXPECT_EQ(kernels[0].signature.entryName, "fill_float");
  EXPECT_EQ(kernels[1].signature.entryName, "fill_unsigned_int");
  EXPECT_EQ(kernels[1].signature.params[1].elementKind, ElementKind::U32);
}

TEST(Extraction, VectorAccessesThroughCastsAndLocalPointers) {
  const std::string code =
      "#include <overlap/annotate.h>\n"
      "#include <cuda_fp16.h>\n"
      "OVERLAP_KERNEL(partition(n) offset(n))\n"
      "__global__ void vec(int n, const float* a, const half* h, const float* b, float* c,\n"
      "                    const float4* already) {\n"
      "  float4 v = reinterpret_cast<const float4*>(a)[threadIdx.x];\n"
      "  half2 w = *(const half2*)&h[2 * threadIdx.x];\n"
      "  const float* row = b + n;\n"
      "  const float2* pair = (const float2*)row;\n"
      "  c[0] = v.x + pair->x + __low2float(w) + already->x;\n"
      "}\n";
  const InMemoryResult run = runOnCode(code);
  ASSERT_EQ(run.result.frontend.found.size(), 1u) << run.diagnostics;
  const auto& params = run.result.frontend.found[0].signature.params;
  EXPECT_EQ(params[0].vectorAccessAlignment, 0u); // n
  EXPECT_EQ(params[1].vectorAccessAlignment, 16u);
  EXPECT_EQ(params[2].vectorAccessAlignment, 4u);
  EXPECT_EQ(params[3].vectorAccessAlignment, 8u); // through the local pointer
  EXPECT_EQ(params[4].vectorAccessAlignment, 0u);
  EXPECT_EQ(params[5].vectorAccessAlignment, 0u); // already float4: no wider access
}

// llm.c loads and stores 16 bytes through helpers (load128cs, store128: templates casting to
// int4*); what a helper needs of its parameter, the kernel needs of what it passes, a few calls
// deep, recursion followed once.
TEST(Extraction, VectorAccessesInTheHelpersAKernelCalls) {
  const std::string code =
      "#include <overlap/annotate.h>\n"
      "#include <cuda_fp16.h>\n"
      "template <class T> __device__ int4 load16(const T* p) {\n"
      "  return __ldcs(reinterpret_cast<const int4*>(p));\n"
      "}\n"
      "template <class T> __device__ void store16(T* p, int4 v) { *(int4*)p = v; }\n"
      "__device__ int4 twice(const half* p) { return load16(p); }\n"
      "__device__ float plain(const float* p) { return *p; }\n"
      "__device__ float loop(const float* p, int k) { return k > 0 ? loop(p, k - 1) : *p; }\n"
      "struct Load4 {\n"
      "  __device__ float4 operator()(const float* p, int j) const {\n"
      "    return reinterpret_cast<const float4*>(p)[j];\n"
      "  }\n"
      "};\n"
      "OVERLAP_KERNEL(partition(n) offset(n))\n"
      "__global__ void helped(int n, const half* a, half* b, const float* c, const float* d,\n"
      "                       const int4* e, const float* f, const float* g) {\n"
      "  const int i = 8 * threadIdx.x;\n"
      "  store16(b + i, twice(a + i));\n"
      "  b[0] = __float2half(plain(c) + loop(d, 3));\n"
      "  store16(b, load16(e));\n"
      "  auto wide = [](const float* p) { return *reinterpret_cast<const float2*>(p); };\n"
      "  b[1] = __float2half(Load4{}(f, i).x + wide(g).y);\n"
      "}\n";
  const InMemoryResult run = runOnCode(code);
  ASSERT_EQ(run.result.frontend.found.size(), 1u) << run.diagnostics;
  const auto& params = run.result.frontend.found[0].signature.params;
  EXPECT_EQ(params[1].vectorAccessAlignment, 16u); // two calls deep
  EXPECT_EQ(params[2].vectorAccessAlignment, 16u);
  EXPECT_EQ(params[3].vectorAccessAlignment, 0u);  // a helper without casts
  EXPECT_EQ(params[4].vectorAccessAlignment, 0u);  // a recursive one
  EXPECT_EQ(params[5].vectorAccessAlignment, 0u);  // int4 already
  EXPECT_EQ(params[6].vectorAccessAlignment, 16u); // a functor's call operator
  EXPECT_EQ(params[7].vectorAccessAlignment, 8u);  // a lambda's
}

TEST(Extraction, DeviceVariablesOfTheFileGetSetters) {
  const std::string code = "#include <overlap/annotate.h>\n"
                           "__constant__ float c_filter[17];\n"
                           "namespace ns { __device__ int counters[3][4]; }\n"
                           "struct Local { int k; };\n"
                           "__constant__ Local local;\n"
                           "extern __constant__ float elsewhere[4];\n"
                           "OVERLAP_KERNEL(partition(n) offset(n) extent(y: n) copy(y[lo:hi])\n"
                           "               launch(grid: len, block: 1))\n"
                           "__global__ void k(int n, float* y) {}\n";
  const InMemoryResult run = runOnCode(code);
  ASSERT_TRUE(run.result.ok()) << run.diagnostics;
  const auto& globals = run.result.frontend.globals;
  ASSERT_EQ(globals.size(), 3u);
  EXPECT_EQ(globals[0].name, "c_filter");
  EXPECT_EQ(globals[0].elementType, "float");
  EXPECT_EQ(globals[0].count, 17);
  EXPECT_TRUE(globals[0].constant);
  EXPECT_EQ(globals[1].name, "ns::counters");
  EXPECT_EQ(globals[1].count, 12);
  EXPECT_FALSE(globals[1].constant);
  EXPECT_EQ(globals[2].elementType, "Local");
  EXPECT_EQ(globals[2].count, 1);
}

// A `const` variable's values may be folded into the kernels, so a setter could not change what
// they read: it gets a getter only. A pointer variable's setter takes `T* const*`, which `T**`
// converts to; a function pointer's is spelled through overlap::Spelled.
TEST(Extraction, ConstDeviceVariablesGetNoSetterAndPointerVariablesAUsableOne) {
  const std::string code = "#include <overlap/annotate.h>\n"
                           "__constant__ const float c_coef[3] = {0.25f, 0.5f, 0.25f};\n"
                           "__device__ float* d_scratch;\n"
                           "__device__ float (*d_op)(float);\n"
                           "OVERLAP_KERNEL(partition(n) offset(n) extent(y: n) copy(y[lo:hi])\n"
                           "               launch(grid: len, block: 1))\n"
                           "__global__ void k(int n, float* y) {}\n";
  const InMemoryResult run = runOnCode(code);
  ASSERT_TRUE(run.result.ok()) << run.diagnostics;
  const auto& globals = run.result.frontend.globals;
  ASSERT_EQ(globals.size(), 3u);
  EXPECT_TRUE(globals[0].readOnly);
  EXPECT_FALSE(globals[1].readOnly);
  const std::string& header = run.result.files->header;
  EXPECT_EQ(header.find("c_coef_set"), std::string::npos) << header;
  EXPECT_NE(header.find("c_coef_get(float* values"), std::string::npos) << header;
  EXPECT_NE(header.find("d_scratch_set(float * const* values"), std::string::npos) << header;
  EXPECT_NE(header.find("d_scratch_get(float ** values"), std::string::npos) << header;
  EXPECT_NE(header.find("d_op_set(::overlap::Spelled<float (*)(float)> const* values"),
            std::string::npos)
      << header;
  EXPECT_NE(header.find("d_op_get(::overlap::Spelled<float (*)(float)>* values"), std::string::npos)
      << header;
}

// A variable whose type host code cannot name (in an anonymous namespace of the kernel file) gets
// no setter, and the generator says so where it is declared.
TEST(Extraction, DeviceVariableWithoutASetterIsReported) {
  const std::string code = "#include <overlap/annotate.h>\n"
                           "namespace { struct Holder { int value; }; }\n"
                           "__constant__ Holder c_holder;\n"
                           "__constant__ float c_plain[2];\n"
                           "OVERLAP_KERNEL(partition(n) offset(n) extent(y: n) copy(y[lo:hi])\n"
                           "               launch(grid: len, block: 1))\n"
                           "__global__ void k(int n, float* y) {}\n";
  const InMemoryResult run = runOnCode(code);
  ASSERT_TRUE(run.result.ok()) << run.diagnostics;
  ASSERT_EQ(run.result.frontend.globals.size(), 1u);
  EXPECT_EQ(run.result.frontend.globals[0].name, "c_plain");
  EXPECT_NE(run.diagnostics.find("input.cu:3:21: warning: no setter for 'c_holder': "),
            std::string::npos)
      << run.diagnostics;
}

// Thrust-style functors passed by value: a specialization of a class template of the kernel file
// is named through a declaration of the template ahead of the entry points (without its default
// arguments, which the kernel file gives); templates the header cannot declare are refused.
TEST(Extraction, ClassTemplateSpecializationsOfTheKernelFileAreDeclaredAhead) {
  const std::string code =
      "#include <overlap/annotate.h>\n"
      "namespace fn { template <typename T, int Scale = 1> struct plus {\n"
      "  __device__ T operator()(T a, T b) const { return Scale * (a + b); } }; }\n"
      "OVERLAP_KERNEL(partition(n) offset(n) extent(a, r: n) copyin(a[lo:hi]) copyout(r[lo:hi])\n"
      "               launch(grid: len, block: 1))\n"
      "__global__ void k(int n, const double* a, double* r, fn::plus<double> op) {}\n";
  const InMemoryResult run = runOnCode(code);
  ASSERT_TRUE(run.result.ok()) << run.diagnostics;
  const std::string& header = run.result.files->header;
  EXPECT_NE(header.find("namespace fn { template <typename P0, int P1> struct plus; }"),
            std::string::npos)
      << header;
  EXPECT_NE(header.find("fn::plus<double, 1> op"), std::string::npos) << header;

  const std::string templated =
      "#include <overlap/annotate.h>\n"
      "template <template <class> class C> struct wrap { int k; };\n"
      "template <class T> struct box { T v; };\n"
      "OVERLAP_KERNEL(partition(n) offset(n) extent(r: n) copyout(r[lo:hi])\n"
      "               launch(grid: len, block: 1))\n"
      "__global__ void k(int n, double* r, wrap<box> w) {}\n";
  const InMemoryResult refused = runOnCode(templated);
  EXPECT_FALSE(refused.result.ok());
  EXPECT_NE(refused.diagnostics.find("cannot declare ahead; declare the template in a header the "
                                     "kernel file includes"),
            std::string::npos)
      << refused.diagnostics;
}

// Two overloads of one kernel name (a float and a __half version, as TensorRT's plugins write
// them): name(...) gives the second its own entry points, and each launches its own overload.
TEST(Extraction, AnOverloadOfAKernelNameGetsTheEntryPointsItsNameClauseGives) {
  const auto kernel = [](const std::string& type, const std::string& name) {
    return "OVERLAP_KERNEL(partition(n) offset(n) extent(x, y: n) copyin(x[lo:hi]) "
           "copyout(y[lo:hi])\n"
           "               launch(grid: ceil_div(len, 256), block: 256)" +
           name +
           ")\n"
           "__global__ void swish(int n, const " +
           type + "* x, " + type +
           "* y) {\n"
           "  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
           "  if (i < n) y[i] = x[i];\n"
           "}\n";
  };
  const InMemoryResult run = runOnCode("#include <overlap/annotate.h>\n" + kernel("float", "") +
                                       kernel("double", " name(swish_double)"));
  ASSERT_TRUE(run.result.ok()) << run.diagnostics;
  ASSERT_EQ(run.result.frontend.kernels.size(), 2u);
  EXPECT_EQ(run.result.frontend.kernels[1].signature.entryName, "swish_double");
  const std::string& header = run.result.files->header;
  EXPECT_NE(header.find("swish_tuned(int n, const float * x, float * y)"), std::string::npos)
      << header;
  EXPECT_NE(header.find("swish_double_tuned(int n, const double * x, double * y)"),
            std::string::npos)
      << header;
  const std::string& source = run.result.files->source;
  EXPECT_NE(source.find("static_cast<void (*)(int, const double *, double *)>(::swish)"),
            std::string::npos)
      << source;
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

// Tutorials name a pointer `array`, batch code an int `stream`: where a kernel parameter has the
// name of one of the binding's members or of an entry point's own parameter, the generated code
// renames its side, and the caller's entry points keep the kernel's names.
TEST(Extraction, ParametersNamedAsTheGeneratedCodesOwnAreRenamedThere) {
  const std::string code = "#include <overlap/annotate.h>\n"
                           "OVERLAP_KERNEL(partition(n) offset(n) extent(array, section: n)\n"
                           "               copyin(section[lo:hi]) copy(array[lo:hi])\n"
                           "               launch(grid: ceil_div(len, 256), block: 256))\n"
                           "__global__ void k(float* array, const float* section, int n,\n"
                           "                  int stream, int order, float config,\n"
                           "                  int streams, int overlap_args) {}\n";
  const InMemoryResult run = runOnCode(code);
  ASSERT_TRUE(run.result.ok()) << run.diagnostics;
  const std::string& header = run.result.files->header;
  const std::string& source = run.result.files->source;
  // The binding's members, beside its array(int) and section(...).
  EXPECT_NE(source.find("  float * array_;\n"), std::string::npos) << source;
  EXPECT_NE(source.find("  const float * section_;\n"), std::string::npos) << source;
  EXPECT_NE(source.find("  int stream;\n"), std::string::npos) << source;
  EXPECT_NE(source.find("this->array_"), std::string::npos);
  EXPECT_EQ(source.find("this->array)"), std::string::npos);
  // The entry points: the kernel's names first, the generated code's own after them.
  EXPECT_NE(header.find("overlap::Status k_streams(float * array, const float * section, int n, "
                        "int stream, int order, float config, int streams, int overlap_args, "
                        "int streams_, ::overlap::IssueOrder order_ = "),
            std::string::npos)
      << header;
  EXPECT_NE(header.find("const ::overlap::StreamsConfig& config_, cudaStream_t stream_);"),
            std::string::npos)
      << header;
  EXPECT_NE(source.find("const void* overlap_args_[] = {&array, &section, &n, &stream, &order, "
                        "&config, &streams, &overlap_args};"),
            std::string::npos)
      << source;
  EXPECT_NE(source.find("overlap_args_, stream_);"), std::string::npos) << source;
}

// The generated code lives partly in the kernel's namespace, where a name `overlap` of the user's
// own (a struct of quantum-chemistry code) hides the runtime's namespace: every mention of the
// runtime is qualified from the global namespace.
TEST(Extraction, AWholeArrayReadThroughAWiderTypeSetsNoGranule) {
  // Offset mode passes a whole array at element 0 and the kernel indexes it by its own indices:
  // a chunk's start moves no access of it off its alignment (llm.c's encoder reads wte so).
  const std::string code =
      "#include <overlap/annotate.h>\n"
      "OVERLAP_KERNEL(partition(n) offset(n) extent(x, y: n) extent(table: 4)\n"
      "               copyin(x[lo:hi], table) copyout(y[lo:hi])\n"
      "               launch(grid: ceil_div(len, 256), block: 256))\n"
      "__global__ void poly(const float* x, const float* table, float* y, int n) {\n"
      "  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  const float4 c = reinterpret_cast<const float4*>(table)[0];\n"
      "  if (4 * i + 3 < n) {\n"
      "    const float4 v = reinterpret_cast<const float4*>(x)[i];\n"
      "    y[4 * i] = c.x * v.x + c.y * v.y + c.z * v.z + c.w * v.w;\n"
      "  }\n"
      "}\n";
  const InMemoryResult run = runOnCode(code);
  ASSERT_TRUE(run.result.ok()) << run.diagnostics;
  const std::string& source = run.result.files->source;
  EXPECT_NE(source.find("accesses 'x' 16 bytes at a time"), std::string::npos) << source;
  EXPECT_EQ(source.find("accesses 'table'"), std::string::npos) << source;
}

TEST(Extraction, GeneratedCodeNamesTheRuntimeFromTheGlobalNamespace) {
  const std::string code = "#include <overlap/annotate.h>\n"
                           "namespace chem {\n"
                           "struct overlap { double s; };\n"
                           "OVERLAP_KERNEL(partition(n) offset(n) extent(s: n) copy(s[lo:hi])\n"
                           "               launch(grid: ceil_div(len, 256), block: 256))\n"
                           "__global__ void halve(double* s, int n) {}\n"
                           "}\n";
  const InMemoryResult run = runOnCode(code);
  ASSERT_TRUE(run.result.ok()) << run.diagnostics;
  for (const std::string* text : {&run.result.files->header, &run.result.files->source}) {
    for (std::size_t at = text->find("overlap::"); at != std::string::npos;
         at = text->find("overlap::", at + 1)) {
      const std::size_t lineStart = text->rfind('\n', at) + 1;
      if (text->compare(lineStart, 2, "//") == 0)
        continue; // comments may name it as people do
      EXPECT_TRUE(at >= 2 && text->compare(at - 2, 2, "::") == 0)
          << "unqualified at: " << text->substr(lineStart, text->find('\n', at) - lineStart);
    }
  }
}

// An unannotated overload of the kernel's name (the double version beside the float one) must
// not make the generated code's function pointers ambiguous.
TEST(Extraction, AnOverloadOfTheKernelsNameLeavesItsPointerUnambiguous) {
  const std::string code = "#include <overlap/annotate.h>\n"
                           "OVERLAP_KERNEL(partition(n) offset(n) extent(x: n) copy(x[lo:hi])\n"
                           "               launch(grid: ceil_div(len, 256), block: 256))\n"
                           "__global__ void scale(float* x, int n) {}\n"
                           "__global__ void scale(double* x, int n) {}\n";
  const InMemoryResult run = runOnCode(code);
  ASSERT_TRUE(run.result.ok()) << run.diagnostics;
  const std::string& source = run.result.files->source;
  EXPECT_NE(source.find("residentBlocksPerMultiprocessor(static_cast<void (*)(float *, int)>("
                        "::scale)"),
            std::string::npos)
      << source;
}

// A parameter whose declarator wraps its name (a pointer to rows of 4) is written through
// overlap::Spelled wherever a name or a `*` follows its type.
TEST(Extraction, PointerToArrayParametersAreSpelledForDeclarations) {
  const std::string code = "#include <overlap/annotate.h>\n"
                           "OVERLAP_KERNEL(partition(n) offset(n) extent(rows, out: n)\n"
                           "               copyin(rows[lo:hi]) copyout(out[lo:hi])\n"
                           "               launch(grid: ceil_div(len, 256), block: 256))\n"
                           "__global__ void rowsum(const float (*rows)[4], float* out, int n) {}\n";
  const InMemoryResult run = runOnCode(code);
  ASSERT_TRUE(run.result.ok()) << run.diagnostics;
  const std::string& header = run.result.files->header;
  const std::string& source = run.result.files->source;
  EXPECT_NE(header.find("rowsum_explicit(::overlap::Spelled<const float (*)[4]> rows, float * out"),
            std::string::npos)
      << header;
  EXPECT_NE(source.find("  ::overlap::Spelled<const float (*)[4]> rows;\n"), std::string::npos)
      << source;
  EXPECT_NE(source.find("const_cast<::overlap::Spelled<float[4]>*>(this->rows)"), std::string::npos)
      << source;
}

// nvcc has the cache-hint loads and stores beside __ldg; Clang's CUDA headers only __ldg. A kernel
// calling them (llm.c's do, on floats and on int4 through casts) is valid and accepted.
TEST(Extraction, CacheHintLoadsAndStoresAreKnown) {
  const std::string code =
      "#include <overlap/annotate.h>\n"
      "OVERLAP_KERNEL(partition(n) offset(n) extent(x, y: n) copyin(x[lo:hi]) copy(y[lo:hi])\n"
      "               launch(grid: ceil_div(len, 256), block: 256))\n"
      "__global__ void hints(int n, const float* x, float* y) {\n"
      "  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  if (i >= n) return;\n"
      "  const float a = __ldcs(x + i) + __ldcg(x + i) + __ldca(x + i) + __ldlu(x + i) +\n"
      "                  __ldcv(x + i) + __ldg(x + i);\n"
      "  __stcs(y + i, a * 2.0);\n"
      "  __stcg(y + i, a);\n"
      "  __stwt(y + i, a);\n"
      "  __stwb(y + i, 1);\n"
      "  const int4 v = __ldcs(reinterpret_cast<const int4*>(x));\n"
      "  __stcs(reinterpret_cast<int4*>(y), v);\n"
      "}\n";
  const InMemoryResult run = runOnCode(code);
  EXPECT_TRUE(run.result.ok()) << run.diagnostics;
  EXPECT_EQ(run.diagnostics.find("error"), std::string::npos) << run.diagnostics;
}

} // namespace
} // namespace overlap::frontend
