// Located diagnostics through the whole generator: the first line printed is
// "input.cu:LINE:COL: error: <message>" at the offending text (computed from the test source, not
// written down), the quoted source line is that line of the input, and the caret stands under the
// offending text's first character. Covers the annotation checker's findings mapped from offsets
// into (multi-line) annotation text, the frontend's own checks, and clang's errors in user code.
#include "FrontendTestSupport.h"

#include "emit/Emitter.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <set>
#include <string>

namespace overlap::frontend {
namespace {

using testing::parseDiagnostics;
using testing::Position;
using testing::positionOf;
using testing::PrintedDiagnostic;
using testing::runOnCode;

// The saxpy kernel with its annotation clauses replaceable one by one.
struct Saxpy {
  std::string partition = "partition(n) offset(n)";
  std::string extents = "extent(x, y: n)";
  std::string data = "copyin(x[lo:hi]) copy(y[lo:hi])";
  std::string launch = "launch(grid: ceil_div(len, 256), block: 256)";
  std::string signature = "__global__ void saxpy(int n, float a, const float* x, float* y)";

  std::string str() const {
    return "#include <overlap/annotate.h>\n"
           "\n"
           "OVERLAP_KERNEL(" +
           partition + "\n               " + extents + "\n               " + data +
           "\n               " + launch + ")\n" + signature +
           " {\n"
           "  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
           "  if (i < n)\n"
           "    y[i] = a * x[i] + y[i];\n"
           "}\n";
  }
};

// Runs the generator on `code` and checks that it fails, writes nothing, and that its first
// diagnostic has `severity`, sits at the first occurrence of `marker` (at `occurrence`-th if
// given), contains `message`, quotes the marker's line and carets its first character.
void expectFirstDiagnostic(const std::string& code, const std::string& marker,
                           const std::string& message, const std::string& severity = "error") {
  SCOPED_TRACE("source:\n" + code);
  const InMemoryResult run = runOnCode(code);
  EXPECT_FALSE(run.result.ok());
  EXPECT_FALSE(run.result.files.has_value());
  EXPECT_GT(run.result.frontend.errorCount, 0u);
  const std::vector<PrintedDiagnostic> printed = parseDiagnostics(run.diagnostics);
  ASSERT_FALSE(printed.empty()) << "no diagnostics in:\n" << run.diagnostics;
  const Position at = positionOf(code, marker);
  const std::string expectedStart = "input.cu:" + std::to_string(at.line) + ":" +
                                    std::to_string(at.column) + ": " + severity + ": ";
  const PrintedDiagnostic& first = printed.front();
  EXPECT_EQ(run.diagnostics.rfind(first.header, 0), 0u)
      << "the output does not start with a diagnostic:\n"
      << run.diagnostics;
  EXPECT_EQ(first.header.substr(0, expectedStart.size()), expectedStart) << run.diagnostics;
  EXPECT_NE(first.header.find(message, expectedStart.size()), std::string::npos)
      << "expected the message to contain: " << message << "\n"
      << run.diagnostics;
  EXPECT_EQ(first.sourceLine, testing::lineOf(code, at.line)) << run.diagnostics;
  EXPECT_EQ(first.caretColumn, at.column) << run.diagnostics;
}

// --- the annotation checker's findings, mapped into the file -----------------------------------

TEST(Diagnostics, UnknownClauseOnTheFirstAnnotationLine) {
  Saxpy kernel;
  kernel.partition = "partitoin(n) offset(n)";
  expectFirstDiagnostic(kernel.str(), "partitoin", "unknown clause 'partitoin'");
}

TEST(Diagnostics, UnknownClauseOnALaterAnnotationLine) {
  Saxpy kernel;
  kernel.launch = "lunch(grid: ceil_div(len, 256), block: 256)";
  expectFirstDiagnostic(kernel.str(), "lunch", "did you mean 'launch'?");
}

TEST(Diagnostics, UnknownNameInTheMiddleOfAMultiLineAnnotation) {
  Saxpy kernel;
  kernel.extents = "extent(x, y: count)";
  expectFirstDiagnostic(kernel.str(), "count", "'count' is not a parameter of kernel 'saxpy'");
}

TEST(Diagnostics, ErrorAfterACommentWithParenthesesInsideTheAnnotation) {
  Saxpy kernel;
  kernel.extents = "/* sizes (in elements) )) */ extent(x, y: n) // (\n               ";
  kernel.data = "copyin(x[lo:hi]) copy(y[lo:hi]) copy(z[lo:hi])";
  expectFirstDiagnostic(kernel.str(), "z[lo", "'z' is not a parameter");
}

TEST(Diagnostics, AnnotationSpreadOverManyLinesWithIndentation) {
  const std::string code = "#include <overlap/annotate.h>\n"
                           "OVERLAP_KERNEL(\n"
                           "    partition(n)\n"
                           "    offset(n)\n"
                           "    extent(x, y: n)\n"
                           "    copyin(x[lo:hi])\n"
                           "    copy(y[lo:hi])\n"
                           "    launch(grid: ceil_div(len, 256),\n"
                           "           block: 256,\n"
                           "           sharde: 0))\n"
                           "__global__ void saxpy(int n, float a, const float* x, float* y) {}\n";
  expectFirstDiagnostic(code, "sharde", "unknown launch key 'sharde'");
}

TEST(Diagnostics, FloatParameterInAnExpression) {
  Saxpy kernel;
  kernel.extents = "extent(x, y: n * a)";
  expectFirstDiagnostic(kernel.str(), "a)", "parameter 'a' has type 'float'");
}

TEST(Diagnostics, ChunkBoundInThePartition) {
  Saxpy kernel;
  kernel.partition = "partition(hi) offset(n)";
  expectFirstDiagnostic(kernel.str(), "hi)", "'hi' cannot be used in the partition extent");
}

TEST(Diagnostics, BitwiseOperatorIsNotSupported) {
  Saxpy kernel;
  kernel.launch = "launch(grid: len & 255, block: 256)";
  expectFirstDiagnostic(kernel.str(), "&", "operator '&' is not supported");
  kernel.launch = "launch(grid: ceil_div(len, 1 << 8), block: 1 << 8)"; // shifts are
  EXPECT_TRUE(runOnCode(kernel.str()).result.ok());
}

TEST(Diagnostics, SameArrayInTwoDataClauses) {
  Saxpy kernel;
  kernel.data = "copyin(x[lo:hi], y[lo:hi]) copyout(y[lo:hi])";
  // Reported where the array is named the second time.
  expectFirstDiagnostic(kernel.str(), "y[lo:hi])\n", "'y' is already in copyin");
}

TEST(Diagnostics, DivisionByLiteralZero) {
  Saxpy kernel;
  kernel.launch = "launch(grid: ceil_div(len, 0), block: 256)";
  expectFirstDiagnostic(kernel.str(), "0)", "division by zero");
}

// The tuner stores a default in its parameter's type: one the type cannot hold would run a call
// other than the one the extents (computed in long long) describe.
TEST(Diagnostics, TuneDefaultBeyondItsParametersType) {
  Saxpy kernel;
  kernel.launch = "launch(grid: ceil_div(len, 256), block: 256) tune(n = 1ll << 32)";
  expectFirstDiagnostic(kernel.str(), "1ll << 32",
                        "tune default of 'n' is 4294967296, which its type 'int' cannot hold "
                        "(-2147483648 .. 2147483647)");
  kernel.launch = "launch(grid: ceil_div(len, 256), block: 256) tune(n = 2147483647)";
  EXPECT_TRUE(runOnCode(kernel.str()).result.ok());
}

TEST(Diagnostics, CopyinOfAnArrayTheKernelWrites) {
  Saxpy kernel;
  kernel.data = "copyin(x[lo:hi], y[lo:hi])";
  const std::string code = kernel.str();
  const Position write = positionOf(code, "= a * x");
  expectFirstDiagnostic(code, "y[lo:hi]",
                        "the kernel writes 'y' (line " + std::to_string(write.line) + ", column " +
                            std::to_string(write.column) + "), but copyin only copies it in");
}

TEST(Diagnostics, EveryFormOfWriteThroughAParameterIsFound) {
  // Mapped would write the caller's array where Explicit drops the writes: each form is refused.
  struct Form {
    const char* helpers;
    const char* write;
  };
  const char* store = "__device__ void store(float* out, float v) { *out = v; }\n";
  for (const Form form : std::vector<Form>{
           {"", "y[i] = 0.0f;"},
           {"", "y[i] += 1.0f;"},
           {"", "++y[i];"},
           {"", "y[i]--;"},
           {"", "*(y + i) = 0.0f;"},
           {"", "*y = 0.0f;"},
           {"", "atomicAdd(&y[i], 1.0f);"},
           {"", "atomicExch(y + i, 1.0f);"},
           {"", "(y + i)[0] = 1.0f;"},
           {"", "__stcs(y + i, 1.0f);"},
           {"", "const float one = 1.0f; memcpy(&y[i], &one, sizeof one);"},
           {"", "memset(y + i, 0, sizeof(float));"},
           {"", "reinterpret_cast<float2*>(y)[i / 2] = make_float2(0, 0);"},
           // Through locals derived from the parameter.
           {"", "float* row = y + i; row[0] = 1.0f;"},
           {"", "float* p = nullptr; p = &y[i]; *p = 1.0f;"},
           {"", "float& cell = y[i]; cell = 1.0f;"},
           {"", "float* p = i > 0 ? y : nullptr; if (p) p[i] = 1.0f;"},
           // Through helpers, a pointer or a reference, a few calls deep.
           {store, "store(y + i, 1.0f);"},
           {"__device__ void set(float& out) { out = 1.0f; }\n", "set(y[i]);"},
           {"__device__ void store128(float* target, float4 v) {\n"
            "  *reinterpret_cast<float4*>(target) = v; }\n",
            "store128(y + 4 * i, make_float4(0, 0, 0, 0));"},
           // Pointers held in a local struct or array.
           {"struct Args { float* out; int n; };\n", "Args args{y, n}; args.out[i] = 1.0f;"},
           {"struct Args { float* out; int n; };\n",
            "Args args; args.out = y + i; *args.out = 1.0f;"},
           {"", "float* rows[2] = {y, y + n / 2}; rows[i % 2][i / 2] = 1.0f;"},
           // An accessor's member functions, a struct given to a helper, a lambda returning a
           // reference, a structured binding of an element.
           {"struct View { float* ptr; __device__ float& operator()(int j) const { return "
            "ptr[j]; } };\n",
            "View v{y}; v(i) += 1.0f;"},
           {"struct Writer { float* ptr; __device__ void put(int j, float v) const { ptr[j] = v; "
            "} };\n",
            "Writer w{y}; w.put(i, 1.0f);"},
           {"struct Out { float* ptr; int n; };\n"
            "__device__ void body(Out o, int j) { if (j < o.n) o.ptr[j] = 0.0f; }\n",
            "body(Out{y, n}, i);"},
           {"", "auto at = [=](int j) -> float& { return y[j]; }; at(i) = 0.0f;"},
           {"", "auto& [re, im] = reinterpret_cast<float2*>(y)[i / 2]; re = im;"},
           // A walking pointer, addresses computed in integers, a pointer to rows.
           {"", "float* p = y + i; *p++ = 1.0f;"},
           {"", "*reinterpret_cast<float*>(reinterpret_cast<unsigned long long>(y) + 4 * i) = 1;"},
           {"", "float (*rows)[2] = reinterpret_cast<float (*)[2]>(y); rows[i / 2][i % 2] = 1;"},
           // A helper returning a pointer or a reference into what it is given.
           {"__device__ float* rowptr(float* b, int r) { return b + r; }\n",
            "rowptr(y, i)[0] = 1.0f;"},
           {"__device__ float& at(float* b, int r) { return b[r]; }\n", "at(y, i) = 1.0f;"},
           {"__device__ float* rowptr(float* b, int r) { return b + r; }\n",
            "float* p = rowptr(y, i); *p = 1.0f;"},
           // A functor's or a lambda's call operator (the object binds no parameter).
           {"struct ZeroOp { __device__ void operator()(float* p, int j) const { p[j] = 0; } };\n",
            "ZeroOp{}(y, i);"},
           {"", "auto st = [](float* p, int j) { p[j] = 0; }; st(y, i);"},
           // Pointers swapped through references; a wrapper bound to an element.
           {"template <class T> __device__ void swp(T& a, T& b) { T t = a; a = b; b = t; }\n",
            "float scratch[1]; float* src = y; float* dst = scratch; swp(src, dst); dst[0] = 1;"},
           {"struct Ref { float& r; __device__ explicit Ref(float& x) : r(x) {} };\n",
            "Ref ref(y[i]);"},
           // Inline PTX storing through an address operand.
           {"", "asm volatile(\"st.global.f32 [%0], %1;\" :: \"l\"(y + i), \"f\"(1.0f));"},
           {"", "asm volatile(\"{ red.global.add.f32 [%0], %1; }\" :: \"l\"(&y[i]), "
                "\"f\"(1.0f) : \"memory\");"},
           {"__device__ void inner(float* p) { p[0] = 1.0f; }\n"
            "__device__ void outer(float* q, int k) { inner(q + k); }\n",
            "outer(y, i);"},
           // Eight calls deep, as template libraries' load/store helpers nest.
           {"__device__ void h0(float* p) { *p = 1.0f; }\n"
            "__device__ void h1(float* p) { h0(p); }\n__device__ void h2(float* p) { h1(p); }\n"
            "__device__ void h3(float* p) { h2(p); }\n__device__ void h4(float* p) { h3(p); }\n"
            "__device__ void h5(float* p) { h4(p); }\n__device__ void h6(float* p) { h5(p); }\n"
            "__device__ void h7(float* p) { h6(p); }\n",
            "h7(y + i);"},
       }) {
    const std::string code = std::string("#include <overlap/annotate.h>\n") + form.helpers +
                             "OVERLAP_KERNEL(partition(n) offset(n) extent(y: n) copyin(y[lo:hi])\n"
                             "               launch(grid: ceil_div(len, 256), block: 256))\n"
                             "__global__ void k(float* y, int n) {\n"
                             "  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                             "  if (i < n) { " +
                             form.write + " }\n}\n";
    SCOPED_TRACE(form.write);
    const InMemoryResult run = runOnCode(code);
    EXPECT_FALSE(run.result.ok());
    EXPECT_NE(run.diagnostics.find("the kernel writes 'y'"), std::string::npos) << run.diagnostics;
  }
}

TEST(Diagnostics, AParameterAssignedAnotherWritesThatOnesArray) {
  const std::string code = "#include <overlap/annotate.h>\n"
                           "OVERLAP_KERNEL(partition(n) offset(n) extent(a, b: n)\n"
                           "               copyin(a[lo:hi]) copy(b[lo:hi])\n"
                           "               launch(grid: ceil_div(len, 256), block: 256))\n"
                           "__global__ void k(float* a, float* b, int n) {\n"
                           "  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                           "  if (i < n && n > 1) b = a;\n"
                           "  if (i < n) b[i] = 1.0f;\n"
                           "}\n";
  expectFirstDiagnostic(code, "a[lo:hi]", "the kernel writes 'a' (line 8, column 19)");
}

// Explicit and Streams would read a device buffer nothing filled where Mapped read the caller's
// array: copyout of an array the kernel reads before it writes is refused, at the array's name.
TEST(Diagnostics, CopyoutOfAnArrayTheKernelReadsFirst) {
  const auto kernel = [](const std::string& helpers, const std::string& body) {
    return "#include <overlap/annotate.h>\n" + helpers +
           "OVERLAP_KERNEL(partition(n) offset(n) extent(x, y: n) copyin(x[lo:hi])\n"
           "               copyout(y[lo:hi]) launch(grid: ceil_div(len, 256), block: 256))\n"
           "__global__ void k(const float* x, float* y, int n) {\n"
           "  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
           "  if (i < n) { " +
           body + " }\n}\n";
  };
  const std::string code = kernel("", "y[i] = 2.0f * y[i] + x[i];");
  const Position read = positionOf(code, "y[i] + x");
  expectFirstDiagnostic(code, "y[lo:hi]",
                        "the kernel reads 'y' before it writes it (line " +
                            std::to_string(read.line) + ", column " + std::to_string(read.column) +
                            "), but copyout does not copy it in");
  const std::string adds = "__device__ void add(float* p, float v) { *p += v; }\n";
  const std::string scales = "__device__ void scale(float& out, float v) { out = out * v; }\n";
  const std::string puts = "__device__ void put(float* p, float v) { *p = v; }\n";
  const std::string twice2 =
      "__device__ void twice2(float* o, const float* a, int j) { o[j] = 2.0f * a[j]; }\n";
  for (const auto& [helpers, body] : std::vector<std::pair<std::string, std::string>>{
           {"", "y[i] += x[i];"},
           {"", "++y[i];"},
           {"", "atomicAdd(&y[i], x[i]);"},
           {"", "const float old = y[i]; y[i] = old + x[i];"},
           {"", "if (y[i] > 0.0f) y[i] = x[i];"},
           {"", "float& cell = y[i]; cell *= x[i];"},
           {"", "y[i] = __ldg(&y[i]) + x[i];"},
           {"", "const float2 v = reinterpret_cast<const float2*>(y)[i / 2]; y[i] = v.x + x[i];"},
           {"", "float v; asm(\"ld.global.f32 %0, [%1];\" : \"=f\"(v) : \"l\"(y + i)); "
                "y[i] = v + x[i];"},
           {adds, "add(y + i, x[i]);"},
           {scales, "scale(y[i], x[i]);"},
           {twice2, "twice2(y, y, i);"},
           // The other side of a branch, or after a side that returns (cuBLAS's beta).
           {"", "if (x[i] == 0.0f) y[i] = 1.0f; else y[i] = 2.0f * y[i] + x[i];"},
           {"", "y[i] = x[i] == 0.0f ? 1.0f : 2.0f * y[i];"},
           {"", "if (x[i] == 0.0f) { y[i] = 1.0f; return; } y[i] += x[i];"},
           // A lambda runs where it is called.
           {"", "auto put = [&](int j, float v) { y[j] = v; }; const float old = y[i]; "
                "put(i, old + x[i]);"},
           {"", "float spare = 0.0f; float& o = i % 2 ? y[i] : spare; o += x[i];"},
           // A case starts from what was written before the switch, fallen into or not; after
           // it, a switch without default may have run no case.
           {"", "switch (i % 2) { case 0: y[i] = x[i]; break; case 1: y[i] += x[i]; }"},
           {"", "switch (i % 2) { case 0: y[i] = x[i]; case 1: y[i] += x[i]; }"},
           {"", "switch (i % 2) { case 0: y[i] = x[i]; break; case 1: y[i] = 1; } y[i] *= 2;"},
           // Through an accessor, a struct given to a helper, a structured binding.
           {"struct View { float* ptr; __device__ float& operator()(int j) const { return "
            "ptr[j]; } };\n",
            "View v{y}; v(i) = 2.0f * v(i) + x[i];"},
           {"struct Args { const float* x; float* y; };\n"
            "__device__ void body(Args a, int j) { a.y[j] += a.x[j]; }\n",
            "body(Args{x, y}, i);"},
           {"", "auto& [re, im] = reinterpret_cast<float2*>(y)[i / 2]; re += x[i];"},
           // A local pointer moved from the input to the output reads the output after the move,
           // or before it in the next round of a loop around both.
           {"", "const float* p = x + i; float m = *p; p = y + i; m += *p; y[i] = m;"},
           {"", "const float* p = x + i; float m = 0.0f; for (int k = 0; k < 2; ++k) { m += *p; "
                "p = y + i; } y[i] = m;"},
       }) {
    SCOPED_TRACE(body);
    const InMemoryResult run = runOnCode(kernel(helpers, body));
    EXPECT_FALSE(run.result.ok());
    EXPECT_NE(run.diagnostics.find("the kernel reads 'y' before it writes it"), std::string::npos)
        << run.diagnostics;
  }
  // Reading back what the thread wrote (a softmax normalizing its output in place) is fine.
  const std::string twice = "__device__ void twice(float* p, float v) { *p = v; *p += v; }\n";
  for (const auto& [helpers, body] : std::vector<std::pair<std::string, std::string>>{
           {"", "y[i] = x[i]; y[i] += 1.0f;"},
           {"", "y[i] = 0.0f; for (int k = 0; k < 4; ++k) y[i] += x[i];"},
           {"", "float* out = y + i; *out = x[i]; *out = *out * 2.0f;"},
           {"", "y[i] = expf(x[i]); __syncthreads(); y[i] = y[i] / 2.0f;"},
           {puts, "put(y + i, x[i]); y[i] *= 2.0f;"},
           {twice, "twice(y + i, x[i]);"},
           {"", "auto clamp = [&](int j) { y[j] = fminf(y[j], 1.0f); }; y[i] = x[i]; clamp(i);"},
           {"", "using T = decltype(y[0] + 0.0f); y[i] = T(x[i]);"},
           {"", "if (x[i] > 0.0f) y[i] = x[i]; else y[i] = -x[i]; y[i] *= 2.0f;"},
           {"", "if (i % 2) y[i] = x[i]; else { y[i] = 0.0f; } y[i] += 1.0f;"},
           // A struct's members one by one: writing one reads no other.
           {"struct Args { const float* x; float* y; };\n",
            "Args a{x, y}; a.y[i] = 2.0f * a.x[i];"},
           // A helper that writes one member of a struct and reads the other (a const one).
           {"struct Args { const float* x; float* y; };\n"
            "__device__ void body(Args a, int j) { a.y[j] = 2.0f * a.x[j]; }\n",
            "body(Args{x, y}, i);"},
           {"", "switch (i % 3) { case 0: { y[i] = x[i]; break; } default: y[i] = -x[i]; } "
                "y[i] *= 2.0f;"},
           {"", "switch (i % 2) { case 0: y[i] = x[i]; y[i] += 1.0f; break; default: y[i] = 0; }"},
           // Guarded alike twice: an if without else counts as running its body.
           {"", "if (x[i] > 0.0f) y[i] = x[i]; __syncthreads(); if (x[i] > 0.0f) y[i] *= 2;"},
           // llm.c's softmax_forward_kernel4: the pointer reads the input, then the written output.
           {"", "const float* p = x + i; float m = *p; y[i] = m; p = y + i; y[i] = 2.0f * *p;"},
       }) {
    SCOPED_TRACE(body);
    const InMemoryResult run = runOnCode(kernel(helpers, body));
    EXPECT_TRUE(run.result.ok()) << run.diagnostics;
  }
}

// Offset mode gives n the chunk's length: a kernel that also strides planes by n (S3D's
// wdot[k * n + i], a batch b * n) would address planes of the chunk's length.
TEST(Diagnostics, AnOffsetLengthThatIsAlsoAPlaneStrideIsRefused) {
  const auto kernel = [](const std::string& mode, const std::string& helpers,
                         const std::string& body) {
    return "#include <overlap/annotate.h>\n" + helpers + "OVERLAP_KERNEL(partition(n) " + mode +
           " extent(x, y: 4 * n) copyin(x[lo:hi])\n"
           "               copyout(y[lo:hi]) launch(grid: ceil_div(len, 256), block: 256))\n"
           "__global__ void k(const float* x, float* y, int n, int c) {\n"
           "  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
           "  if (i < n) { " +
           body + " }\n}\n";
  };
  const std::string code =
      kernel("offset(n)", "", "y[i] = x[i]; for (int k = 1; k < 4; ++k) y[k * n + i] = x[i];");
  const Position at = positionOf(code, "y[k * n");
  expectFirstDiagnostic(code, "n) extent",
                        "the kernel indexes 'y' at a multiple of 'n' (line " +
                            std::to_string(at.line) + ", column " + std::to_string(at.column) +
                            "), planes 'n' apart, but offset(n) gives it each chunk's length");
  const std::string store = "__device__ void store(float* p, long j, float v) { p[j] = v; }\n";
  const std::string store4 = "__device__ void store4(float* p, int j, float v) { p[4 * j] = v; }\n";
  for (const auto& [helpers, body] : std::vector<std::pair<std::string, std::string>>{
           {"", "y[i] = x[n * 2 + i];"},
           {"", "y[i] = x[i + (n << 1)];"},
           {"", "const int plane = c * n; y[plane + i] = x[i];"},
           {"", "int idx = i; idx += 3 * n; y[idx] = x[i];"},
           {"", "const int stride = n; y[c * stride + i] = x[i];"},
           {"", "float* last = y + 3 * n; last[i] = x[i];"},
           {"", "const float* row = x; row += (size_t)c * n; y[i] = row[i];"},
           {store, "store(y, (long)c * n + i, x[i]);"},
           {store4, "store4(y, n, x[i]);"},
       }) {
    SCOPED_TRACE(body);
    const InMemoryResult run = runOnCode(kernel("offset(n)", helpers, body));
    EXPECT_FALSE(run.result.ok());
    EXPECT_NE(run.diagnostics.find("' at a multiple of 'n'"), std::string::npos) << run.diagnostics;
  }
  // A term n alone (haxpy's odd last element), a clamp, a division, another parameter's planes,
  // or n where the kernel keeps the caller's (a bare offset, range mode) is no plane of n.
  for (const auto& [mode, body] : std::vector<std::pair<std::string, std::string>>{
           {"offset(n)", "y[i] = x[i]; if (i == 0 && n % 2) y[n - 1] = 0.0f;"},
           {"offset(n)", "y[i] = x[min(i + 1, n - 1) * 1];"},
           {"offset(n)", "y[i] = x[(i / n) * 4 + i % n];"},
           {"offset(n)", "y[i] = x[c * 4 + i] * (float)(n * 2);"},
           {"offset(n)", "y[i] = x[i] + (float)(1 * n - n);"},
           {"offset", "y[i] = x[i + 0 * n]; y[c * n + i] = x[i];"},
       }) {
    SCOPED_TRACE(mode + " " + body);
    const InMemoryResult run = runOnCode(kernel(mode, "", body));
    EXPECT_EQ(run.diagnostics.find("' at a multiple of '"), std::string::npos) << run.diagnostics;
  }
}

// A thread that reads an input beside the element it writes (a stencil's x[i - 1], x[i + 1])
// reads past the chunk's section of the input unless a halo or a wider section brings it: the
// chunk would read its neighbour's elements, copied or not yet.
TEST(Diagnostics, AReadBesideTheWrittenElementOutsideTheSectionIsRefused) {
  const auto kernel = [](const std::string& mode, const std::string& data,
                         const std::string& body) {
    const bool range = mode.rfind("range", 0) == 0;
    return "#include <overlap/annotate.h>\n"
           "OVERLAP_KERNEL(partition(n) " +
           mode + " extent(x, y: 2 * n) " + data +
           "\n"
           "               launch(grid: ceil_div(len, 256), block: 256))\n"
           "__global__ void k(const float* x, float* y, int n, int w, int lo, int hi) {\n"
           "  const int i = " +
           (range ? "lo + " : "") +
           "blockIdx.x * blockDim.x + threadIdx.x;\n"
           "  if (i < " +
           (range ? "hi" : "n") + ") { " + body + " }\n}\n";
  };
  const std::string stencil = "y[i] = x[i - 1] + x[i] + x[i + 1];";
  const std::string code = kernel("offset(n)", "copyin(x[lo:hi]) copyout(y[lo:hi])", stencil);
  const Position read = positionOf(code, "x[i - 1]");
  const Position write = positionOf(code, "y[i] = x");
  expectFirstDiagnostic(code, "x[lo:hi]",
                        "the kernel reads 'x' (line " + std::to_string(read.line) + ", column " +
                            std::to_string(read.column) +
                            ") before the begin of its chunk's section, counted from where the "
                            "same thread writes 'y' (line " +
                            std::to_string(write.line) + ", column " +
                            std::to_string(write.column) +
                            "): each chunk would read elements its own copies did not bring, a "
                            "neighbouring chunk's, copied or not yet; give it halo(x: 1, 1), or "
                            "a section that much wider");
  for (const auto& [mode, data, body, message] :
       std::vector<std::tuple<std::string, std::string, std::string, std::string>>{
           {"range(lo, hi)", "copyin(x[lo:hi]) copyout(y[lo:hi])", "y[i] = x[i + 1] - x[i];",
            "past the end"},
           {"offset(n)", "copyin(x[lo:hi]) halo(x: 1) copyout(y[lo:hi])",
            "y[i] = x[i - 1] + x[i + 2];", "halo(x: 1, 2)"},
           {"range(lo, hi)", "copyin(x[lo * w : hi * w]) copyout(y[lo * w : hi * w])",
            "for (int c = 0; c < w; ++c) y[i * w + c] = x[(i - 1) * w + c];", "halo(x: w, 0)"},
           {"offset(n)", "copyin(x[lo:hi]) copyout(y[lo:hi])",
            "for (int j = i; j < n; j += blockDim.x * gridDim.x) y[j] = x[j + 1];",
            "halo(x: 0, 1)"},
           {"offset(n)", "copyin(x[lo:hi]) copy(y[lo:hi])", "y[i] += x[i - 1];", "halo(x: 1, 0)"},
           {"offset(n)", "copyin(x[lo:hi]) copyout(y[lo:hi])",
            "const int next = i + 1; y[i] = x[next];", "halo(x: 0, 1)"},
           // C89's locals: declared first, assigned once; a loop's counter declared before it,
           // reused by a second loop.
           {"offset(n)", "copyin(x[lo:hi]) copyout(y[lo:hi])", "int j; j = i + 1; y[i] = x[j];",
            "halo(x: 0, 1)"},
           {"offset(n)", "copyin(x[lo:hi]) copyout(y[lo:hi])",
            "float s = 0; int k; for (k = -1; k <= 1; k++) s += x[i + k]; y[i] = s;",
            "halo(x: 1, 1)"},
           {"offset(n)", "copyin(x[lo:hi]) copyout(y[lo:hi])",
            "float s = 0; int k; for (k = 0; k < 2; k++) s += x[i + k]; for (k = 0; k < 3; k++) "
            "s -= x[i - k]; y[i] = s;",
            "halo(x: 2, 1)"},
           {"offset(n)", "copyin(x[2 * lo : 2 * hi]) copyout(y[2 * lo : 2 * hi])",
            "y[2 * i] = x[2 * i]; y[2 * i + 1] = x[2 * i + 2];", "halo(x: 0, 1)"},
           {"offset(n)", "copyin(x[lo:hi]) copyout(y[lo:hi])",
            "float s = 0; for (int r = -w; r <= w; ++r) s += x[i + r]; y[i] = s;", "halo(x: w, w)"},
           {"range(lo, hi)", "copyin(x[lo * w : hi * w]) copyout(y[lo * w : hi * w])",
            "for (int c = 0; c < w; ++c) { float s = 0; for (int r = 2; r >= -2; r--) s += x[(i + "
            "r) * w + c]; y[i * w + c] = s; }",
            "halo(x: 2 * w, 2 * w)"},
           {"range(lo, hi)", "copyin(x[lo * w : hi * w]) halo(x: w) copyout(y[lo * w : hi * w])",
            "for (int c = 1; c + 1 < w; ++c) y[i * w + c] = x[(i - 2) * w + c + 1];",
            "halo(x: 2 * w, w)"},
           // PolyBench's 2DCONV given one element on each side instead of a row.
           {"range(lo, hi)", "copyin(x[lo * w - 1 : hi * w + 1]) copyout(y[lo * w : hi * w])",
            "for (int c = 1; c + 1 < w; ++c) y[i * w + c] = x[(i - 1) * w + c - 1] + x[(i + 1) * "
            "w + c + 1];",
            "halo(x: w, w)"},
           {"range(lo, hi)", "copyin(x[(lo - 1) * w : hi * w]) copyout(y[lo * w : hi * w])",
            "if (i == lo) for (int z = lo; z < hi; ++z) y[z * w + 1] = x[(z - 2) * w + 1];",
            "halo(x: 63, 0) (at w = 64)"},
           // Through pointers: arithmetic, a cache-hinted load, a row pointer, a float4 view.
           {"offset(n)", "copyin(x[lo:hi]) copyout(y[lo:hi])", "*(y + i) = *(x + i + 1);",
            "halo(x: 0, 1)"},
           {"offset(n)", "copyin(x[lo:hi]) copyout(y[lo:hi])", "y[i] = __ldg(x + i - 2);",
            "halo(x: 2, 0)"},
           {"range(lo, hi)", "copyin(x[lo * w : hi * w]) copyout(y[lo * w : hi * w])",
            "const float* up = x + (i - 1) * w; float* row = &y[i * w]; for (int c = 0; c < w; "
            "++c) row[c] = up[c];",
            "halo(x: w, 0)"},
           {"offset(n) granule(4)", "copyin(x[lo:hi]) halo(x: 1) copyout(y[lo:hi])",
            "const float4* v = reinterpret_cast<const float4*>(x); float4 l = v[i - 1], c = v[i]; "
            "reinterpret_cast<float4*>(y)[i] = make_float4(l.w, c.x, c.y, c.z);",
            "halo(x: 4, 1)"},
           // At another scale: decimation, upsampling, a reversal.
           {"range(lo, hi)", "copyin(x[2 * lo : 2 * hi]) copyout(y[lo:hi])",
            "y[i] = x[2 * i - 1] + x[2 * i] + x[2 * i + 1];", "halo(x: 1, 0)"},
           {"offset(n)", "copyin(x[lo:hi]) copyout(y[2 * lo : 2 * hi])",
            "y[2 * i] = x[i]; y[2 * i + 1] = x[i] + x[i + 1];", "halo(x: 0, 1)"},
           {"range(lo, hi)", "copyin(x[n - hi : n - lo]) copyout(y[lo:hi])",
            "y[i] = x[n - 1 - i] + x[n - 2 - i];", "halo(x: 1, 0)"},
           // z-marching's plane below the chunk, read before its loop.
           {"range(lo, hi)", "copyin(x[lo * w : hi * w]) copyout(y[lo * w : hi * w])",
            "const int c = threadIdx.x; float b = x[(lo - 1) * w + c]; for (int z = lo; z < hi; "
            "++z) y[z * w + c] = b + x[z * w + c];",
            "halo(x: w, 0)"},
           // A section the whole call shares beside the chunk's holds only its own elements.
           {"range(lo, hi)", "copyin(x[0:1], x[lo:hi]) copyout(y[lo:hi])",
            "y[i] = x[i - 1] + x[0];", "halo(x: 1, 0)"},
           {"range(lo, hi)", "copyin(x[0 : w], x[lo * w : hi * w]) copyout(y[lo * w : hi * w])",
            "const int c = threadIdx.x; for (int z = lo; z < hi; ++z) y[z * w + c] = x[z * w + c] "
            "- (z > 0 ? x[(z - 1) * w + c] : x[c]);",
            "halo(x: w, 0)"},
       }) {
    SCOPED_TRACE(mode + " " + data + " " + body);
    const InMemoryResult run = runOnCode(kernel(mode, data, body));
    EXPECT_FALSE(run.result.ok());
    EXPECT_NE(run.diagnostics.find("the kernel reads 'x'"), std::string::npos) << run.diagnostics;
    EXPECT_NE(run.diagnostics.find(message), std::string::npos) << run.diagnostics;
  }
  // A halo or a section wide enough; reads within a row of a row partition (where the kernel's
  // guard keeps them, beyond this check); an index the check cannot read; a pointer the kernel
  // advances itself.
  for (const auto& [mode, data, body] :
       std::vector<std::tuple<std::string, std::string, std::string>>{
           {"range(lo, hi)", "copyin(x[lo - 1 : hi + 1]) copyout(y[lo:hi])", stencil},
           {"offset(n)", "copyin(x[lo:hi]) halo(x: 1) copyout(y[lo:hi])", stencil},
           {"offset(n)", "copyin(x[lo:hi]) halo(x: 0, 1) copyout(y[lo:hi])",
            "y[i] = x[i + 1] - x[i];"},
           {"range(lo, hi)", "copyin(x[lo + 1 : hi + 1]) copyout(y[lo:hi])", "y[i] = x[i + 1];"},
           {"range(lo, hi)", "copyin(x[(lo - 1) * w : (hi + 1) * w]) copyout(y[lo * w : hi * w])",
            "for (int c = 1; c + 1 < w; ++c) y[i * w + c] = x[(i - 1) * w + c] + x[(i + 1) * w + "
            "c] + x[i * w + c - 1] + x[i * w + c + 1];"},
           {"offset(n)", "copyin(x[2 * lo : 2 * hi]) copyout(y[2 * lo : 2 * hi])",
            "y[2 * i] = x[2 * i + 1]; y[2 * i + 1] = x[2 * i];"},
           {"offset(n)", "copyin(x[lo:hi]) copyout(y[lo:hi])", "y[i] = x[min(i + 1, n - 1)];"},
           {"offset(n)", "copyin(x[lo:hi]) copyout(y[lo:hi])", "y[i] = x[i / 2 * 2 + 1];"},
           {"offset(n)", "copyin(x[lo:hi]) copyout(y[lo:hi])",
            "const float* p = x; y[i] = p[i] + (i > 0 ? x[i] : 0.0f);"},
           {"offset(n)", "copyin(x[lo:hi]) copyout(y[lo:hi])",
            "int j = i; y[j] = x[j]; j = i + 1;"},
           {"offset(n)", "copyin(x[lo:hi]) copyout(y[lo:hi])",
            "int j; if (w > 0) j = i + 1; else j = i; y[i] = x[j];"},
           {"offset(n)", "copyin(x[lo:hi]) copyout(y[lo:hi])",
            "int k; for (k = 0; k < 2; k++) y[i] = x[i]; k = 5; y[i] += x[i + k - 5];"},
           {"offset(n)", "copyin(x[lo:hi]) halo(x: w) copyout(y[lo:hi])",
            "float s = 0; for (int r = -w; r <= w; ++r) s += x[i + r]; y[i] = s;"},
           {"range(lo, hi)", "copyin(x[lo - 3 : hi + 2]) copyout(y[lo:hi])",
            "float s = 0; for (int k = 0; k < 6; k++) s += x[i + k - 3]; y[i] = s;"},
           // A few threads of each block load a shared tile's halo (CUDA by Example's stencil_1d).
           {"offset(n) granule(256)", "copyin(x[lo:hi]) halo(x: 3) copyout(y[lo:hi])",
            "__shared__ float t[256 + 6]; t[threadIdx.x + 3] = x[i]; if (threadIdx.x < 3) { "
            "t[threadIdx.x] = x[i - 3]; t[threadIdx.x + 259] = x[i + 256]; } __syncthreads(); "
            "y[i] = t[threadIdx.x] + t[threadIdx.x + 6];"},
           // A pair's partner, picked by the index's parity, in chunks of whole pairs.
           {"offset(n) granule(2)", "copyin(x[lo:hi]) copyout(y[lo:hi])",
            "if (i % 2 == 0) y[i] = x[i + 1]; else y[i] = x[i - 1];"},
           {"offset(n) granule(256)", "copyin(x[lo:hi]) copyout(y[lo:hi])",
            "if (threadIdx.x & 1) y[i] = x[i - 1]; else y[i] = x[i + 1];"},
           // Within the thread's own record (a complex number, a pixel), or its own row.
           {"offset(n)", "copyin(x[2 * lo : 2 * hi]) copyout(y[2 * lo : 2 * hi])",
            "y[2 * i] = x[2 * i] * x[2 * i + 1]; y[2 * i + 1] = 0;"},
           {"offset(n)", "copyin(x[2 * lo : 2 * hi]) copy(y[2 * lo : 2 * hi])",
            "y[2 * i + 1] = x[2 * i];"},
           {"range(lo, hi)", "copyin(x[lo * w : hi * w]) copy(y[lo * w : hi * w])",
            "y[i * w] = x[i * w + 1]; y[i * w + w - 1] = x[i * w + w - 2];"},
           // Through pointers, within the section: a row pointer, a float4 view with its halo.
           {"range(lo, hi)", "copyin(x[lo * w : hi * w]) copyout(y[lo * w : hi * w])",
            "const float* row = x + i * w; for (int c = 1; c + 1 < w; ++c) *(y + i * w + c) = "
            "row[c - 1] + __ldg(&row[c + 1]);"},
           {"offset(n) granule(4)", "copyin(x[lo:hi]) halo(x: 4, 0) copyout(y[lo:hi])",
            "const float4* v = reinterpret_cast<const float4*>(x); float4 l = v[i - 1], c = v[i]; "
            "reinterpret_cast<float4*>(y)[i] = make_float4(l.w, c.x, c.y, c.z);"},
           // At another scale, within the section.
           {"range(lo, hi)", "copyin(x[2 * lo - 1 : 2 * hi]) copyout(y[lo:hi])",
            "y[i] = x[2 * i - 1] + x[2 * i] + x[2 * i + 1];"},
           {"offset(n)", "copyin(x[lo:hi]) halo(x: 0, 1) copyout(y[2 * lo : 2 * hi])",
            "y[2 * i] = x[i]; y[2 * i + 1] = x[i] + x[i + 1];"},
           {"range(lo, hi)", "copyin(x[n - hi : n - lo]) copyout(y[lo:hi])",
            "y[i] = x[n - 1 - i];"},
           {"range(lo, hi)", "copyin(x[(lo - 1) * w : hi * w]) copyout(y[lo * w : hi * w])",
            "const int c = threadIdx.x; float b = x[(lo - 1) * w + c]; for (int z = lo; z < hi; "
            "++z) y[z * w + c] = b + x[z * w + c];"},
           // Beside a section the whole call shares: the chunk's own with its halo, or one that
           // holds the neighbours.
           {"range(lo, hi)", "copyin(x[0:1], x[lo - 1 : hi]) copyout(y[lo:hi])",
            "y[i] = x[i - 1] + x[0];"},
           {"range(lo, hi)", "copyin(x[0 : 2 * n], x[lo:hi]) copyout(y[lo:hi])",
            "y[i] = x[i - 1] + x[i + 1];"},
           {"range(lo, hi)",
            "copyin(x[0 : w], x[(lo - 1) * w : hi * w]) copyout(y[lo * w : hi * w])",
            "const int c = threadIdx.x; for (int z = lo; z < hi; ++z) y[z * w + c] = x[z * w + c] "
            "- (z > 0 ? x[(z - 1) * w + c] : x[c]);"},
           // A rotary embedding's pair half a row away; its two widths sampled apart.
           {"range(lo, hi)", "copyin(x[lo * w : hi * w]) copyout(y[lo * w : hi * w])",
            "for (int c = 0; c < w / 2; ++c) y[i * w + c] = x[i * w + c + w / 2];"},
           {"range(lo, hi)", "copyin(x[lo * w : hi * w]) copyout(y[lo * w : hi * w])",
            "for (int c = 0; c < n; ++c) y[i * w + c] = x[i * w + c + n];"},
       }) {
    SCOPED_TRACE(mode + " " + data + " " + body);
    const InMemoryResult run = runOnCode(kernel(mode, data, body));
    EXPECT_EQ(run.diagnostics.find("the kernel reads '"), std::string::npos) << run.diagnostics;
  }
  // A copy array updated in place from its neighbours (jacobi-1d, seidel) reads another chunk's
  // elements, and can have no halo; within the thread's own record it is fine.
  const InMemoryResult inPlace = runOnCode(
      kernel("offset(n)", "copyin(x[lo:hi]) copy(y[lo:hi])", "y[i] = y[i - 1] + x[i] + y[i];"));
  EXPECT_FALSE(inPlace.result.ok());
  EXPECT_NE(inPlace.diagnostics.find("the kernel reads 'y' (line"), std::string::npos)
      << inPlace.diagnostics;
  EXPECT_NE(inPlace.diagnostics.find("a copy array has no halo (those elements are another "
                                     "chunk's to write): read them from a copyin array with "
                                     "halo(y: 1, 0), and write the results to another array"),
            std::string::npos)
      << inPlace.diagnostics;
  for (const std::string& body :
       {std::string("y[i] = 2.0f * y[i] + x[i];"),
        std::string("float t = y[2 * i]; y[2 * i] = y[2 * i + 1]; y[2 * i + 1] = t + x[i];")}) {
    SCOPED_TRACE(body);
    const InMemoryResult run =
        runOnCode(kernel("offset(n)", "copyin(x[lo:hi]) copy(y[2 * lo : 2 * hi])", body));
    EXPECT_EQ(run.diagnostics.find("the kernel reads '"), std::string::npos) << run.diagnostics;
  }
}

// The same reads through a helper (a __device__ function given the array and the index, a lambda
// that captured them, a helper's helper) or a 2D array parameter's rows: the helper's accesses are
// the caller's arguments', reported at the kernel's call.
TEST(Diagnostics, AReadBesideTheWrittenElementThroughAHelperOrARowIsRefused) {
  const auto kernel = [](const std::string& helpers, const std::string& data,
                         const std::string& body) {
    return "#include <overlap/annotate.h>\n" + helpers +
           "OVERLAP_KERNEL(partition(n) offset(n) extent(x, y: n) " + data +
           "\n"
           "               launch(grid: ceil_div(len, 256), block: 256))\n"
           "__global__ void k(const float* x, float* y, int n) {\n"
           "  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
           "  if (i < n) { " +
           body + " }\n}\n";
  };
  const std::string lap =
      "__device__ float lap(const float* a, int k) { return a[k - 1] - 2.f * a[k] + a[k + 1]; }\n";
  const std::string at = "__device__ float at(const float* a, int k) { return a[k]; }\n";
  const std::string next = at + "__device__ float next(const float* a, int k) { return at(a, k + "
                                "1); }\n";
  const std::string step =
      "__device__ void step(const float* a, float* b, int k) { b[k] = a[k + 2]; }\n";
  const std::string plain = "copyin(x[lo:hi]) copyout(y[lo:hi])";
  const std::string code = kernel(lap, plain, "y[i] = lap(x, i);");
  const Position read = positionOf(code, "lap(x, i)");
  EXPECT_NE(runOnCode(code).diagnostics.find("the kernel reads 'x' (line " +
                                             std::to_string(read.line) + ", column " +
                                             std::to_string(read.column) + ") before the begin"),
            std::string::npos)
      << runOnCode(code).diagnostics;
  for (const auto& [helpers, body, message] :
       std::vector<std::tuple<std::string, std::string, std::string>>{
           {lap, "y[i] = lap(x, i);", "halo(x: 1, 1)"},
           {at, "y[i] = at(x + i, 1);", "halo(x: 0, 1)"},
           {at, "y[i] = at(&x[i - 2], 0);", "halo(x: 2, 0)"},
           {next, "y[i] = next(x, i);", "halo(x: 0, 1)"},
           {step, "step(x, y, i);", "halo(x: 0, 2)"},
           {"", "auto tap = [&](int k) { return x[i + k]; }; y[i] = tap(-1) + tap(1);",
            "halo(x: 1, 1)"},
       }) {
    SCOPED_TRACE(helpers + body);
    const InMemoryResult run = runOnCode(kernel(helpers, plain, body));
    EXPECT_FALSE(run.result.ok());
    EXPECT_NE(run.diagnostics.find("the kernel reads 'x'"), std::string::npos) << run.diagnostics;
    EXPECT_NE(run.diagnostics.find(message), std::string::npos) << run.diagnostics;
  }
  // With the halo; an index the check cannot read; a shared tile's halo loaded by the threads a
  // helper's tid parameter picks.
  const std::string clamp =
      "__device__ float at(const float* a, int k, int n) { return a[min(k, n - 1)]; }\n";
  const std::string load = "__device__ void load(float* t, const float* a, int tid, int k) {\n"
                           "  t[tid + 1] = a[k]; if (tid < 1) t[tid] = a[k - 1]; }\n";
  for (const auto& [helpers, data, body] :
       std::vector<std::tuple<std::string, std::string, std::string>>{
           {lap, "copyin(x[lo:hi]) halo(x: 1) copyout(y[lo:hi])", "y[i] = lap(x, i);"},
           {clamp, plain, "y[i] = at(x, i + 1, n);"},
           {load, "copyin(x[lo:hi]) copyout(y[lo:hi]) granule(256)",
            "__shared__ float t[257]; load(t, x, threadIdx.x, i); __syncthreads(); y[i] = "
            "t[threadIdx.x] + t[threadIdx.x + 1];"},
       }) {
    SCOPED_TRACE(helpers + body);
    const InMemoryResult run = runOnCode(kernel(helpers, data, body));
    EXPECT_TRUE(run.result.ok()) << run.diagnostics;
  }
  // PolyBench's 2D array parameters: A[i][j] is A's element i, a row.
  const auto rows = [](const std::string& data, const std::string& body) {
    return "#include <overlap/annotate.h>\n"
           "OVERLAP_KERNEL(partition(1 : 63) range(b, e) extent(A, B: 64) " +
           data +
           "\n"
           "               launch(grid: (2, ceil_div(len, 8)), block: (32, 8)))\n"
           "__global__ void k(const float (*A)[64], float (*B)[64], int b, int e) {\n"
           "  const int i = b + blockIdx.y * blockDim.y + threadIdx.y;\n"
           "  const int j = blockIdx.x * blockDim.x + threadIdx.x;\n"
           "  if (i < e && j >= 1 && j < 63) " +
           body + "\n}\n";
  };
  const std::string jacobi = "B[i][j] = A[i - 1][j] + A[i][j - 1] + A[i][j + 1] + A[i + 1][j];";
  const InMemoryResult narrow = runOnCode(rows("copyin(A[lo:hi]) copyout(B[lo:hi])", jacobi));
  EXPECT_NE(narrow.diagnostics.find("the kernel reads 'A'"), std::string::npos)
      << narrow.diagnostics;
  EXPECT_NE(narrow.diagnostics.find("halo(A: 1, 1)"), std::string::npos) << narrow.diagnostics;
  for (const auto& [data, body] : std::vector<std::pair<std::string, std::string>>{
           {"copyin(A[lo - 1 : hi + 1]) copyout(B[lo:hi])", jacobi},
           {"copyin(A[lo:hi]) copyout(B[lo:hi])", "B[i][j] = A[i][j - 1] + A[i][j + 1];"}}) {
    SCOPED_TRACE(data + " " + body);
    const InMemoryResult run = runOnCode(rows(data, body));
    EXPECT_TRUE(run.result.ok()) << run.diagnostics;
  }
}

TEST(Diagnostics, AReadWhoseRowsLieAnotherPitchThanItsSectionIsRefused) {
  // PolyBench's gemm with a's rows given c's pitch: each chunk would read other rows of a.
  const auto gemm = [](const std::string& mode, const std::string& data) {
    return "#include <overlap/annotate.h>\n"
           "#define NJ 1024\n"
           "#define NK 512\n"
           "OVERLAP_KERNEL(partition(ni) " +
           mode + " extent(a: ni * NK) extent(b: NK * NJ) extent(c: ni * NJ) " + data +
           "\n"
           "               launch(grid: (NJ / 32, ceil_div(len, 8)), block: (32, 8)))\n"
           "__global__ void k(const float* a, const float* b, float* c, int ni, int lo_, int hi_) "
           "{\n"
           "  const int j = blockIdx.x * blockDim.x + threadIdx.x;\n"
           "  const int i = " +
           (mode == "offset(ni)" ? std::string() : "lo_ + ") +
           "blockIdx.y * blockDim.y + threadIdx.y;\n"
           "  if (i >= " +
           (mode == "offset(ni)" ? "ni" : "hi_") +
           ") return;\n"
           "  float s = 0;\n"
           "  for (int k = 0; k < NK; ++k) s += a[i * NK + k] * b[k * NJ + j];\n"
           "  c[i * NJ + j] = s;\n"
           "}\n";
  };
  const std::string wrong = "copyin(a[lo * NJ : hi * NJ], b) copyout(c[lo * NJ : hi * NJ])";
  for (const std::string& mode : {std::string("offset(ni)"), std::string("range(lo_, hi_)")}) {
    SCOPED_TRACE(mode);
    const std::string code = gemm(mode, wrong);
    const Position read = positionOf(code, "a[i * NK + k]");
    const Position write = positionOf(code, "c[i * NJ + j]");
    expectFirstDiagnostic(
        code, "a[lo * NJ",
        "the kernel reads 'a' (line " + std::to_string(read.line) + ", column " +
            std::to_string(read.column) +
            ") 512 elements further on for each unit of the partition, beside where it writes 'c' "
            "(line " +
            std::to_string(write.line) + ", column " + std::to_string(write.column) +
            "), but the section of 'a' moves 1024 per unit: each chunk would read rows that are "
            "not its own; give 'a' a section that moves as far per unit as its rows lie apart, as "
            "[lo * 512 : hi * 512]");
    const InMemoryResult run =
        runOnCode(gemm(mode, "copyin(a[lo * NK : hi * NK], b) copyout(c[lo * NJ : hi * NJ])"));
    EXPECT_TRUE(run.result.ok()) << run.diagnostics;
  }

  // Rows of parameters' lengths: refused where some values of them tell the pitches apart.
  const auto rows = [](const std::string& data, const std::string& body) {
    return "#include <overlap/annotate.h>\n"
           "OVERLAP_KERNEL(partition(n) offset(n) extent(x: n * 2 * d) extent(y: n * d) " +
           data +
           "\n"
           "               launch(grid: len, block: 32))\n"
           "__global__ void k(const float* x, float* y, int n, int d) {\n"
           "  const int r = blockIdx.x;\n"
           "  for (int c = threadIdx.x; c < d; c += blockDim.x) " +
           body + "\n}\n";
  };
  const std::string silu = "y[r * d + c] = x[r * 2 * d + c] * x[r * 2 * d + d + c];";
  const std::string transpose = "y[r * d + c] = x[c * 4099 + r];";
  for (const auto& [data, body, message] :
       std::vector<std::tuple<std::string, std::string, std::string>>{
           {"copyin(x[lo * d : hi * d]) copyout(y[lo * d : hi * d])", silu,
            "as [lo * 2 * d : hi * 2 * d]"},
           // A pitch only the scale of a thread term names.
           {"copyin(x[lo:hi]) copyout(y[lo * d : hi * d])", "y[r * d + c] = x[r * d + c];",
            "as [lo * d : hi * d]"},
           {"copyin(x[lo * d : hi * d]) copyout(y[lo * d : hi * d])", transpose,
            "1 element further on for each unit of the partition"},
       }) {
    SCOPED_TRACE(data + " " + body);
    const InMemoryResult run = runOnCode(rows(data, body));
    EXPECT_FALSE(run.result.ok());
    EXPECT_NE(run.diagnostics.find(message), std::string::npos) << run.diagnostics;
  }
  // The right pitch; a read at another scale (decimation, a reversal).
  const InMemoryResult silu2 =
      runOnCode(rows("copyin(x[lo * 2 * d : hi * 2 * d]) copyout(y[lo * d : hi * d])", silu));
  EXPECT_TRUE(silu2.result.ok()) << silu2.diagnostics;
  const auto scaled = [](const std::string& data, const std::string& body) {
    return "#include <overlap/annotate.h>\n"
           "OVERLAP_KERNEL(partition(n) range(b, e) extent(x: 2 * n + 2) extent(y: n) " +
           data +
           "\n"
           "               launch(grid: ceil_div(len, 256), block: 256))\n"
           "__global__ void k(const float* x, float* y, int n, int b, int e) {\n"
           "  const int i = b + blockIdx.x * blockDim.x + threadIdx.x;\n"
           "  if (i < e) " +
           body + "\n}\n";
  };
  for (const auto& [data, body] : std::vector<std::pair<std::string, std::string>>{
           {"copyin(x[2 * lo : 2 * hi]) copyout(y[lo:hi])", "y[i] = x[2 * i] + x[2 * i + 1];"},
           {"copyin(x[n - hi : n - lo]) copyout(y[lo:hi])", "y[i] = x[n - 1 - i];"},
       }) {
    SCOPED_TRACE(data + " " + body);
    const InMemoryResult run = runOnCode(scaled(data, body));
    EXPECT_TRUE(run.result.ok()) << run.diagnostics;
  }
}

// A one-element result the blocks atomicAdd into, named as a plain copy: the remedy is reduce.
TEST(Diagnostics, AWholeOutputUpdatedOnlyAtomicallyIsPointedToReduce) {
  const std::string code = R"(#include <overlap/annotate.h>
OVERLAP_KERNEL(partition(n) offset(n) extent(a: n) extent(result: 1)
               copyin(a[lo:hi]) copy(result) launch(grid: ceil_div(len, 256), block: 256))
__global__ void total(const float* a, float* result, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(result, a[i]);
}
)";
  const Position update = positionOf(code, "atomicAdd(result");
  expectFirstDiagnostic(code, "result) launch",
                        "the kernel only updates it atomically (line " +
                            std::to_string(update.line) + ", column " +
                            std::to_string(update.column) +
                            "): if the chunks accumulate into it, say so with reduce(+: result)");
}

// A transpose chunked along the rows it reads writes columns of its output, across every other
// chunk's rows: refused from the write alone (a thread term of another dimension than the
// partition's steps whole rows; in range mode also the begin's step against the section's), and
// beside a chunked input where the term is a loop's variable. Rows written two at a time,
// column-major chunks, planes of a volume, a grid folded into y, blocks flattened by hand and a
// grid-stride loop stay in their sections.
TEST(Diagnostics, AWriteThatCrossesOtherChunksRowsIsRefused) {
  const auto transpose = [](const std::string& mode, const std::string& data) {
    const bool range = mode != "offset(n)";
    return "#include <overlap/annotate.h>\n"
           "OVERLAP_KERNEL(partition(rows) " +
           mode + " extent(in, out: rows * cols) " + data +
           "\n"
           "               launch(grid: (ceil_div(cols, 16), ceil_div(len, 16)), block: (16, "
           "16)))\n"
           "__global__ void k(const float* in, float* out, int rows, int cols, int n, int b, int "
           "e) "
           "{\n"
           "  const int c = blockIdx.x * blockDim.x + threadIdx.x;\n"
           "  const int r = " +
           (range ? "b + " : "") + "blockIdx.y * blockDim.y + threadIdx.y;\n" +
           "  if (c < cols && r < " + (range ? "e" : "n") +
           ") out[c * rows + r] = in[r * cols + c];\n"
           "}\n";
  };
  const std::string rowsOfIn = "copyin(in[lo * cols : hi * cols]) ";
  // Judged from the write alone: threadIdx.x steps whole rows of out, the partition's rows are y's.
  for (const std::string& mode : {std::string("offset(n)"), std::string("range(b, e)")}) {
    SCOPED_TRACE(mode);
    const std::string code = transpose(mode, rowsOfIn + "copyout(out[lo:hi])");
    const Position write = positionOf(code, "out[c * rows + r]");
    expectFirstDiagnostic(
        code, "out[lo:hi]",
        "the kernel writes 'out' (line " + std::to_string(write.line) + ", column " +
            std::to_string(write.column) +
            ") 64 elements further on for each step of threadIdx.x, another dimension than the "
            "partition's, which crosses whole rows of its section (which moves 1 per unit) (at "
            "rows = 64): each chunk would write rows of 'out' that other chunks' sections hold");
  }
  // A loop's variable has no dimension: judged beside the read, which moves within a row of in.
  const std::string loop = R"(#include <overlap/annotate.h>
OVERLAP_KERNEL(partition(rows) offset(n) extent(in, out: rows * cols)
               copyin(in[lo * cols : hi * cols]) copyout(out[lo:hi])
               launch(grid: ceil_div(len, 256), block: 256))
__global__ void k(const float* in, float* out, int rows, int cols, int n) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < n)
    for (int c = 0; c < cols; ++c) out[c * rows + r] = in[r * cols + c];
}
)";
  const Position read = positionOf(loop, "in[r * cols + c]");
  const Position write = positionOf(loop, "out[c * rows + r]");
  expectFirstDiagnostic(loop, "out[lo:hi]",
                        "the kernel writes 'out' (line " + std::to_string(write.line) +
                            ", column " + std::to_string(write.column) +
                            ") 64 elements further on for each step of c, whole rows of its "
                            "section (which moves 1 per unit of the partition), where it reads "
                            "'in' (line " +
                            std::to_string(read.line) + ", column " + std::to_string(read.column) +
                            ") 1 element further on, within a row of its section (which moves "
                            "64) (at rows = 64, cols = 64): each chunk would write rows of 'out' "
                            "that other chunks' sections hold");
  // darknet's scale_bias chunked over filters, its output batch-major: blockIdx.z steps n rows.
  const std::string batchMajor = R"(#include <overlap/annotate.h>
OVERLAP_KERNEL(param(int batch) partition(n) offset extent(output: batch * n * size)
               copy(output[lo * size : hi * size])
               launch(grid: (ceil_div(size, 512), len, BATCHES), block: 512))
__global__ void scale_bias(float* output, int n, int size) {
  const int offset = blockIdx.x * blockDim.x + threadIdx.x;
  if (offset < size) output[(blockIdx.z * n + blockIdx.y) * size + offset] *= 2.0f;
}
)";
  // Offset mode: the step of the write's term in the partition's blocks, times the grid's blocks
  // per unit, short of the section's (glu's rows half as long as the section's). A longer one may
  // be the kernel's guard's to trim (a grid of len blocks of 512 threads, float4 writes of len
  // threads under if (4 * i + 3 < n)), so it is not judged.
  const auto offsetPitch = [](const std::string& data, const std::string& launch,
                              const std::string& body) {
    return "#include <overlap/annotate.h>\n"
           "OVERLAP_KERNEL(partition(rows) offset(rows) extent(x: rows * w) extent(y: rows * 2 * "
           "w) " +
           data + " launch(" + launch +
           "))\n"
           "__global__ void k(const float* x, float* y, int rows, int w) {\n"
           "  const int r = blockIdx.y, c = blockIdx.x * blockDim.x + threadIdx.x;\n"
           "  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
           "  " +
           body + "\n}\n";
  };
  for (const auto& [data, launch, body, message] :
       std::vector<std::tuple<std::string, std::string, std::string, std::string>>{
           {"copyin(x[lo * w : hi * w]) copyout(y[lo * 2 * w : hi * 2 * w])",
            "grid: (ceil_div(w, 256), len), block: 256",
            "if (r < rows && c < w) y[r * w + c] = x[r * w + c];",
            "64 elements further on for each unit of the partition (the step of blockIdx.y in its "
            "index, times the grid's blocks per unit), but the section of 'y' moves 128 per unit "
            "(at w = 64)"},
       }) {
    SCOPED_TRACE(data + " " + body);
    const InMemoryResult run = runOnCode(offsetPitch(data, launch, body));
    EXPECT_FALSE(run.result.ok());
    EXPECT_NE(run.diagnostics.find(message), std::string::npos) << run.diagnostics;
  }
  // The right sections; threads of two rows or two elements, each grid covering the chunk.
  for (const auto& [data, launch, body] :
       std::vector<std::tuple<std::string, std::string, std::string>>{
           {"copyin(x[lo * w : hi * w]) copyout(y[lo * w : hi * w])",
            "grid: (ceil_div(w, 256), len), block: 256",
            "if (r < rows && c < w) y[r * w + c] = x[r * w + c];"},
           {"copyin(x[2 * lo : 2 * hi]) copyout(y[2 * lo : 2 * hi])",
            "grid: ceil_div(len, 256), block: 256",
            "if (i < rows) { y[2 * i] = x[2 * i]; y[2 * i + 1] = -x[2 * i + 1]; }"},
           {"granule(2) copyin(x[lo * w : hi * w]) copyout(y[lo * w : hi * w])",
            "grid: (ceil_div(w, 256), len / 2), block: 256",
            "for (int k = 0; k < 2; ++k) y[(2 * r + k) * w + c] = x[(2 * r + k) * w + c];"},
       }) {
    SCOPED_TRACE(data + " " + body);
    const InMemoryResult run = runOnCode(offsetPitch(data, launch, body));
    EXPECT_TRUE(run.result.ok()) << run.diagnostics;
  }
  // A constant pitch that the caller's values give the section too: ggml's soft_max_f32 with
  // ncols_template = 1024, whose callers pass ncols = 1024; a pitch of 1 is no such value.
  const std::string softmax = R"(#include <overlap/annotate.h>
OVERLAP_KERNEL(param(int rows) partition(rows) offset extent(x, y: rows * ncols)
               copyin(x[lo * ncols : hi * ncols]) copyout(y[lo * ncols : hi * ncols])
               launch(grid: len, block: 32))
__global__ void rows1024(const float* x, float* y, int ncols) {
  for (int c = threadIdx.x; c < 1024; c += blockDim.x)
    y[blockIdx.x * 1024 + c] = 2 * x[blockIdx.x * 1024 + c];
}
)";
  const InMemoryResult fixed = runOnCode(softmax);
  EXPECT_TRUE(fixed.result.ok()) << fixed.diagnostics;

  // A z-major volume chunked along y: blockIdx.z steps whole planes, whatever the block's width
  // (at nx = 64 a block of 64 steps one row, as the partition's own term does).
  const std::string zMajor = R"(#include <overlap/annotate.h>
OVERLAP_KERNEL(param(int ny) partition(ny) range(y0, y1) extent(out: nz * ny * nx)
               copyout(out[lo * nx : hi * nx])
               launch(grid: (ceil_div(nx, 64), len, nz), block: 64))
__global__ void vscale(float* out, int nz, int nyStride, int nx, int y0, int y1) {
  const int x = blockIdx.x * 64 + threadIdx.x;
  const int y = y0 + blockIdx.y, z = blockIdx.z;
  if (x < nx && y < y1) out[(z * nyStride + y) * nx + x] = 3.f;
}
)";
  const InMemoryResult volume = runOnCode(zMajor);
  EXPECT_FALSE(volume.result.ok());
  EXPECT_NE(volume.diagnostics.find("for each step of blockIdx.z, another dimension"),
            std::string::npos)
      << volume.diagnostics;
  for (const std::string& batches : {std::string("batch"), std::string("1")}) {
    SCOPED_TRACE(batches);
    std::string code = batchMajor;
    code.replace(code.find("BATCHES"), 7, batches);
    const InMemoryResult run = runOnCode(code);
    // One block along z has no batch to step over.
    EXPECT_EQ(run.result.ok(), batches == "1") << run.diagnostics;
    if (batches == "batch") {
      EXPECT_NE(run.diagnostics.find("for each step of blockIdx.z, another dimension"),
                std::string::npos)
          << run.diagnostics;
    }
  }
  // Range mode judges the write alone: rows of out for a transpose's columns, whatever the input.
  for (const std::string& data :
       {rowsOfIn + "copyout(out[lo * cols : hi * cols])",
        std::string("copyin(in) copyout(out[lo * cols : hi * cols])"),
        std::string("copyin(in[lo:hi]) copyout(out[lo * cols : hi * cols])")}) {
    SCOPED_TRACE(data);
    expectFirstDiagnostic(transpose("range(b, e)", data), "out[lo",
                          "1 element further on for each unit of the partition (the step of 'b' "
                          "in its index), but the section of 'out' moves 64 per unit");
  }
  const InMemoryResult whole =
      runOnCode(transpose("range(b, e)", "copyin(in) copyout(out[lo:hi])"));
  EXPECT_FALSE(whole.result.ok());
  EXPECT_NE(whole.diagnostics.find("another dimension than the partition's"), std::string::npos)
      << whole.diagnostics;

  const std::string accepted = R"(#include <overlap/annotate.h>
OVERLAP_KERNEL(partition(rows) range(b, e) granule(2) extent(in, out: rows * w)
               copyin(in[lo * w : hi * w]) copyout(out[lo * w : hi * w])
               launch(grid: (ceil_div(w, 32), ceil_div(len, 16)), block: (32, 8)))
__global__ void twoRows(const float* in, float* out, int rows, int w, int b, int e) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = b + 2 * (blockIdx.y * blockDim.y + threadIdx.y);
  if (c >= w || r >= e) return;
  out[r * w + c] = 2 * in[r * w + c];
  if (r + 1 < e) out[(r + 1) * w + c] = 2 * in[(r + 1) * w + c];
}
OVERLAP_KERNEL(partition(d) range(zb, ze) extent(in, out: d * h * w)
               copyin(in[lo * h * w : hi * h * w]) copyout(out[lo * h * w : hi * h * w])
               launch(grid: (ceil_div(w, 8), ceil_div(h, 8), ceil_div(len, 4)), block: (8, 8, 4)))
__global__ void volume(const float* in, float* out, int d, int h, int w, int zb, int ze) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = zb + blockIdx.z * blockDim.z + threadIdx.z;
  if (x < w && y < h && z < ze) out[(z * h + y) * w + x] = in[(z * h + y) * w + x] + 1.0f;
}
OVERLAP_KERNEL(partition(cols) range(cb, ce) extent(in, out: rows * cols)
               copyin(in[lo * rows : hi * rows]) copyout(out[lo * rows : hi * rows])
               launch(grid: (ceil_div(len, 16), ceil_div(rows, 16)), block: (16, 16)))
__global__ void columnMajor(const float* in, float* out, int rows, int cols, int cb, int ce) {
  int c = cb + blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (c < ce && r < rows) out[c * rows + r] = in[c * rows + r] * 3.0f;
}
OVERLAP_KERNEL(partition(n) offset(n) extent(x, y: n) copyin(x[lo:hi]) copyout(y[lo:hi])
               launch(grid: (min(ceil_div(len, 256), 65535), ceil_div(ceil_div(len, 256), 65535)),
                      block: 256))
__global__ void folded(const float* x, float* y, int n) {
  const int i = (blockIdx.y * 65535 + blockIdx.x) * 256 + threadIdx.x;
  if (i < n) y[i] = 2 * x[i];
}
OVERLAP_KERNEL(partition(n) offset(n) extent(x, y: n) copyin(x[lo:hi]) copyout(y[lo:hi])
               launch(grid: ceil_div(len, 64), block: (32, 2)))
__global__ void flattened(const float* x, float* y, int n) {
  const int i = blockIdx.x * 64 + threadIdx.y * 32 + threadIdx.x;
  if (i < n) y[i] = x[i];
}
OVERLAP_KERNEL(partition(n) offset(n) extent(x, y: n) copyin(x[lo:hi]) copyout(y[lo:hi])
               launch(grid: (ceil_div(len, 64), 2), block: 32))
__global__ void innerY(const float* x, float* y, int n) {
  const int i = (blockIdx.x * 2 + blockIdx.y) * 32 + threadIdx.x;
  if (i < n) y[i] = x[i];
}
OVERLAP_KERNEL(partition(n) range(b, e) extent(x, y: n) copyin(x[lo:hi]) copy(y[lo:hi])
               launch(gridstride, block: 256))
__global__ void saxpy(const float* x, float* y, int n, float a, int b, int e) {
  for (int i = b + blockIdx.x * blockDim.x + threadIdx.x; i < e; i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i];
}
)";
  const InMemoryResult run = runOnCode(accepted);
  EXPECT_TRUE(run.result.ok()) << run.diagnostics;
}

// The user's own baseline named as a generated entry point would make nvcc fail on the generated
// source: the generator refuses it at the annotation, with a note at the declaration.
TEST(Diagnostics, AUserDeclarationOfAGeneratedNameIsRefused) {
  for (const std::string& taken :
       {std::string("void saxpy_explicit(int n, float a, const float* x, float* y) {}\n"),
        std::string("struct saxpy_binding {};\n"), std::string("int saxpy_tuned_async = 0;\n"),
        std::string("#define saxpy_mapped(...) 0\n")}) {
    std::string code = Saxpy().str();
    code.insert(code.find('\n') + 1, taken);
    SCOPED_TRACE(taken);
    expectFirstDiagnostic(code, "OVERLAP_KERNEL",
                          "is declared in this file, and Overlap generates a declaration of that "
                          "name for this kernel");
  }
  std::string elsewhere = Saxpy().str(); // another namespace's function of that name is no clash
  elsewhere.insert(elsewhere.find('\n') + 1, "namespace other { void saxpy_explicit() {} }\n");
  const InMemoryResult run = runOnCode(elsewhere);
  EXPECT_TRUE(run.result.ok()) << run.diagnostics;
}

// Every name the generated code derives from the kernel's (saxpy_...) is one the check above
// knows: a new one the emitter adds without listing it would clash with a user's silently.
TEST(Diagnostics, EveryGeneratedNameIsOneTheClashCheckKnows) {
  const InMemoryResult run = runOnCode(Saxpy().str());
  ASSERT_TRUE(run.result.ok()) << run.diagnostics;
  const std::vector<std::string>& known = emit::generatedNameSuffixes();
  std::set<std::string> seen;
  for (const std::string* text : {&run.result.files->header, &run.result.files->source}) {
    const std::regex name("\\bsaxpy(_[A-Za-z0-9_]+)");
    for (auto it = std::sregex_iterator(text->begin(), text->end(), name);
         it != std::sregex_iterator(); ++it)
      seen.insert((*it)[1]);
  }
  EXPECT_GE(seen.size(), 10u);
  for (const std::string& suffix : seen)
    EXPECT_NE(std::find(known.begin(), known.end(), suffix), known.end()) << "saxpy" << suffix;
}

TEST(Diagnostics, AReducedArrayIsUpdatedAtomicallyOnly) {
  // Every chunk updates s in place: a store would overwrite what the chunks before it added.
  const auto kernel = [](const std::string& helpers, const std::string& update) {
    return "#include <overlap/annotate.h>\n" + helpers +
           "OVERLAP_KERNEL(partition(n) offset(n) extent(x: n, s: 1) copyin(x[lo:hi])\n"
           "               reduce(+: s) launch(grid: ceil_div(len, 256), block: 256))\n"
           "__global__ void k(const float* x, float* s, int n) {\n"
           "  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
           "  const float v = i < n ? x[i] : 0.0f;\n"
           "  " +
           update + "\n}\n";
  };
  const std::string adds = "__device__ void add(float* p, float v) { atomicAdd(p, v); }\n";
  const std::string puts = "__device__ void put(float* p, float v) { *p = v; }\n";
  for (const auto& [helpers, update] : std::vector<std::pair<std::string, std::string>>{
           {"", "*s = v;"},
           {"", "s[0] += v;"},
           {"", "atomicExch(s, v);"},
           {puts, "put(s, v);"},
           {"", "asm volatile(\"st.global.f32 [%0], %1;\" :: \"l\"(s), \"f\"(v));"}}) {
    SCOPED_TRACE(update);
    expectFirstDiagnostic(kernel(helpers, update), "s) launch",
                          "the kernel stores to 's' other than by an atomic update (line ");
  }
  for (const auto& [helpers, update] : std::vector<std::pair<std::string, std::string>>{
           {"", "atomicAdd(s, v);"},
           {adds, "add(s, v);"},
           {"", "asm volatile(\"red.global.add.f32 [%0], %1;\" :: \"l\"(s), \"f\"(v));"}}) {
    SCOPED_TRACE(update);
    const InMemoryResult run = runOnCode(kernel(helpers, update));
    EXPECT_TRUE(run.result.ok()) << run.diagnostics;
  }
}

// Offset mode passes each chunked array from its section's begin: an index that adds a parameter
// bound from the chunk counts the begin twice. A value for other uses (a seed's position), or an
// index into a whole array, which starts where the caller's does, is fine.
TEST(Diagnostics, AnOffsetModeIndexByAParameterBoundFromTheChunkIsRefused) {
  const auto kernel = [](const std::string& data, const std::string& body) {
    return "#include <overlap/annotate.h>\n"
           "OVERLAP_KERNEL(partition(n) offset(n) bind(b = lo) extent(x, y: n) extent(t: 64) " +
           data +
           "\n"
           "               launch(grid: ceil_div(len, 256), block: 256))\n"
           "__global__ void k(const float* x, const float* t, float* y, int n, int b) {\n"
           "  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
           "  if (i < n) " +
           body + "\n}\n";
  };
  const std::string code =
      kernel("copyin(x[lo:hi], t) copyout(y[lo:hi])", "y[b + i] = x[b + i] + t[0];");
  const Position at = positionOf(code, "x[b + i]");
  expectFirstDiagnostic(code, "b = lo",
                        "the kernel indexes 'x' with 'b' (line " + std::to_string(at.line) +
                            ", column " + std::to_string(at.column) +
                            "), which bind sets from the chunk, but offset mode passes each array "
                            "from its section's begin: the chunk's begin would count twice; index "
                            "the arrays from 0 in offset mode, or use range mode");
  for (const std::string& body :
       {std::string("y[i] = x[i] * (float)(b + i);"), std::string("y[i] = x[i] + t[(b + i) % 64];"),
        std::string("y[i] = x[i] + t[b & 63];")}) {
    SCOPED_TRACE(body);
    const InMemoryResult run = runOnCode(kernel("copyin(x[lo:hi], t) copyout(y[lo:hi])", body));
    EXPECT_TRUE(run.result.ok()) << run.diagnostics;
  }
}

TEST(Diagnostics, ANameClauseNamesAKernelThatIsNotATemplateOnce) {
  const std::string body = "(int n, const float* x, float* y) {\n"
                           "  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                           "  if (i < n) y[i] = x[i];\n"
                           "}\n";
  const std::string annotation = "#include <overlap/annotate.h>\n"
                                 "OVERLAP_KERNEL(partition(n) offset(n) extent(x, y: n) "
                                 "copyin(x[lo:hi]) copyout(y[lo:hi])\n"
                                 "               launch(grid: ceil_div(len, 256), block: 256) ";
  expectFirstDiagnostic(annotation + "name(a) name(b))\n__global__ void k" + body, "name(b)",
                        "the entry points are already named 'a'; keep one name(...)");
  expectFirstDiagnostic(annotation + "instantiate(T = float) name(a))\ntemplate <class T>\n"
                                     "__global__ void k(int n, const T* x, T* y) {}\n",
                        "name(a)",
                        "kernel 'k' is a template; name each instantiation's entry points with "
                        "instantiate(NAME: ...)");
  // Overloads: the second needs a name of its own.
  const std::string overloads = annotation + ")\n__global__ void k" + body + annotation +
                                ")\n__global__ void k(int n, const double* x, double* y) {}\n";
  const InMemoryResult run = runOnCode(overloads);
  EXPECT_FALSE(run.result.ok());
  EXPECT_NE(run.diagnostics.find("give each annotated kernel its own name, with name(NAME)"),
            std::string::npos)
      << run.diagnostics;
}

TEST(Diagnostics, ARangeKernelThatNeverReadsItsBeginIsRefused) {
  // Every chunk would compute rows [0, len) again: the chunk's begin is what places it.
  const auto kernel = [](const std::string& index) {
    return "#include <overlap/annotate.h>\n"
           "OVERLAP_KERNEL(partition(n) range(row_begin, row_end) extent(x, y: n)\n"
           "               copyin(x[lo:hi]) copyout(y[lo:hi])\n"
           "               launch(grid: ceil_div(len, 256), block: 256))\n"
           "__global__ void k(const float* x, float* y, int n, int row_begin, int row_end) {\n"
           "  const int i = " +
           index +
           ";\n"
           "  if (i < row_end) y[i] = 2.0f * x[i];\n"
           "}\n";
  };
  expectFirstDiagnostic(kernel("blockIdx.x * blockDim.x + threadIdx.x"), "row_begin, row_end",
                        "kernel 'k' never reads 'row_begin', so every chunk's kernel would work "
                        "as if its chunk began where the first does");
  const InMemoryResult run = runOnCode(kernel("row_begin + blockIdx.x * blockDim.x + threadIdx.x"));
  EXPECT_TRUE(run.result.ok()) << run.diagnostics;
}

TEST(Diagnostics, ANonConstArrayTheKernelOnlyReadsMayBeCopiedIn) {
  const std::string code = "#include <overlap/annotate.h>\n"
                           "OVERLAP_KERNEL(partition(n) offset(n) extent(x, y: n)\n"
                           "               copyin(x[lo:hi]) copyout(y[lo:hi])\n"
                           "               launch(grid: ceil_div(len, 256), block: 256))\n"
                           "__global__ void k(float* x, float* y, int n) {\n"
                           "  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                           "  float local[2] = {0.0f, 0.0f};\n"
                           "  if (i < n) { local[0] = x[i]; y[i] = local[0] + x[i]; }\n"
                           "}\n";
  const InMemoryResult run = runOnCode(code);
  EXPECT_TRUE(run.result.ok()) << run.diagnostics;
}

TEST(Diagnostics, AnArrayOnlyIndexingOrReadByAHelperMayBeCopiedIn) {
  // x indexes the written array, a helper, a local struct, a local array and inline PTX read it:
  // none writes x.
  const std::string code =
      "#include <overlap/annotate.h>\n"
      "__device__ float twice(float* p) { return 2.0f * p[0]; }\n"
      "__device__ void put(float* out, float v) { out[0] = v; }\n"
      "struct View { int* p; };\n"
      "OVERLAP_KERNEL(partition(n) offset(n) extent(x, y: n)\n"
      "               copyin(x[lo:hi]) copy(y[lo:hi])\n"
      "               launch(grid: ceil_div(len, 256), block: 256))\n"
      "__global__ void k(int* x, float* y, int n) {\n"
      "  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  if (i >= n) return;\n"
      "  float* row = y + x[i] % (i + 1);\n"
      "  int* index = x + i;\n"
      "  int* inputs[1] = {x};\n"
      "  View view{x};\n"
      "  int loaded = 0;\n"
      "  asm(\"ld.global.nc.s32 %0, [%1];\" : \"=r\"(loaded) : \"l\"(x + i));\n"
      "  put(row, twice(y + i) + static_cast<float>(*index + inputs[0][i] +\n"
      "                                             view.p[i] + loaded));\n"
      "}\n";
  const InMemoryResult run = runOnCode(code);
  EXPECT_TRUE(run.result.ok()) << run.diagnostics;
}

TEST(Diagnostics, AStructHoldingPointersPassedByValue) {
  Saxpy kernel;
  const std::string structs = "struct Inner { int count; const float* values; };\n"
                              "struct Arrays { float scale; Inner inner[2]; };\n";
  kernel.signature = "__global__ void saxpy(int n, float a, const float* x, float* y, Arrays "
                     "arrays)";
  expectFirstDiagnostic(structs + kernel.str(), "arrays)",
                        "parameter 'arrays' passes 'Arrays' by value, which holds a pointer "
                        "('Inner::values')");
  // Values alone pass by value as ever.
  kernel.signature = "__global__ void saxpy(int n, float a, const float* x, float* y, Inner "
                     "unused, float3 v)";
  const std::string plain = "struct Inner { int count; float values[4]; };\n" + kernel.str();
  const InMemoryResult run = runOnCode(plain);
  EXPECT_TRUE(run.result.ok()) << run.diagnostics;
}

TEST(Diagnostics, AFunctionPointerParameter) {
  Saxpy kernel;
  kernel.signature =
      "__global__ void saxpy(int n, float a, const float* x, float* y, float (*op)(float))";
  expectFirstDiagnostic(kernel.str(), "op)(float)",
                        "parameter 'op' is a pointer to a function, which the variants cannot "
                        "pass");
}

TEST(Diagnostics, AFloatingPointConstantOfTheFile) {
  Saxpy kernel;
  kernel.extents = "extent(x: n) extent(y: n * UPSAMPLE)";
  expectFirstDiagnostic("#define UPSAMPLE 1.5\n" + kernel.str(), "UPSAMPLE)",
                        "'UPSAMPLE' is a floating-point value (double); annotation expressions "
                        "compute with integers");
  // An integer constant the file computes from one is fine.
  EXPECT_TRUE(runOnCode("#define UPSAMPLE ((int)2.0)\n" + kernel.str()).result.ok());
}

TEST(Diagnostics, NamesOfTheFileThatAreNoConstants) {
  Saxpy kernel;
  kernel.launch = "launch(grid: ceil_div(len, 256), block: g_block)";
  expectFirstDiagnostic("int g_block = 256;\n" + kernel.str(), "g_block)",
                        "'g_block' is a variable, which a call may change");
  kernel.launch = "launch(grid: ceil_div(len, blockDim), block: 256)";
  expectFirstDiagnostic(kernel.str(), "blockDim)",
                        "'blockDim' is a CUDA built-in variable of the device");
  kernel.launch = "launch(grid: ceil_div(len, 256), block: kBlocks)";
  expectFirstDiagnostic("const int kBlocks[2] = {256, 128};\n" + kernel.str(), "kBlocks)",
                        "'kBlocks' is a 'const int[2]', not an integer constant");
  // A const variable is a constant.
  kernel.launch = "launch(grid: ceil_div(len, 256), block: kBlock)";
  const InMemoryResult run = runOnCode("const int kBlock = 256;\n" + kernel.str());
  EXPECT_TRUE(run.result.ok()) << run.diagnostics;
  // Once for the annotation, with its caret, however many instantiations share it.
  const std::string templated =
      "#include <overlap/annotate.h>\n"
      "OVERLAP_KERNEL(partition(n) offset(n) extent(y: n) copy(y[lo:hi])\n"
      "               launch(grid: len, block: min(blockDim, 1024))\n"
      "               instantiate(T = float) instantiate(T = double))\n"
      "template <class T> __global__ void k(T* y, int n) {}\n";
  const InMemoryResult twice = runOnCode(templated);
  EXPECT_FALSE(twice.result.ok());
  const std::vector<PrintedDiagnostic> printed = parseDiagnostics(twice.diagnostics);
  ASSERT_EQ(printed.size(), 1u) << twice.diagnostics;
  EXPECT_NE(printed[0].header.find("'blockDim' is a CUDA built-in variable"), std::string::npos);
  EXPECT_NE(printed[0].caretColumn, 0u) << twice.diagnostics;
}

TEST(Diagnostics, PointerWithoutDirectionPointsAtTheAnnotation) {
  Saxpy kernel;
  kernel.extents = "extent(y: n)";
  kernel.data = "copy(y[lo:hi])";
  // The finding has no offending text of its own: it is placed at the annotation's start.
  const InMemoryResult run = runOnCode(kernel.str());
  EXPECT_FALSE(run.result.ok());
  EXPECT_NE(run.diagnostics.find("pointer parameter 'x' has no direction"), std::string::npos)
      << run.diagnostics;
  const std::vector<PrintedDiagnostic> printed = parseDiagnostics(run.diagnostics);
  ASSERT_FALSE(printed.empty());
  const Position annotationStart = positionOf(kernel.str(), "partition(");
  EXPECT_EQ(
      printed.front().header.rfind("input.cu:" + std::to_string(annotationStart.line) + ":", 0), 0u)
      << run.diagnostics;
}

TEST(Diagnostics, TemplateKernelWithoutInstantiationsIsReportedAtItsAnnotation) {
  const std::string code = "#include <overlap/annotate.h>\n"
                           "template <class T>\n"
                           "OVERLAP_KERNEL(partition(n) offset(n) extent(y: n) copy(y[lo:hi])\n"
                           "               launch(grid: len, block: 1))\n"
                           "__global__ void twice(int n, T* y) {}\n";
  expectFirstDiagnostic(code, "OVERLAP_KERNEL",
                        "kernel 'twice' is a template; list the instantiations to generate for "
                        "with instantiate(T = ..., ...)");
}

TEST(Diagnostics, InstantiateNamesAnUnknownTemplateParameter) {
  const std::string code = "#include <overlap/annotate.h>\n"
                           "OVERLAP_KERNEL(partition(n) offset(n) extent(y: n) copy(y[lo:hi])\n"
                           "               launch(grid: len, block: 1) instantiate(U = float))\n"
                           "template <class T>\n"
                           "__global__ void twice(int n, T* y) {}\n";
  expectFirstDiagnostic(code, "U = float", "'U' is not a template parameter of kernel 'twice'");
}

// One template's wrong instantiate(...) is its own error: the next template's instantiations are
// still made (they were not, and it got an internal error of its own).
TEST(Diagnostics, AWrongInstantiateLeavesTheOtherTemplatesAlone) {
  const std::string twice = "template <class T>\n"
                            "__global__ void NAME(int n, T* y) { if (n > 0) y[0] = 2 * y[0]; }\n";
  const auto kernel = [&](const std::string& name, const std::string& instantiate) {
    std::string body = twice;
    body.replace(body.find("NAME"), 4, name);
    return "OVERLAP_KERNEL(partition(n) offset(n) extent(y: n) copy(y[lo:hi])\n"
           "               launch(grid: len, block: 1) " +
           instantiate + ")\n" + body;
  };
  const std::string code = "#include <overlap/annotate.h>\n" +
                           kernel("first", "instantiate(U = float)") +
                           kernel("second", "instantiate(T = float)");
  expectFirstDiagnostic(code, "U = float", "'U' is not a template parameter of kernel 'first'");
  const InMemoryResult run = runOnCode(code);
  EXPECT_EQ(parseDiagnostics(run.diagnostics).size(), 1u) << run.diagnostics;
}

TEST(Diagnostics, InstantiateWithAnArgumentClangRejectsPointsAtTheAnnotation) {
  const std::string code = "#include <overlap/annotate.h>\n"
                           "OVERLAP_KERNEL(partition(n) offset(n) extent(y: n) copy(y[lo:hi])\n"
                           "               launch(grid: len, block: 1) instantiate(T = flaot))\n"
                           "template <class T>\n"
                           "__global__ void twice(int n, T* y) {}\n";
  // Clang's error, shown at the clause that asked for the instantiation.
  expectFirstDiagnostic(code, "instantiate(T", "'flaot'");
}

// A constant block beyond the kernel's __launch_bounds__ cannot launch: refused where it is
// written. Each instantiation of a template is checked with its own bounds.
TEST(Diagnostics, BlockBeyondTheKernelsLaunchBounds) {
  Saxpy bounded;
  bounded.launch = "launch(grid: len, block: 512)";
  bounded.signature =
      "__global__ void __launch_bounds__(256) saxpy(int n, float a, const float* x, float* y)";
  expectFirstDiagnostic(bounded.str(), "512",
                        "block of 512 threads; the kernel's __launch_bounds__ (256) allows at "
                        "most that many");
  bounded.launch = "launch(grid: ceil_div(len, 256), block: 256)";
  EXPECT_TRUE(runOnCode(bounded.str()).result.ok());

  const std::string templated =
      "#include <overlap/annotate.h>\n"
      "OVERLAP_KERNEL(partition(n) offset(n) extent(y: n) copy(y[lo:hi])\n"
      "               launch(grid: len, block: 128) instantiate(narrow: B = 64)\n"
      "               instantiate(wide: B = 256))\n"
      "template <int B>\n"
      "__global__ void __launch_bounds__(B) scale(int n, float* y) {\n"
      "  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  if (i < n)\n"
      "    y[i] *= 2;\n"
      "}\n";
  const InMemoryResult run = runOnCode(templated);
  EXPECT_FALSE(run.result.ok());
  const std::vector<PrintedDiagnostic> printed = parseDiagnostics(run.diagnostics);
  ASSERT_EQ(printed.size(), 1u) << run.diagnostics; // B = 64 only
  EXPECT_NE(printed[0].header.find("__launch_bounds__ (64)"), std::string::npos) << run.diagnostics;
}

// Generated code spells a kernel's parameters one by one: a parameter pack is refused at the pack,
// whether the template is instantiated by the annotation or explicitly in the file.
TEST(Diagnostics, AKernelWithAParameterPackIsRefused) {
  const std::string kernel = "template <typename... Args>\n"
                             "__global__ void scale(int n, float* x, Args... args) {\n"
                             "  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                             "  if (i < n) x[i] = (x[i] * ... * args);\n"
                             "}\n";
  const std::string annotation =
      "OVERLAP_KERNEL(partition(n) offset(n) extent(x: n) copy(x[lo:hi])\n"
      "               launch(grid: ceil_div(len, 256), block: 256)";
  expectFirstDiagnostic("#include <overlap/annotate.h>\n" + annotation +
                            " instantiate(Args = float))\n" + kernel,
                        "args) {", "kernel 'scale' takes a parameter pack ('args')");
  expectFirstDiagnostic("#include <overlap/annotate.h>\n" + annotation + ")\n" + kernel +
                            "template __global__ void scale<float, float>(int, float*, float, "
                            "float);\n",
                        "args) {", "kernel 'scale' takes a parameter pack ('args')");
}

// A grid-wide barrier holds only under a cooperative launch of the whole grid: refused at the
// barrier, or at the kernel's call of the helper that waits; the grid group's other members are
// fine.
TEST(Diagnostics, GridWideSynchronizationIsRefused) {
  const std::string head = "#include <overlap/annotate.h>\n"
                           "#include <cooperative_groups.h>\n"
                           "namespace cg = cooperative_groups;\n"
                           "__device__ void phaseBarrier(cg::grid_group& g) { g.sync(); }\n"
                           "OVERLAP_KERNEL(partition(n) offset(n) extent(x: n) copy(x[lo:hi])\n"
                           "               launch(grid: ceil_div(len, 256), block: 256))\n";
  const std::string direct = head + "__global__ void twoPhase(float* x, int n) {\n"
                                    "  cg::grid_group grid = cg::this_grid();\n"
                                    "  if (grid.thread_rank() < n) x[grid.thread_rank()] += 1;\n"
                                    "  grid.sync();\n"
                                    "}\n";
  expectFirstDiagnostic(direct, "sync();\n}",
                        "kernel 'twoPhase' synchronizes its whole grid here (a cooperative "
                        "groups grid sync)");
  const std::string helper = head + "__global__ void twoPhase(float* x, int n) {\n"
                                    "  cg::grid_group grid = cg::this_grid();\n"
                                    "  phaseBarrier(grid);\n"
                                    "}\n";
  expectFirstDiagnostic(helper, "phaseBarrier(grid)", "synchronizes its whole grid");
  const std::string free = head + "__global__ void twoPhase(float* x, int n) {\n"
                                  "  cg::sync(cg::this_grid());\n"
                                  "}\n";
  expectFirstDiagnostic(free, "cg::sync(", "synchronizes its whole grid");
  const std::string ranks = head + "__global__ void twoPhase(float* x, int n) {\n"
                                   "  cg::grid_group grid = cg::this_grid();\n"
                                   "  cg::thread_block block = cg::this_thread_block();\n"
                                   "  if (grid.thread_rank() < n) x[grid.thread_rank()] += 1;\n"
                                   "  block.sync();\n"
                                   "}\n";
  const InMemoryResult run = runOnCode(ranks);
  EXPECT_TRUE(run.result.ok()) << run.diagnostics;
}

TEST(Diagnostics, AWarningIsPrintedInCompilerFormatAndTheFilesAreWritten) {
  Saxpy kernel;
  kernel.launch = "launch(grid: ceil_div(n, 256), block: 256)";
  const std::string code = kernel.str();
  const InMemoryResult run = runOnCode(code);
  EXPECT_TRUE(run.result.ok()) << run.diagnostics;
  EXPECT_TRUE(run.result.files.has_value());
  const Position at = positionOf(code, "n, 256");
  EXPECT_EQ(run.diagnostics.rfind("input.cu:" + std::to_string(at.line) + ":" +
                                      std::to_string(at.column) +
                                      ": warning: the grid uses 'n', the whole call's length",
                                  0),
            0u)
      << run.diagnostics;
}

TEST(Diagnostics, AManagedVariableDrawsNoWarning) {
  // Clang reads __managed__ for HIP only; on CUDA it warned that the attribute was ignored.
  const std::string code = "__managed__ int calls;\n" + Saxpy().str();
  const InMemoryResult run = runOnCode(code);
  EXPECT_TRUE(run.result.ok()) << run.diagnostics;
  EXPECT_EQ(run.diagnostics, "");
}

TEST(Diagnostics, EveryKernelOfTheFileIsChecked) {
  Saxpy first;
  first.launch = "lunch(grid: ceil_div(len, 256), block: 256)";
  Saxpy second;
  second.extents = "extent(x, y: count)";
  second.signature = "__global__ void saxpy2(int n, float a, const float* x, float* y)";
  const std::string code = first.str() + second.str();
  const InMemoryResult run = runOnCode(code);
  EXPECT_FALSE(run.result.ok());
  const std::vector<PrintedDiagnostic> printed = parseDiagnostics(run.diagnostics);
  ASSERT_EQ(printed.size(), 2u) << run.diagnostics;
  const Position lunch = positionOf(code, "lunch");
  const Position count = positionOf(code, "count"); // only in the second annotation
  EXPECT_EQ(printed[0].header.rfind("input.cu:" + std::to_string(lunch.line) + ":" +
                                        std::to_string(lunch.column) + ": error: ",
                                    0),
            0u)
      << run.diagnostics;
  EXPECT_EQ(printed[1].header.rfind("input.cu:" + std::to_string(count.line) + ":" +
                                        std::to_string(count.column) + ": error: ",
                                    0),
            0u)
      << run.diagnostics;
}

// --- the frontend's own checks ------------------------------------------------------------------

TEST(Diagnostics, AnnotationOnAHostFunction) {
  const std::string code = "#include <overlap/annotate.h>\n"
                           "OVERLAP_KERNEL(partition(n) offset(n))\n"
                           "void scale(int n, float* x) {}\n";
  expectFirstDiagnostic(code, "scale(",
                        "'scale' is marked OVERLAP_KERNEL but is not a __global__ kernel");
}

TEST(Diagnostics, AnnotationOnADeviceFunction) {
  const std::string code = "#include <overlap/annotate.h>\n"
                           "OVERLAP_KERNEL(partition(n) offset(n))\n"
                           "__device__ float twice(float v) { return 2 * v; }\n";
  expectFirstDiagnostic(code, "twice", "'twice' is marked OVERLAP_KERNEL but is not a __global__");
}

TEST(Diagnostics, AnnotationOnAVariable) {
  const std::string code = "#include <overlap/annotate.h>\n"
                           "OVERLAP_KERNEL(partition(n)) int counter;\n";
  expectFirstDiagnostic(code, "counter", "is on 'counter', which is not a function");
}

TEST(Diagnostics, KernelDeclaredButNotDefined) {
  Saxpy kernel;
  std::string code = kernel.str();
  code = code.substr(0, code.find(" {\n")) + ";\n";
  expectFirstDiagnostic(code, "saxpy(int",
                        "kernel 'saxpy' is annotated but not defined in this file");
}

TEST(Diagnostics, KernelAnnotatedOnDeclarationAndDefinition) {
  const std::string annotation = "OVERLAP_KERNEL(partition(n) offset(n) extent(y: n) "
                                 "copy(y[lo:hi]) launch(grid: len, block: 1))\n";
  const std::string code = "#include <overlap/annotate.h>\n" + annotation +
                           "__global__ void twice(int n, float* y);\n" + annotation +
                           "__global__ void twice(int n, float* y) {}\n";
  const InMemoryResult run = runOnCode(code);
  EXPECT_FALSE(run.result.ok());
  const std::vector<PrintedDiagnostic> printed = parseDiagnostics(run.diagnostics);
  ASSERT_EQ(printed.size(), 2u) << run.diagnostics;
  EXPECT_EQ(printed[0].header,
            "input.cu:4:1: error: kernel 'twice' is annotated twice; keep one OVERLAP_KERNEL");
  EXPECT_EQ(printed[0].caretColumn, 1u);
  EXPECT_EQ(printed[1].header, "input.cu:2:1: note: the first annotation is here");
}

TEST(Diagnostics, KernelInsideANamedNamespaceIsFine) {
  Saxpy kernel;
  const std::string full = kernel.str();
  const std::size_t annotation = full.find("OVERLAP_KERNEL");
  const std::string code = full.substr(0, annotation) + "namespace blas {\n" +
                           full.substr(annotation) + "} // namespace blas\n";
  const InMemoryResult run = runOnCode(code);
  EXPECT_TRUE(run.result.ok()) << run.diagnostics;
  EXPECT_EQ(run.diagnostics, "");
}

TEST(Diagnostics, KernelInsideAClass) {
  const std::string code = "#include <overlap/annotate.h>\n"
                           "struct Holder {\n"
                           "OVERLAP_KERNEL(partition(n) offset(n) extent(y: n) copy(y[lo:hi])\n"
                           "               launch(grid: len, block: 1))\n"
                           "  static void twice(int n, float* y) {}\n"
                           "};\n";
  expectFirstDiagnostic(code, "OVERLAP_KERNEL", "stands inside the declaration of 'Holder'");
}

TEST(Diagnostics, AnnotationInsideAFunctionBody) {
  const std::string code = "#include <overlap/annotate.h>\n"
                           "void host() {\n"
                           "  OVERLAP_KERNEL(partition(n))\n"
                           "  int x = 0;\n"
                           "}\n";
  expectFirstDiagnostic(code, "OVERLAP_KERNEL", "stands inside the declaration of 'host'");
}

TEST(Diagnostics, AnnotationFollowedByNothing) {
  const std::string code = "#include <overlap/annotate.h>\n"
                           "__global__ void k(int n, float* y) {}\n"
                           "OVERLAP_KERNEL(partition(n))\n";
  expectFirstDiagnostic(code, "OVERLAP_KERNEL(partition", "is not followed by a declaration");
}

TEST(Diagnostics, ParameterTypeInAnAnonymousNamespace) {
  Saxpy kernel;
  kernel.signature = "__global__ void saxpy(int n, float a, const float* x, float* y, Hidden* h)";
  std::string code = kernel.str();
  code.insert(code.find("OVERLAP_KERNEL"), "namespace { struct Hidden { int k; }; }\n");
  expectFirstDiagnostic(code, "h)",
                        "parameter 'h': type '(anonymous namespace)::Hidden' is in an anonymous "
                        "namespace, so code outside the kernel file cannot name it");
}

TEST(Diagnostics, ParameterOfAnEnumWithoutFixedUnderlyingType) {
  Saxpy kernel;
  kernel.signature = "__global__ void saxpy(int n, float a, const float* x, float* y, Mode m)";
  std::string code = kernel.str();
  code.insert(code.find("OVERLAP_KERNEL"), "enum Mode { Fast, Exact };\n");
  expectFirstDiagnostic(code, "m)", "enum 'Mode' has no fixed underlying type");
}

TEST(Diagnostics, KernelInsideAnAnonymousNamespaceIsFine) {
  Saxpy kernel;
  const std::string full = kernel.str();
  const std::size_t annotation = full.find("OVERLAP_KERNEL");
  const std::string code =
      full.substr(0, annotation) + "namespace {\n" + full.substr(annotation) + "} // namespace\n";
  const InMemoryResult run = runOnCode(code);
  EXPECT_TRUE(run.result.ok()) << run.diagnostics;
  EXPECT_EQ(run.diagnostics, "");
}

TEST(Diagnostics, AnnotationHiddenInAnotherMacro) {
  const std::string code =
      "#include <overlap/annotate.h>\n"
      "#define ELEMENTWISE OVERLAP_KERNEL(partition(n) offset(n) extent(y: n) \\\n"
      "    copy(y[lo:hi]) launch(grid: ceil_div(len, 256), block: 256))\n"
      "ELEMENTWISE\n"
      "__global__ void twice(int n, float* y) {}\n";
  expectFirstDiagnostic(code, "ELEMENTWISE\n",
                        "directly before the kernel, not through another macro");
}

TEST(Diagnostics, FileWithoutAnnotations) {
  const std::string code = "#include <overlap/annotate.h>\n"
                           "__global__ void twice(int n, float* y) {}\n";
  const InMemoryResult run = runOnCode(code);
  EXPECT_FALSE(run.result.ok());
  const std::vector<PrintedDiagnostic> printed = parseDiagnostics(run.diagnostics);
  ASSERT_EQ(printed.size(), 1u) << run.diagnostics;
  EXPECT_EQ(printed[0].header.rfind("input.cu:1:1: error: no OVERLAP_KERNEL annotations in "
                                    "input.cu",
                                    0),
            0u)
      << run.diagnostics;
}

// --- errors in the user's code: clang's own diagnostics -----------------------------------------

TEST(Diagnostics, KernelBodyThatDoesNotCompile) {
  Saxpy kernel;
  std::string code = kernel.str();
  code.replace(code.find("a * x[i]"), 1, "alpha");
  expectFirstDiagnostic(code, "alpha", "use of undeclared identifier 'alpha'");
}

TEST(Diagnostics, MissingIncludedHeader) {
  const std::string code = Saxpy().str();
  const std::string withInclude = "#include \"kernels/common.h\"\n" + code;
  expectFirstDiagnostic(withInclude, "\"kernels/common.h\"", "'kernels/common.h' file not found",
                        "fatal error");
}

TEST(Diagnostics, MissingOverlapHeaderIsExplained) {
  std::string code = Saxpy().str();
  code.erase(0, code.find('\n') + 1); // no #include <overlap/annotate.h>
  const InMemoryResult run = runOnCode(code);
  EXPECT_FALSE(run.result.ok());
  const std::vector<PrintedDiagnostic> printed = parseDiagnostics(run.diagnostics);
  ASSERT_GE(printed.size(), 2u) << run.diagnostics;
  // Clang's own complaint comes first; the generator's explanation is the last one.
  const Position use = positionOf(code, "OVERLAP_KERNEL");
  const std::string expected = "input.cu:" + std::to_string(use.line) + ":" +
                               std::to_string(use.column) +
                               ": error: OVERLAP_KERNEL is not defined; add '#include "
                               "<overlap/annotate.h>' before its first use";
  EXPECT_EQ(printed.back().header, expected) << run.diagnostics;
  EXPECT_EQ(printed.back().caretColumn, use.column);
}

TEST(Diagnostics, HostCodeClangCannotParseIsAWarningWhenTheKernelsParse) {
  // nvcc accepts a braced block size in a launch, clang does not: the kernels are generated.
  const std::string code = Saxpy().str() +
                           "void launch(int n, float* x, float* y, cudaStream_t stream) {\n"
                           "  saxpy<<<1, {256, 1, 1}, 0, stream>>>(n, 2.0f, x, y);\n"
                           "}\n";
  const InMemoryResult run = runOnCode(code);
  EXPECT_TRUE(run.result.ok()) << run.diagnostics;
  EXPECT_TRUE(run.result.files.has_value());
  const std::vector<PrintedDiagnostic> printed = parseDiagnostics(run.diagnostics);
  ASSERT_FALSE(printed.empty()) << run.diagnostics;
  const Position brace = positionOf(code, "{256");
  EXPECT_EQ(printed[0].header.rfind("input.cu:" + std::to_string(brace.line) + ":" +
                                        std::to_string(brace.column) + ": warning: ",
                                    0),
            0u)
      << run.diagnostics;
  EXPECT_NE(printed[0].header.find("the annotated kernels do not need it"), std::string::npos);
}

TEST(Diagnostics, HostCodeErrorsStayErrorsWhenAKernelDoesNotParse) {
  Saxpy kernel;
  kernel.signature = "__global__ void saxpy(int n, float a, const float* x, float* y, Unknown u)";
  const std::string code = kernel.str() + "void launch() {\n  saxpy<<<1, {256, 1, 1}>>>();\n}\n";
  const InMemoryResult run = runOnCode(code);
  EXPECT_FALSE(run.result.ok());
  EXPECT_NE(run.diagnostics.find("error: unknown type name 'Unknown'"), std::string::npos)
      << run.diagnostics;
}

TEST(Diagnostics, UserCompilerArgumentsReachClang) {
  // Without -DELEMENT=float the kernel does not compile; with it, it does.
  Saxpy kernel;
  kernel.signature = "__global__ void saxpy(int n, float a, const ELEMENT* x, ELEMENT* y)";
  const InMemoryResult without = runOnCode(kernel.str());
  EXPECT_FALSE(without.result.ok());
  EXPECT_NE(without.diagnostics.find("unknown type name 'ELEMENT'"), std::string::npos)
      << without.diagnostics;
  const InMemoryResult with = runOnCode(kernel.str(), "input.cu", {"-DELEMENT=float"});
  EXPECT_TRUE(with.result.ok()) << with.diagnostics;
}

} // namespace
} // namespace overlap::frontend
