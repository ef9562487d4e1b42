// Every check of the annotation language: the message says what is wrong and how to fix it, and
// the offset/length point at the offending text (the frontend turns them into a caret).
#include "SignatureBuilder.h"
#include "annotation/AnnotationSema.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>

namespace overlap {
namespace {

using annotation::buildKernel;
using annotation::Diagnostic;
using annotation::Diagnostics;
using testing::formatDiagnostics;
using testing::SignatureBuilder;

// Where the offending text is expected: the `occurrence`-th (0-based) `spelled` in the text, or
// in the first `within` if given; an empty `spelled` means a point diagnostic at offset 0.
struct Location {
  Location() = default;
  Location(std::string spelled, int occurrence = 0, std::string within = "")
      : spelled(std::move(spelled)), occurrence(occurrence), within(std::move(within)) {}

  std::string spelled;
  int occurrence = 0;
  std::string within;
};

Location inside(const std::string& spelled, const std::string& within) {
  return Location{spelled, 0, within};
}

size_t findOccurrence(const std::string& text, const Location& at) {
  size_t base = at.within.empty() ? 0 : text.find(at.within);
  if (base == std::string::npos)
    return base;
  size_t offset = text.find(at.spelled, base);
  for (int i = 0; i < at.occurrence && offset != std::string::npos; ++i)
    offset = text.find(at.spelled, offset + 1);
  return offset;
}

// Asserts that building yields exactly one diagnostic, an error containing `message` at `at`.
void expectError(const std::string& text, const ir::KernelSignature& signature,
                 const std::string& message, const Location& at) {
  SCOPED_TRACE("annotation: " + text);
  size_t offset = at.spelled.empty() ? 0 : findOccurrence(text, at);
  ASSERT_NE(offset, std::string::npos) << "test bug: '" << at.spelled << "' not in the text";
  annotation::SemaResult result = buildKernel(text, signature);
  EXPECT_FALSE(result.kernel.has_value());
  ASSERT_EQ(result.diagnostics.size(), 1u) << formatDiagnostics(result.diagnostics);
  const Diagnostic& d = result.diagnostics[0];
  EXPECT_EQ(d.severity, Diagnostic::Severity::Error);
  EXPECT_NE(d.message.find(message), std::string::npos)
      << "message: " << d.message << "\nexpected to contain: " << message;
  EXPECT_EQ(d.offset, offset) << d.message;
  EXPECT_EQ(d.length, at.spelled.size()) << d.message;
}

ir::KernelSignature saxpy() {
  return testing::saxpySignature();
}

// A correct saxpy annotation, assembled from parts so each test replaces exactly one of them.
struct SaxpyText {
  std::string partition = "partition(n)";
  std::string mode = "offset(n)";
  std::string extents = "extent(x, y: n)";
  std::string data = "copyin(x[lo:hi]) copy(y[lo:hi])";
  std::string launch = "launch(grid: ceil_div(len, 256), block: 256)";
  std::string tune = "tune(n = 1024)";

  std::string str() const {
    return partition + " " + mode + " " + extents + " " + data + " " + launch + " " + tune;
  }
};

std::string saxpyWith(std::string SaxpyText::*part, const std::string& replacement) {
  SaxpyText text;
  text.*part = replacement;
  return text.str();
}

TEST(Diagnostics, TheBaseAnnotationIsClean) {
  annotation::SemaResult result = buildKernel(SaxpyText{}.str(), saxpy());
  EXPECT_TRUE(result.diagnostics.empty()) << formatDiagnostics(result.diagnostics);
  EXPECT_TRUE(result.kernel.has_value());
}

// --- syntax -------------------------------------------------------------------------------------

TEST(Diagnostics, UnknownClauseSuggestsTheClosestKeyword) {
  std::string text = saxpyWith(&SaxpyText::data, "copyinn(x[lo:hi]) copy(y[lo:hi])");
  expectError(text, saxpy(), "unknown clause 'copyinn'; did you mean 'copyin'?", {"copyinn"});
}

TEST(Diagnostics, UnknownClauseFarFromAnyKeywordListsThem) {
  std::string text = SaxpyText{}.str() + " frobnicate(x)";
  expectError(text, saxpy(), "unknown clause 'frobnicate'; the clauses are partition",
              {"frobnicate"});
}

TEST(Diagnostics, ClauseWithoutParenthesis) {
  std::string text = saxpyWith(&SaxpyText::partition, "partition n");
  expectError(text, saxpy(), "expected '(' after 'partition', found 'n'", {"n", 1});
}

TEST(Diagnostics, ExtraTokenInClause) {
  std::string text = saxpyWith(&SaxpyText::partition, "partition(n m)");
  expectError(text, saxpy(), "expected ')' to end the 'partition' clause, found 'm'", {"m"});
}

TEST(Diagnostics, SectionWithoutColon) {
  std::string text = saxpyWith(&SaxpyText::data, "copyin(x[lo hi]) copy(y[lo:hi])");
  expectError(text, saxpy(), "expected ':' between the begin and end of the section", {"hi"});
}

TEST(Diagnostics, SectionWithoutClosingBracket) {
  std::string text = saxpyWith(&SaxpyText::data, "copyin(x[lo:hi) copy(y[lo:hi])");
  expectError(text, saxpy(), "expected ']' to close the section, found ')'",
              inside(")", "hi) copy"));
}

TEST(Diagnostics, EmptyExpression) {
  std::string text = saxpyWith(&SaxpyText::partition, "partition()");
  expectError(text, saxpy(), "expected an expression, found ')'", {")"});
}

TEST(Diagnostics, ParameterNameExpected) {
  std::string text = saxpyWith(&SaxpyText::mode, "offset(3)");
  expectError(text, saxpy(), "expected the name of the parameter that receives the chunk length",
              {"3"});
}

TEST(Diagnostics, UnterminatedClause) {
  std::string text = saxpyWith(&SaxpyText::tune, "tune(n = 1024");
  expectError(text, saxpy(), "unterminated 'tune' clause; add the missing ')'", {"tune("});
}

TEST(Diagnostics, JunkAfterTheLastClause) {
  std::string text = SaxpyText{}.str() + " )";
  expectError(text, saxpy(), "unexpected ')' after the last clause", Location{")", 1, ") )"});
}

TEST(Diagnostics, JunkBetweenClauses) {
  std::string text = saxpyWith(&SaxpyText::mode, "offset(n) 42");
  expectError(text, saxpy(), "expected a clause name such as copyin, found '42'", {"42"});
}

// Shifts as C++ has them (1 << 20 in tune values and the file's macros): binding looser than +,
// checked where a constant shift goes wrong.
TEST(Diagnostics, ShiftsAreCheckedLikeTheOtherOperators) {
  EXPECT_TRUE(
      buildKernel(saxpyWith(&SaxpyText::tune, "tune(n = 1 << 20)"), saxpy()).kernel.has_value());
  expectError(saxpyWith(&SaxpyText::tune, "tune(n = 1 << 63)"), saxpy(),
              "'1 << 63' overflows long long", {"1 << 63"});
  expectError(saxpyWith(&SaxpyText::tune, "tune(n = -1 << 2)"), saxpy(),
              "'-1 << 2' shifts a negative value left", {"-1 << 2"});
  expectError(saxpyWith(&SaxpyText::launch, "launch(grid: len, block: 256 >> -1)"), saxpy(),
              "'256 >> -1' shifts by -1; a shift count is 0 to 63", {"256 >> -1"});
  expectError(saxpyWith(&SaxpyText::tune, "tune(n = 1 << 64)"), saxpy(), "'1 << 64' shifts by 64",
              {"1 << 64"});
}

TEST(Diagnostics, OtherCxxOperatorsAreNotSupported) {
  std::string text = saxpyWith(&SaxpyText::partition, "partition(n & 255)");
  expectError(text, saxpy(), "operator '&' is not supported", {"&"});
}

TEST(Diagnostics, FloatingPointLiteral) {
  std::string text = saxpyWith(&SaxpyText::tune, "tune(n = 1.5e6)");
  expectError(text, saxpy(), "floating-point literal '1.5e6' in an integer expression", {"1.5e6"});
}

TEST(Diagnostics, LiteralTooLargeForLongLong) {
  std::string text = saxpyWith(&SaxpyText::tune, "tune(n = 9223372036854775808)");
  expectError(text, saxpy(), "is too large; expressions are long long", {"9223372036854775808"});
}

TEST(Diagnostics, OctalLiteral) {
  std::string text = saxpyWith(&SaxpyText::tune, "tune(n = 0777)");
  expectError(text, saxpy(), "octal literal '0777' is not supported", {"0777"});
}

TEST(Diagnostics, BadLiteralSuffix) {
  std::string text = saxpyWith(&SaxpyText::tune, "tune(n = 64kb)");
  expectError(text, saxpy(), "invalid suffix 'kb' on integer literal '64kb'", {"64kb"});
}

TEST(Diagnostics, StrayCharacter) {
  std::string text = saxpyWith(&SaxpyText::partition, "partition(n$)");
  expectError(text, saxpy(), "unexpected character '$'", {"$"});
}

TEST(Diagnostics, UnterminatedComment) {
  std::string text = SaxpyText{}.str() + " /* the end";
  expectError(text, saxpy(), "unterminated comment", {"/*"});
}

TEST(Diagnostics, UnknownFunctionSuggestsTheClosest) {
  std::string text = saxpyWith(&SaxpyText::launch, "launch(grid: ceildiv(len, 256), block: 256)");
  expectError(text, saxpy(), "unknown function 'ceildiv'; did you mean 'ceil_div'?", {"ceildiv"});
}

TEST(Diagnostics, FunctionWithWrongArgumentCount) {
  std::string text = saxpyWith(&SaxpyText::launch, "launch(grid: max(len), block: 256)");
  expectError(text, saxpy(), "'max' takes 2 arguments, found 1", {"max(len)"});
}

// --- calls of the file's functions ---------------------------------------------------------------

// saxpy with the file's functions as the frontend gives them.
ir::KernelSignature saxpyWithFunctions() {
  ir::KernelSignature signature = saxpy();
  const auto macro = [](std::string name, std::vector<std::string> params, std::string body) {
    ir::FileFunction result;
    result.name = std::move(name);
    result.params = std::move(params);
    result.body = std::move(body);
    result.macro = true;
    result.where = "k.cu:2";
    return result;
  };
  const auto function = [](std::string name, std::vector<std::string> params, std::string body,
                           std::string unusable = "", std::vector<std::string> defaults = {}) {
    ir::FileFunction result;
    result.name = std::move(name);
    result.params = std::move(params);
    result.defaults = std::move(defaults);
    result.body = std::move(body);
    result.where = "k.cu:3";
    result.unusable = std::move(unusable);
    return result;
  };
  signature.functions = {
      macro("CEIL_DIV", {"M", "N"}, "( ( ( M ) + ( N ) - 1 ) / ( N ) )"),
      macro("MUL", {"a", "b"}, "a * b"),
      macro("BLOCKS_OF", {"m"}, "CEIL_DIV ( m , THREADS )"),
      macro("SELF", {"m"}, "SELF ( m )"),
      function("GET_BLOCKS", {"N"}, "(N + THREADS - 1) / THREADS"),
      function("scaled", {"n"}, "n * SCALE"),
      function("reads_y", {"m"}, "m + y"),
      function("plus_file_n", {"m"}, "m + n"),
      function("iDivUp", {"a", "b"}, "((a % b) != 0) ? (a / b + 1) : (a / b)"),
      function("threads", {"N"}, "", "its body is more than one return statement"),
      function("blocks", {"N", "threads"}, "(N + threads - 1) / threads", "", {"", "THREADS"}),
      function("::cfg::blocks", {"N"}, "(N + ::cfg::kThreads - 1) / ::cfg::kThreads"),
      function("bad_default", {"N", "t"}, "N / t", "", {"", "sizeof(float) > 2"}),
  };
  signature.constants = {
      {"THREADS", 256}, {"SCALE", 3}, {"n", 1000}, {"cfg::kThreads", 128}, {"::cfg::kThreads", 64}};
  return signature;
}

TEST(FileFunctions, MacrosExpandAsThePreprocessorAndFunctionsWithValues) {
  const ir::KernelSignature signature = saxpyWithFunctions();
  const auto grid = [&](const std::string& value, long long n, long long len) {
    const ir::Kernel kernel = testing::buildOk(
        saxpyWith(&SaxpyText::launch, "launch(grid: " + value + ", block: 256)"), signature);
    ir::Environment env;
    env.param = [&](int) -> std::optional<long long> { return n; };
    env.lo = 0;
    env.hi = len;
    return kernel.launch.grid[0] ? ir::evaluate(*kernel.launch.grid[0], env) : std::nullopt;
  };
  EXPECT_EQ(grid("CEIL_DIV(len, 256)", 7, 1000), 4);
  EXPECT_EQ(grid("BLOCKS_OF(len + 1)", 7, 512), 3); // a macro calling a macro, a constant
  EXPECT_EQ(grid("GET_BLOCKS(len)", 7, 257), 2);
  // The preprocessor's text: MUL(len + 1, 2) is len + 1 * 2; a function's argument is a value.
  EXPECT_EQ(grid("MUL(len + 1, 2)", 7, 10), 12);
  EXPECT_EQ(grid("scaled(len + 1)", 7, 10), 33);
  // A function's body reads the file's n (1000), never the kernel's parameter n (7).
  EXPECT_EQ(grid("plus_file_n(len)", 7, 10), 1010);
  EXPECT_EQ(grid("CEIL_DIV(GET_BLOCKS(len), 2)", 7, 1024), 2);
  // A default argument is the file's constant where the call leaves it out.
  EXPECT_EQ(grid("blocks(len)", 7, 257), 2);
  EXPECT_EQ(grid("blocks(len, 128)", 7, 257), 3);
  // Qualified names: constants and functions of namespaces, std::min and std::max.
  EXPECT_EQ(grid("ceil_div(len, cfg::kThreads)", 7, 257), 3);
  EXPECT_EQ(grid("::cfg::blocks(len)", 7, 257), 5);
  EXPECT_EQ(grid("std::min(len, 3) + ::std::max(len, 4)", 7, 2), 6);
}

TEST(FileFunctions, WhatCannotBeExpandedIsAnErrorAtTheCall) {
  const ir::KernelSignature signature = saxpyWithFunctions();
  const auto expectCallError = [&](const std::string& call, const std::string& message,
                                   const std::string& at) {
    expectError(saxpyWith(&SaxpyText::launch, "launch(grid: 1 + " + call + ", block: 256)"),
                signature, message, {at});
  };
  expectCallError("iDivUp(len, 256)",
                  "in 'iDivUp' (k.cu:3), which returns '((a % b) != 0) ? (a / b + 1) : (a / "
                  "b)': operator '!' is not supported",
                  "iDivUp(len, 256)");
  expectCallError("threads(len)",
                  "'threads' (k.cu:3) cannot be called in an annotation: its body is more than "
                  "one return statement",
                  "threads(len)");
  expectCallError("reads_y(len)", "'y', which 'reads_y' (k.cu:3) reads, is not an integer constant",
                  "reads_y(len)");
  expectCallError("CEIL_DIV(len)", "'CEIL_DIV' takes 2 arguments, found 1", "CEIL_DIV(len)");
  expectCallError("blocks()", "'blocks' takes 1 to 2 arguments, found 0", "blocks()");
  expectCallError("bad_default(len)",
                  "in 'bad_default' (k.cu:3), whose 't' defaults to 'sizeof(float) > 2': "
                  "operator '>' is not supported",
                  "bad_default(len)");
  expectCallError("cfg::blocks(len)",
                  "unknown function 'cfg::blocks'; did you mean '::cfg::blocks'?", "cfg::blocks");
  expectCallError("SELF(len)", "calls of the file's functions nest more than 16 deep at 'SELF'",
                  "SELF(len)");
  expectCallError("GET_BLOKS(len)", "unknown function 'GET_BLOKS'; did you mean 'GET_BLOCKS'?",
                  "GET_BLOKS");
  // An error inside a body nested in an argument is shown at the argument's own call.
  expectCallError("GET_BLOCKS(iDivUp(len, 2))", "in 'iDivUp' (k.cu:3)", "iDivUp(len, 2)");
}

// --- names and expressions ----------------------------------------------------------------------

TEST(Diagnostics, NameThatIsNotAParameter) {
  std::string text = saxpyWith(&SaxpyText::partition, "partition(nn)");
  expectError(text, saxpy(), "'nn' is not a parameter of kernel 'saxpy'; did you mean 'n'?",
              {"nn"});
}

// The pointer the misspelt name meant is left without a direction: that follows from the first
// error and is not said again (expectError wants exactly one diagnostic).
TEST(Diagnostics, MisspeltArrayNameIsTheOnlyError) {
  SaxpyText parts;
  parts.extents = "extent(x, y: n)";
  parts.data = "copyin(xx[lo:hi]) copy(y[lo:hi])";
  expectError(parts.str(), saxpy(), "'xx' is not a parameter of kernel 'saxpy'", {"xx"});
}

TEST(Diagnostics, ChunkBoundInPartition) {
  std::string text = saxpyWith(&SaxpyText::partition, "partition(hi)");
  expectError(text, saxpy(), "'hi' cannot be used in the partition extent", {"hi", 0});
}

TEST(Diagnostics, ChunkLengthInExtent) {
  std::string text = saxpyWith(&SaxpyText::extents, "extent(x, y: len * 2)");
  expectError(text, saxpy(), "'len' cannot be used in an extent", {"len"});
}

TEST(Diagnostics, ChunkBoundInTune) {
  std::string text = saxpyWith(&SaxpyText::tune, "tune(n = lo + 1)");
  expectError(text, saxpy(), "'lo' cannot be used in a tuning default", inside("lo", "lo + 1"));
}

TEST(Diagnostics, FloatParameterInExpression) {
  std::string text = saxpyWith(&SaxpyText::partition, "partition(a)");
  expectError(text, saxpy(), "parameter 'a' has type 'float'; expressions need integer parameters",
              {"a", 1});
}

TEST(Diagnostics, StructParameterInExpression) {
  ir::KernelSignature signature =
      SignatureBuilder("k").integer("n").structure("cfg", "Config").pointer("x", "float");
  expectError("partition(n) offset(n) extent(x: n + cfg) copyout(x[lo:hi]) launch(grid: len, "
              "block: 1)",
              signature, "parameter 'cfg' has type 'Config'; expressions need integer", {"cfg"});
}

TEST(Diagnostics, PointerInExpression) {
  std::string text = saxpyWith(&SaxpyText::extents, "extent(x, y: x)");
  expectError(text, saxpy(), "'x' is a pointer; expressions need integer parameters",
              inside("x", "y: x"));
}

TEST(Diagnostics, DivisionByLiteralZero) {
  std::string text = saxpyWith(&SaxpyText::launch, "launch(grid: ceil_div(len, 0), block: 256)");
  expectError(text, saxpy(), "division by zero", inside("0", "len, 0"));
}

TEST(Diagnostics, ModuloByConstantZeroExpression) {
  std::string text = saxpyWith(&SaxpyText::extents, "extent(x, y: n % (4 - 4))");
  expectError(text, saxpy(), "division by zero", {"(4 - 4)"});
}

TEST(Diagnostics, LiteralArithmeticOverflow) {
  std::string text = saxpyWith(&SaxpyText::tune, "tune(n = 4294967296 * 4294967296)");
  expectError(text, saxpy(), "'4294967296 * 4294967296' overflows long long",
              {"4294967296 * 4294967296"});
}

// --- data clauses -------------------------------------------------------------------------------

TEST(Diagnostics, PointerWithoutDirection) {
  SaxpyText parts;
  parts.extents = "extent(x: n)";
  parts.data = "copyin(x[lo:hi])";
  expectError(parts.str(), saxpy(),
              "pointer parameter 'y' has no direction; name it in copyin, copyout or copy", {});
}

// An unnamed pointer (`const float* /*legacy*/`) cannot be named in a clause: the message says so
// by its position and type.
TEST(Diagnostics, UnnamedPointerWithoutDirection) {
  SaxpyText parts;
  parts.extents = "extent(x: n)";
  parts.data = "copyin(x[lo:hi])";
  ir::KernelSignature signature = saxpy();
  signature.params.back().name.clear();
  expectError(parts.str(), signature,
              "the kernel's parameter 4 ('float *') is a pointer without a name, which no clause "
              "can give a direction; name it in the kernel's signature",
              {});
}

TEST(Diagnostics, NonPointerInDataClause) {
  std::string text = saxpyWith(&SaxpyText::data, "copyin(x[lo:hi], n) copy(y[lo:hi])");
  expectError(text, saxpy(), "'n' is not a pointer; copyin takes pointer parameters",
              inside("n", ", n)"));
}

TEST(Diagnostics, SameArrayInTwoDataClauses) {
  std::string text = saxpyWith(&SaxpyText::data, "copyin(x[lo:hi], y[lo:hi]) copyout(y[lo:hi])");
  expectError(text, saxpy(),
              "'y' is already in copyin; an array has one direction: use copy for "
              "read-and-write",
              inside("y", "(y[lo:hi]) launch"));
}

TEST(Diagnostics, VoidPointerInDataClause) {
  ir::KernelSignature signature =
      SignatureBuilder("k").integer("n").pointer("raw", "void", true).pointer("y", "float");
  expectError("partition(n) offset(n) extent(raw, y: n) copyin(raw[lo:hi]) copyout(y[lo:hi]) "
              "launch(grid: len, block: 1)",
              signature, "'const void *' has no element type; use a typed pointer", {"raw", 1});
}

// Signatures that show an annotation wrong: the kernel cannot write through a const pointer, and
// a pointer to pointers holds host addresses.
TEST(Diagnostics, OutputThroughAConstPointer) {
  ir::KernelSignature signature =
      SignatureBuilder("k").integer("n").pointer("x", "float", true).pointer("y", "float", true);
  expectError("partition(n) offset(n) extent(x, y: n) copyin(x[lo:hi]) copyout(y[lo:hi]) "
              "launch(grid: len, block: 1)",
              signature,
              "'y' points to const ('const float *'): the kernel does not write it, so copyout "
              "would copy back what it never wrote; use copyin",
              inside("y", "(y[lo:hi]) launch"));
  expectError("partition(n) offset(n) extent(x, y: n) copyin(x[lo:hi]) reduce(+: y) "
              "launch(grid: len, block: 1)",
              signature,
              "'y' points to const ('const float *'): the kernel does not write it, so reduce "
              "would copy back what it never wrote; use copyin",
              inside("y", "y) launch"));
  // copy of a const array only copies back what was there: no wrong result, accepted.
  EXPECT_TRUE(buildKernel("partition(n) offset(n) extent(x, y: n) copyin(x[lo:hi]) "
                          "copy(y[lo:hi]) launch(grid: len, block: 1)",
                          signature)
                  .kernel.has_value());
}

TEST(Diagnostics, PointerToPointers) {
  ir::KernelSignature signature = SignatureBuilder("k").integer("n").pointer("rows", "float *");
  signature.params[1].pointeePointer = true;
  expectError("partition(n) offset(n) extent(rows: n) copyin(rows[lo:hi]) "
              "launch(grid: len, block: 1)",
              signature,
              "'float * *' holds pointers: the host's addresses mean nothing on the device, and "
              "copyin moves arrays of values; pass the pointed-to data as arrays of their own",
              inside("rows", "rows[lo"));
}

TEST(Diagnostics, BitwiseReductionOfFloats) {
  ir::KernelSignature signature =
      SignatureBuilder("k").integer("n").pointer("x", "float", true).pointer("y", "double");
  expectError("partition(n) offset(n) extent(x, y: n) copyin(x[lo:hi]) reduce(^: y) "
              "launch(grid: len, block: 1)",
              signature,
              "'y' holds 'double'; the bitwise reduce operators (&, |, ^) combine integers",
              inside("y", "y) launch"));
  // Sums, minima and maxima of floats are what atomics do.
  EXPECT_TRUE(buildKernel("partition(n) offset(n) extent(x, y: n) copyin(x[lo:hi]) reduce(max: y) "
                          "launch(grid: len, block: 1)",
                          signature)
                  .kernel.has_value());
}

TEST(Diagnostics, ConstantBlockOfMoreThan1024Threads) {
  expectError(saxpyWith(&SaxpyText::launch, "launch(grid: len, block: (64, 32))"), saxpy(),
              "block of 2048 threads; a block holds at most 1024 (x * y * z)", {"(64, 32)"});
  // One that depends on a parameter is checked at run time, dimension by dimension.
  EXPECT_TRUE(
      buildKernel(saxpyWith(&SaxpyText::launch, "launch(grid: len, block: (n, 32))"), saxpy())
          .kernel.has_value());
  EXPECT_TRUE(
      buildKernel(saxpyWith(&SaxpyText::launch, "launch(grid: len, block: (32, 32))"), saxpy())
          .kernel.has_value());
}

TEST(Diagnostics, ConstantBlockDimensionBelowOne) {
  expectError(saxpyWith(&SaxpyText::launch, "launch(grid: len, block: (-128, 1))"), saxpy(),
              "block dimension x is -128; a block has at least one thread in each dimension",
              {"-128"});
  // Two negative dimensions do not make a positive block.
  expectError(saxpyWith(&SaxpyText::launch, "launch(grid: len, block: (32, 1, 0))"), saxpy(),
              "block dimension z is 0", inside("0", "0)"));
  // A huge dimension is refused without overflowing the product.
  expectError(saxpyWith(&SaxpyText::launch, "launch(grid: len, block: (4611686018427387904, 4))"),
              saxpy(), "a block holds at most 1024", {"(4611686018427387904, 4)"});
}

TEST(Diagnostics, ConstantBlockBeyondTheLaunchBounds) {
  ir::KernelSignature bounded = saxpy();
  bounded.maxThreadsPerBlock = 128;
  expectError(saxpyWith(&SaxpyText::launch, "launch(grid: len, block: (32, 8))"), bounded,
              "block of 256 threads; the kernel's __launch_bounds__ (128) allows at most that many",
              {"(32, 8)"});
  EXPECT_TRUE(buildKernel(saxpyWith(&SaxpyText::launch, "launch(grid: len, block: 128)"), bounded)
                  .kernel.has_value());
}

// The tuner sizes its call with the tune defaults: a negative size is refused at the default.
TEST(Diagnostics, TuneDefaultsThatMakeASizeNegative) {
  expectError(saxpyWith(&SaxpyText::tune, "tune(n = -5)"), saxpy(),
              "with the tune defaults the partition extent is -5", {"-5"});
  expectError(saxpyWith(&SaxpyText::extents, "extent(x: n) extent(y: n - 2000)"), saxpy(),
              "with the tune defaults the extent of 'y' is -976", {"1024"});
  // A negative integer that sizes nothing is the user's business.
  ir::KernelSignature shifted =
      SignatureBuilder("k").integer("n").integer("shift").pointer("y", "float");
  EXPECT_TRUE(buildKernel("partition(n) offset(n) extent(y: n) copy(y[lo:hi]) "
                          "launch(grid: len, block: 1) tune(n = 64, shift = -3)",
                          shifted)
                  .kernel.has_value());
}

// The tuner's own call must pass the run-time check that one launch over the whole partition
// gives the length parameter the caller's value: im2col's offset(n = len * hc * wc) at tune(n = 5).
TEST(Diagnostics, TuneDefaultsThatFailTheLengthCheck) {
  const ir::KernelSignature planes =
      SignatureBuilder("k").integer("n").integer("hw").pointer("y", "float");
  const std::string clauses = "param(int channels) partition(channels) offset(n = len * hw)"
                              " extent(y: channels * hw) copy(y[lo * hw : hi * hw])"
                              " launch(grid: ceil_div(len * hw, 256), block: 256)";
  EXPECT_TRUE(buildKernel(clauses + " tune(channels = 64, hw = 50, n = channels * hw)", planes)
                  .kernel.has_value());
  expectError(clauses + " tune(channels = 64, hw = 50, n = 5)", planes,
              "with the tune defaults one launch over the whole partition (P = 64) passes n = "
              "3200 (len * hw), but the tune default of 'n' is 5",
              {"5", 0, "n = 5)"});
}

// Offset mode gives the length parameter each chunk's length, but a grid that names it reads the
// whole call's: correct, and every chunk launches the whole grid, so a warning at the name.
TEST(Diagnostics, OffsetModeGridOfTheWholeCallIsAWarning) {
  const std::string text =
      saxpyWith(&SaxpyText::launch, "launch(grid: ceil_div(n, 256), block: 256)");
  annotation::SemaResult result = buildKernel(text, saxpy());
  EXPECT_TRUE(result.kernel.has_value());
  ASSERT_EQ(result.diagnostics.size(), 1u) << formatDiagnostics(result.diagnostics);
  const Diagnostic& d = result.diagnostics[0];
  EXPECT_EQ(d.severity, Diagnostic::Severity::Warning);
  EXPECT_NE(d.message.find("the grid uses 'n', the whole call's length"), std::string::npos)
      << d.message;
  EXPECT_EQ(d.offset, text.find("n, 256"));
  EXPECT_EQ(d.length, 1u);
  // Sized by len: nothing to say.
  EXPECT_TRUE(buildKernel(SaxpyText().str(), saxpy()).diagnostics.empty());
}

// A bare offset leaves the kernel only the grid to know its chunk by: a grid of no chunk makes
// every chunk run past its section, so a warning; len in the grid or a bound length is fine.
TEST(Diagnostics, BareOffsetGridOfNoChunkIsAWarning) {
  const ir::KernelSignature signature =
      SignatureBuilder("rotary").pointer("q", "float").integer("dim");
  const auto build = [&](const std::string& rest) {
    return buildKernel("param(int tokens) partition(tokens) offset extent(q: tokens * dim) "
                       "copy(q[lo * dim : hi * dim]) " +
                           rest,
                       signature);
  };
  const std::string grid = "launch(grid: tokens, block: dim) tune(tokens = 4, dim = 8)";
  const annotation::SemaResult whole = build(grid);
  EXPECT_TRUE(whole.kernel.has_value());
  ASSERT_EQ(whole.diagnostics.size(), 1u) << formatDiagnostics(whole.diagnostics);
  EXPECT_EQ(whole.diagnostics[0].severity, Diagnostic::Severity::Warning);
  EXPECT_NE(whole.diagnostics[0].message.find("with a bare offset each chunk's kernel knows its "
                                              "chunk only from the grid"),
            std::string::npos);
  EXPECT_TRUE(build("launch(grid: len, block: dim) tune(tokens = 4, dim = 8)").diagnostics.empty());
}

// Offset mode gives the length parameter each chunk's length: a section scaled by it (the rows
// of an N x N matrix) reads the whole call's, which a kernel striding by its n would not.
TEST(Diagnostics, OffsetModeSectionScaledByTheLengthIsAWarning) {
  const ir::KernelSignature signature =
      SignatureBuilder("gesummv").pointer("a", "float").pointer("y", "float").integer("n");
  const std::string text = "partition(n) offset(n) extent(a: n * n, y: n) "
                           "copyin(a[lo * n : hi * n]) copyout(y[lo:hi]) "
                           "launch(grid: ceil_div(len, 256), block: 256)";
  const annotation::SemaResult result = buildKernel(text, signature);
  EXPECT_TRUE(result.kernel.has_value());
  ASSERT_EQ(result.diagnostics.size(), 1u) << formatDiagnostics(result.diagnostics);
  EXPECT_EQ(result.diagnostics[0].severity, Diagnostic::Severity::Warning);
  EXPECT_NE(result.diagnostics[0].message.find("this section uses 'n', the whole call's length"),
            std::string::npos);
  EXPECT_EQ(result.diagnostics[0].offset, text.find("n : hi"));
}

// grid: len / 4 gives a chunk's last len % 4 elements no block: chunk bounds inside a group of 4
// would skip elements one launch covers, so a warning unless a granule keeps bounds on groups.
TEST(Diagnostics, GridDroppingAChunksRemainderIsAWarning) {
  const std::string text = saxpyWith(&SaxpyText::launch, "launch(grid: len / 4, block: 64)");
  annotation::SemaResult result = buildKernel(text, saxpy());
  EXPECT_TRUE(result.kernel.has_value());
  ASSERT_EQ(result.diagnostics.size(), 1u) << formatDiagnostics(result.diagnostics);
  EXPECT_EQ(result.diagnostics[0].severity, Diagnostic::Severity::Warning);
  EXPECT_NE(result.diagnostics[0].message.find(
                "this grid launches no block for a chunk's last len % 4 elements"),
            std::string::npos)
      << result.diagnostics[0].message;
  EXPECT_EQ(result.diagnostics[0].offset, text.find("len / 4"));
  for (const char* also : {"launch(grid: ceil_div(len / 4, 16), block: 16)",
                           "launch(grid: len * 512 / 1024, block: 64)"}) { // len % 2 left
    SCOPED_TRACE(also);
    EXPECT_EQ(buildKernel(saxpyWith(&SaxpyText::launch, also), saxpy()).diagnostics.size(), 1u);
  }
  // The granule derived from a float4 access of a float array keeps bounds on groups of 4.
  ir::KernelSignature vectorized = saxpy();
  vectorized.params[2].vectorAccessAlignment = 16;
  EXPECT_TRUE(buildKernel(text, vectorized).diagnostics.empty());
  // A granule of a multiple of 4, a rounded-up grid, or one that adds a block: nothing to say.
  for (const char* fine :
       {"granule(8) launch(grid: len / 4, block: 64)", "launch(grid: ceil_div(len, 4), block: 64)",
        "launch(grid: len / 4 + 1, block: 64)", "launch(grid: len * 1024 / 512, block: 64)"}) {
    SCOPED_TRACE(fine);
    const annotation::SemaResult quiet = buildKernel(saxpyWith(&SaxpyText::launch, fine), saxpy());
    EXPECT_TRUE(quiet.diagnostics.empty()) << formatDiagnostics(quiet.diagnostics);
  }
}

// Offset mode passes an array advanced to its section's begin: a shared section past element 0
// is one the kernel must index from 0, which a kernel indexing the whole array would not.
TEST(Diagnostics, OffsetModeSharedSectionPastTheStartIsAWarning) {
  const ir::KernelSignature signature = SignatureBuilder("fdtd")
                                            .pointer("fict", "float", true)
                                            .pointer("ey", "float")
                                            .integer("n")
                                            .integer("t");
  const std::string text = "partition(n) offset(n) extent(fict: t + 1, ey: n) "
                           "copyin(fict[t : t + 1]) copy(ey[lo:hi]) "
                           "launch(grid: ceil_div(len, 256), block: 256)";
  const annotation::SemaResult result = buildKernel(text, signature);
  EXPECT_TRUE(result.kernel.has_value());
  ASSERT_EQ(result.diagnostics.size(), 1u) << formatDiagnostics(result.diagnostics);
  EXPECT_EQ(result.diagnostics[0].severity, Diagnostic::Severity::Warning);
  EXPECT_NE(result.diagnostics[0].message.find(
                "offset mode passes 'fict' advanced to this section's begin (t)"),
            std::string::npos)
      << result.diagnostics[0].message;
  EXPECT_EQ(result.diagnostics[0].offset, text.find("t : t"));
  std::string fromZero = text;
  fromZero.replace(fromZero.find("fict[t : t + 1]"), 15, "fict[0 : t + 1]");
  EXPECT_TRUE(buildKernel(fromZero, signature).diagnostics.empty());
}

// A bare offset leaves the kernel's guard the whole call's: a grid rounded up to whole blocks
// runs the last block's extra threads over the next chunk, so a warning at the rounding.
TEST(Diagnostics, BareOffsetGridRoundedPastTheChunkIsAWarning) {
  const ir::KernelSignature signature =
      SignatureBuilder("scale").pointer("y", "float").integer("n");
  const auto build = [&](const std::string& rest) {
    return buildKernel("partition(n) offset extent(y: n) copy(y[lo:hi]) " + rest, signature);
  };
  const annotation::SemaResult rounded =
      build("launch(grid: ceil_div(len, 256), block: 256) tune(n = 1024)");
  ASSERT_EQ(rounded.diagnostics.size(), 1u) << formatDiagnostics(rounded.diagnostics);
  EXPECT_EQ(rounded.diagnostics[0].severity, Diagnostic::Severity::Warning);
  EXPECT_NE(rounded.diagnostics[0].message.find(
                "with a bare offset the kernel does not know where its chunk ends"),
            std::string::npos);
  // The granule suggested is the grid's own block.
  const annotation::SemaResult eight =
      build("launch(grid: (4, ceil_div(len, 8)), block: (32, 8)) tune(n = 1024)");
  ASSERT_EQ(eight.diagnostics.size(), 1u) << formatDiagnostics(eight.diagnostics);
  EXPECT_NE(eight.diagnostics[0].message.find("(granule(8) with grid: len / 8)"), std::string::npos)
      << eight.diagnostics[0].message;
  // The chunk's length given to the kernel, or exactly the chunk's threads: nothing to say.
  for (const char* fine : {"bind(n = len) launch(grid: ceil_div(len, 256), block: 256)",
                           "granule(256) launch(grid: len / 256, block: 256) tune(n = 1024)"}) {
    SCOPED_TRACE(fine);
    const annotation::SemaResult quiet = build(fine);
    EXPECT_TRUE(quiet.diagnostics.empty()) << formatDiagnostics(quiet.diagnostics);
  }
}

// Range mode indexes globally: a kernel that never reads its END (or has none) keeps the whole
// call's guard, so a grid rounded up runs each chunk's last block over the next chunk.
TEST(Diagnostics, RangeGridRoundedPastAChunkTheKernelCannotEndIsAWarning) {
  SignatureBuilder builder("scale");
  builder.pointer("y", "float").integer("n").integer("first").integer("last");
  ir::KernelSignature signature = builder;
  const auto build = [&](const std::string& mode, const std::string& rest) {
    return buildKernel("partition(n) " + mode + " extent(y: n) copy(y[lo:hi]) " + rest, signature);
  };
  const std::string rounded = "launch(grid: ceil_div(len, 256), block: 256)";
  for (const char* mode : {"range(first)", "range(first, last)"}) {
    SCOPED_TRACE(mode);
    signature.params[3].named = false; // the body never reads `last`
    const annotation::SemaResult warned = build(mode, rounded);
    ASSERT_EQ(warned.diagnostics.size(), 1u) << formatDiagnostics(warned.diagnostics);
    EXPECT_EQ(warned.diagnostics[0].severity, Diagnostic::Severity::Warning);
    EXPECT_NE(warned.diagnostics[0].message.find("the kernel never reads where its chunk ends"),
              std::string::npos);
    EXPECT_NE(warned.diagnostics[0].message.find("granule(256)"), std::string::npos);
  }
  // An END the kernel reads, a binding of the end, or chunks of whole blocks: nothing to say.
  signature.params[3].named = true;
  EXPECT_TRUE(build("range(first, last)", rounded).diagnostics.empty());
  signature.params[3].named = false;
  for (const std::string& fine :
       {"range(first) bind(last = hi) " + rounded, "range(first) granule(512) " + rounded,
        std::string("range(first) launch(grid: len, block: 1)")}) {
    SCOPED_TRACE(fine);
    const annotation::SemaResult quiet = build("", fine);
    EXPECT_TRUE(quiet.diagnostics.empty()) << formatDiagnostics(quiet.diagnostics);
  }
}

TEST(Diagnostics, NoDataClauseAtAll) {
  ir::KernelSignature signature = SignatureBuilder("k").integer("n");
  expectError("partition(n) offset(n) launch(grid: len, block: 1)", signature,
              "no data clause: name the kernel's arrays in copyin, copyout or copy", {});
}

TEST(Diagnostics, WholeArrayAndSectionMixed) {
  std::string text = saxpyWith(&SaxpyText::data, "copyin(x, x[lo:hi]) copy(y[lo:hi])");
  expectError(text, saxpy(), "'x' is named both as a whole array and with a section",
              inside("x", "x[lo"));
}

// --- clauses that must appear once --------------------------------------------------------------

TEST(Diagnostics, MissingPartition) {
  std::string text = saxpyWith(&SaxpyText::partition, "");
  expectError(text, saxpy(), "missing partition(EXPR) clause", {});
}

TEST(Diagnostics, DuplicatePartition) {
  std::string text = saxpyWith(&SaxpyText::partition, "partition(n) partition(n)");
  expectError(text, saxpy(), "duplicate 'partition' clause", {"partition", 1});
}

TEST(Diagnostics, DuplicateLaunch) {
  std::string text = SaxpyText{}.str() + " launch(grid: 1, block: 1)";
  expectError(text, saxpy(), "duplicate 'launch' clause", {"launch", 1});
}

TEST(Diagnostics, MissingLaunch) {
  std::string text = saxpyWith(&SaxpyText::launch, "");
  expectError(text, saxpy(), "missing launch clause", {});
}

// --- modes --------------------------------------------------------------------------------------

TEST(Diagnostics, NoMode) {
  std::string text = saxpyWith(&SaxpyText::mode, "");
  expectError(text, saxpy(), "missing chunk mode: add offset(PARAM)", {});
}

TEST(Diagnostics, BothModes) {
  ir::KernelSignature signature =
      SignatureBuilder("k").integer("n").integer("b").integer("e").pointer("y", "float");
  expectError("partition(n) offset(n) range(b, e) extent(y: n) copyout(y[lo:hi]) "
              "launch(grid: len, block: 1)",
              signature, "both offset and range given; choose one mode", {"range"});
}

TEST(Diagnostics, DuplicateOffset) {
  std::string text = saxpyWith(&SaxpyText::mode, "offset(n) offset(n)");
  expectError(text, saxpy(), "duplicate 'offset' clause", {"offset", 1});
}

TEST(Diagnostics, OffsetParameterThatIsAFloat) {
  std::string text = saxpyWith(&SaxpyText::mode, "offset(a)");
  expectError(text, saxpy(),
              "parameter 'a' has type 'float'; offset needs an integer scalar parameter that "
              "receives the chunk length",
              {"a", 1});
}

TEST(Diagnostics, OffsetParameterThatIsAPointer) {
  std::string text = saxpyWith(&SaxpyText::mode, "offset(x)");
  expectError(text, saxpy(), "'x' is a pointer; offset needs an integer scalar parameter",
              {"x", 0});
}

TEST(Diagnostics, RangeParameterThatIsAPointer) {
  expectError("partition(levels) range(begin, t) extent(t, b: levels) copyin(t[lo:hi]) "
              "copyout(b[lo:hi]) launch(grid: len, block: 1)",
              testing::buoydiffSignature(),
              "'t' is a pointer; range needs an integer scalar parameter that receives hi",
              inside("t", "t)"));
}

TEST(Diagnostics, RangeBeginEqualsEnd) {
  expectError("partition(levels) range(begin, begin) extent(t, b: levels) copyin(t[lo:hi]) "
              "copyout(b[lo:hi]) launch(grid: len, block: 1)",
              testing::buoydiffSignature(), "range begin and end are the same parameter 'begin'",
              {"begin", 1});
}

TEST(Diagnostics, RangeParameterInExtent) {
  expectError("partition(levels) range(begin, end) extent(t, b: levels * end) copyin(t[lo:hi]) "
              "copyout(b[lo:hi]) launch(grid: len, block: 1)",
              testing::buoydiffSignature(), "'end' is set per chunk by the generator", {"end", 1});
}

TEST(Diagnostics, RangeParameterInSectionSuggestsLo) {
  expectError("partition(levels) range(begin, end) extent(t, b: levels) copyin(t[begin:hi]) "
              "copyout(b[lo:hi]) launch(grid: len, block: 1)",
              testing::buoydiffSignature(), "write lo instead", {"begin", 1});
}

// Range parameters named lo and hi are read as any others: the partition that reads them takes
// the caller's bounds (partition(lo : hi)), one that reads the end alone is refused alike.
TEST(Diagnostics, RangeParameterNamedLoInPartition) {
  ir::KernelSignature signature =
      SignatureBuilder("rows").integer("lo").integer("hi").integer("n").pointer("v", "float");
  expectError("partition(hi) range(lo, hi) extent(v: n) copyout(v[lo:hi]) "
              "launch(grid: len, block: 32)",
              signature, "the partition reads the range bounds the generator sets per chunk",
              {"hi"});
  const ir::Kernel kernel = testing::buildOk("partition(lo : hi) range(lo, hi) extent(v: hi) "
                                             "copyout(v[lo:hi]) launch(grid: len, block: 32)",
                                             signature);
  EXPECT_TRUE(kernel.boundsFromCaller);
}

// --- extents ------------------------------------------------------------------------------------

TEST(Diagnostics, ArrayWithoutExtent) {
  std::string text = saxpyWith(&SaxpyText::extents, "extent(x: n)");
  expectError(text, saxpy(), "array 'y' has no extent; add extent(y: ELEMENTS)",
              inside("y", "y[lo"));
}

TEST(Diagnostics, ExtentOfAScalar) {
  std::string text = saxpyWith(&SaxpyText::extents, "extent(x, y, n: n)");
  expectError(text, saxpy(), "'n' is not an array; extent lists the arrays", inside("n", "n: n"));
}

TEST(Diagnostics, ExtentGivenTwice) {
  std::string text = saxpyWith(&SaxpyText::extents, "extent(x, y: n) extent(y: n)");
  expectError(text, saxpy(), "extent of 'y' given twice", {"y", 1});
}

TEST(Diagnostics, ExtentGroupsInOneClause) {
  // extent(x: n, y: n) reads as extent(x: n) extent(y: n).
  const ir::Kernel kernel =
      testing::buildOk(saxpyWith(&SaxpyText::extents, "extent(x: n, y: n - 0)"), saxpy());
  ASSERT_EQ(kernel.arrays.size(), 2u);
  std::string text = saxpyWith(&SaxpyText::extents, "extent(x: n, y: n, x: n)");
  expectError(text, saxpy(), "extent of 'x' given twice", inside("x", "x: n)"));
}

// --- sections -----------------------------------------------------------------------------------

TEST(Diagnostics, ProductOfChunkBoundsIsNotAffine) {
  std::string text = saxpyWith(&SaxpyText::data, "copyin(x[lo*hi:hi]) copy(y[lo:hi])");
  expectError(text, saxpy(), "section bound 'lo * hi' is not affine in lo and hi", {"lo*hi"});
}

TEST(Diagnostics, DivisionOfChunkBoundIsNotAffine) {
  std::string text = saxpyWith(&SaxpyText::data, "copyin(x[lo:hi]) copy(y[lo/2:hi])");
  expectError(text, saxpy(), "section bound 'lo / 2' is not affine", {"lo/2"});
}

TEST(Diagnostics, MinOfChunkBoundIsNotAffine) {
  std::string text = saxpyWith(&SaxpyText::data, "copyin(x[lo:min(hi, n)]) copy(y[lo:hi])");
  expectError(text, saxpy(), "section bound 'min(hi, n)' is not affine", {"min(hi, n)"});
}

TEST(Diagnostics, SectionWithNegativeSize) {
  std::string text = saxpyWith(&SaxpyText::data, "copyin(x[hi:lo]) copy(y[lo:hi])");
  expectError(text, saxpy(), "section of 'x' can have a negative size", {"[hi:lo]"});
}

TEST(Diagnostics, StartLengthSectionHasNegativeSize) {
  // OpenACC's [start:length] written by habit: [lo:len] ends before it begins for lo > len.
  std::string text = saxpyWith(&SaxpyText::data, "copyin(x[lo:len]) copy(y[lo:hi])");
  expectError(text, saxpy(), "not [start:length]", {"[lo:len]"});
}

// A "valid" 3x3 convolution: (h - 2) x (w - 2) outputs from h x w inputs. Its row stride w - 2
// is negative only at w = 1, where the extent of 'out' is negative too (refused at run time), or
// the partition h - 2 is empty: no call uses its sections there, so they are not judged there.
TEST(Diagnostics, SectionsAreJudgedOnlyWhereACallUsesThem) {
  ir::KernelSignature conv = SignatureBuilder("conv3x3_valid")
                                 .pointer("in", "float", true)
                                 .pointer("out", "float")
                                 .integer("h")
                                 .integer("w")
                                 .integer("r0")
                                 .integer("r1");
  const std::string clauses = "partition(h - 2) range(r0, r1) extent(in: h * w) "
                              "extent(out: (h - 2) * (w - 2)) copyin(in[lo * w : (hi + 2) * w]) ";
  const std::string launch = " launch(grid: (ceil_div(w - 2, 32), len), block: 32)";
  ir::Kernel kernel =
      testing::buildOk(clauses + "copyout(out[lo * (w - 2) : hi * (w - 2)])" + launch, conv);
  ASSERT_EQ(kernel.arrays.size(), 2u);
  // Where calls do use them, sections that overlap are still refused.
  expectError(clauses + "copyout(out[lo * (w - 2) : (hi + 1) * (w - 2)])" + launch, conv,
              "sections of output 'out' overlap between adjacent chunks",
              {"[lo * (w - 2) : (hi + 1) * (w - 2)]"});
  expectError(clauses + "copyout(out[hi * (w - 2) : lo * (w - 2)])" + launch, conv,
              "section of 'out' can have a negative size", {"[hi * (w - 2) : lo * (w - 2)]"});
}

// A partition that reads the range bounds must be partition(BEGIN : END): partition(iy_end) would
// run chunks over [0, iy_end) whatever the caller's iy_start, where a direct launch covers
// [iy_start, iy_end).
TEST(Diagnostics, APartitionReadsTheRangeBoundsOnlyAsBeginAndEnd) {
  const ir::KernelSignature jacobi = SignatureBuilder("jacobi")
                                         .pointer("a_new", "float")
                                         .pointer("a", "float", true)
                                         .integer("iy_start")
                                         .integer("iy_end")
                                         .integer("nx");
  const std::string rest =
      " range(iy_start, iy_end) extent(a, a_new: (iy_end + 1) * nx)"
      " copyin(a[(lo - 1) * nx : (hi + 1) * nx]) copy(a_new[lo * nx : hi * nx])"
      " launch(grid: (ceil_div(nx, 32), ceil_div(len, 4)), block: (32, 4))";
  EXPECT_TRUE(buildKernel("partition(iy_start : iy_end)" + rest, jacobi).kernel.has_value());
  for (const std::string partition :
       {"iy_end", "iy_start", "0 : iy_end", "iy_end : iy_start", "iy_start : iy_start + nx"}) {
    SCOPED_TRACE(partition);
    expectError("partition(" + partition + ")" + rest, jacobi,
                "the partition reads the range bounds the generator sets per chunk; to give every "
                "call the caller's bounds, write partition(iy_start : iy_end)",
                {partition});
  }
}

TEST(Diagnostics, OutputWithoutSection) {
  std::string text = saxpyWith(&SaxpyText::data, "copyin(x[lo:hi]) copy(y)");
  expectError(text, saxpy(),
              "copy of 'y' without a chunked section: every chunk would write the whole array",
              inside("y", "y)"));
}

TEST(Diagnostics, OutputWithOnlyABroadcastSection) {
  std::string text = saxpyWith(&SaxpyText::data, "copyin(x[lo:hi]) copy(y[0:n])");
  expectError(text, saxpy(), "every chunk would write the whole array", {"[0:n]"});
}

TEST(Diagnostics, OutputWithSeveralSections) {
  std::string text = saxpyWith(&SaxpyText::data, "copyin(x[lo:hi]) copy(y[lo:hi], y[0:1])");
  expectError(text, saxpy(), "output array 'y' has several sections", {"[0:1]"});
}

TEST(Diagnostics, OutputSectionsOverlap) {
  expectError("partition(levels) range(begin, end) extent(t, b: levels) copyin(t[lo:hi]) "
              "copyout(b[lo:hi+1]) launch(grid: len, block: 1)",
              testing::buoydiffSignature(),
              "sections of output 'b' overlap between adjacent chunks", {"[lo:hi+1]"});
}

TEST(Diagnostics, OutputSectionThatOverlapsOnlyForSomeParameterValues) {
  // The end moves by k + (n - k)^2 per chunk while the begin moves by k: they tile only where
  // n == k, which the rotated parameter samples avoid.
  expectError("partition(m) offset(m) extent(a: m*k) extent(b: k*n) extent(c: m*n) "
              "copyin(a[lo*k:hi*k], b) copyout(c[lo*k : hi*k + lo*(n-k)*(n-k)]) "
              "launch(grid: len, block: 1)",
              testing::matmulSignature(), "sections of output 'c' overlap",
              {"[lo*k : hi*k + lo*(n-k)*(n-k)]"});
}

TEST(Diagnostics, CopyArrayWithHalo) {
  expectError("partition(levels) range(begin, end) extent(t, b: levels) copyin(t[lo:hi]) "
              "copy(b[lo-1:hi+1]) launch(grid: len, block: 1)",
              testing::buoydiffSignature(),
              "copy array 'b' has a halo: its sections overlap between adjacent chunks, so reads "
              "of neighbours' writes would race; split it into a copyin and a copyout array",
              {"[lo-1:hi+1]"});
}

TEST(Diagnostics, OffsetModeWithHalo) {
  std::string text = saxpyWith(&SaxpyText::data, "copyin(x[lo-1:hi+1]) copy(y[lo:hi])");
  expectError(text, saxpy(),
              "offset mode passes each array from its section's begin; give the chunk's own "
              "section, such as x[lo:hi], and add halo(x: BEFORE, AFTER)",
              {"[lo-1:hi+1]"});
  // The chunk's own part of a section in rows: its begin's terms in lo, to the next chunk's.
  std::string rows = saxpyWith(&SaxpyText::data, "copyin(x[lo * 2 - 2 : hi * 2]) copy(y[lo:hi])");
  expectError(rows, saxpy(), "such as x[lo * 2 : hi * 2], and add halo(x: BEFORE, AFTER)",
              {"[lo * 2 - 2 : hi * 2]"});
}

TEST(Diagnostics, OffsetModeWithSeveralSections) {
  std::string text = saxpyWith(&SaxpyText::data, "copyin(x[0:1], x[lo:hi]) copy(y[lo:hi])");
  expectError(text, saxpy(), "offset mode passes each array from its section's begin", {"[lo:hi]"});
}

// --- launch -------------------------------------------------------------------------------------

TEST(Diagnostics, LaunchWithoutGrid) {
  std::string text = saxpyWith(&SaxpyText::launch, "launch(block: 256)");
  expectError(text, saxpy(), "launch needs 'grid: DIM' (or 'gridstride'", {"launch"});
}

TEST(Diagnostics, LaunchWithoutBlock) {
  std::string text = saxpyWith(&SaxpyText::launch, "launch(grid: len)");
  expectError(text, saxpy(), "launch needs 'block: DIM'", {"launch"});
}

TEST(Diagnostics, UnknownLaunchKeySuggestsTheClosest) {
  std::string text = saxpyWith(&SaxpyText::launch, "launch(grid: len, blocks: 256)");
  expectError(text, saxpy(), "unknown launch key 'blocks'; did you mean 'block'?", {"blocks"});
}

TEST(Diagnostics, GridStrideTogetherWithGrid) {
  std::string text =
      saxpyWith(&SaxpyText::launch, "launch(gridstride, block: 256, grid: ceil_div(len, 256))");
  expectError(text, saxpy(), "gridstride and grid exclude each other", inside("grid", "grid:"));
}

TEST(Diagnostics, MoreThanThreeDimensions) {
  std::string text = saxpyWith(&SaxpyText::launch, "launch(grid: (len, 1, 1, 1), block: 256)");
  expectError(text, saxpy(), "'grid' has 4 dimensions; dim3 has at most 3", {"(len, 1, 1, 1)"});
}

TEST(Diagnostics, SharedWithSeveralValues) {
  std::string text =
      saxpyWith(&SaxpyText::launch, "launch(grid: len, block: 256, shared: (256, 4))");
  expectError(text, saxpy(), "shared takes one expression", {"(256, 4)"});
}

TEST(Diagnostics, DuplicateLaunchKey) {
  std::string text = saxpyWith(&SaxpyText::launch, "launch(grid: len, block: 256, block: 128)");
  expectError(text, saxpy(), "duplicate 'block' in launch", {"block", 1});
}

TEST(Diagnostics, LaunchKeyWithoutValue) {
  std::string text = saxpyWith(&SaxpyText::launch, "launch(grid: len, block)");
  expectError(text, saxpy(), "'block' needs a value: block: DIM", {"block"});
}

// --- tune ---------------------------------------------------------------------------------------

TEST(Diagnostics, TuneOfUnknownParameter) {
  std::string text = saxpyWith(&SaxpyText::tune, "tune(size = 1024)");
  expectError(text, saxpy(), "'size' is not a parameter of kernel 'saxpy'", {"size"});
}

TEST(Diagnostics, TuneOfPointer) {
  std::string text = saxpyWith(&SaxpyText::tune, "tune(x = 1024)");
  expectError(text, saxpy(), "'x' is a pointer; tune gives defaults to integer scalar parameters",
              inside("x", "x = "));
}

TEST(Diagnostics, TuneOfFloat) {
  std::string text = saxpyWith(&SaxpyText::tune, "tune(a = 2)");
  expectError(text, saxpy(), "parameter 'a' has type 'float'; tune gives defaults to integer",
              inside("a", "a = "));
}

TEST(Diagnostics, TuneGivenTwice) {
  std::string text = saxpyWith(&SaxpyText::tune, "tune(n = 1024, n = 2048)");
  expectError(text, saxpy(), "tune default for 'n' given twice", inside("n", "n = 2048"));
}

TEST(Diagnostics, TuneUsesParameterWithoutDefault) {
  expectError("partition(m) offset(m) extent(a: m*k) extent(b: k*n) extent(c: m*n) "
              "copyin(a[lo*k:hi*k], b) copyout(c[lo*n:hi*n]) launch(grid: len, block: 1) "
              "tune(m = 2 * k)",
              testing::matmulSignature(), "tune default of 'm' uses 'k', which has no tune default",
              inside("k", "2 * k"));
}

TEST(Diagnostics, TuneDefaultsThatDependOnEachOther) {
  std::string text = "partition(m) offset(m) extent(a: m*k) extent(b: k*n) extent(c: m*n) "
                     "copyin(a[lo*k:hi*k], b) copyout(c[lo*n:hi*n]) launch(grid: len, block: 1) "
                     "tune(m = k + 1, k = m - 1, n = 3)";
  expectError(text, testing::matmulSignature(),
              "tune default of 'm' depends on itself through other tune defaults", {"k + 1"});
}

// --- kernel -------------------------------------------------------------------------------------

TEST(Diagnostics, TemplatedKernel) {
  ir::KernelSignature signature = testing::saxpySignature();
  signature.isTemplate = true;
  expectError(SaxpyText{}.str(), signature, "kernel 'saxpy' is a template", {});
}

// --- several errors at once, without cascades ---------------------------------------------------

TEST(Diagnostics, ReportsEveryIndependentError) {
  SaxpyText parts;
  parts.partition = "partition(q)";
  parts.launch = "launch(grid: ceil_div(len, 256), threads: 256)";
  parts.tune = "tune(a = 1)";
  annotation::SemaResult result = buildKernel(parts.str(), saxpy());
  EXPECT_FALSE(result.kernel.has_value());
  std::string all = formatDiagnostics(result.diagnostics);
  ASSERT_EQ(result.diagnostics.size(), 3u) << all;
  EXPECT_NE(all.find("'q' is not a parameter"), std::string::npos) << all;
  // CUDA's name for the block: the key it means, and no "launch needs 'block'" after it.
  EXPECT_NE(all.find("unknown launch key 'threads'; did you mean 'block'?"), std::string::npos)
      << all;
  EXPECT_NE(all.find("parameter 'a' has type 'float'; tune"), std::string::npos) << all;
  for (size_t i = 1; i < result.diagnostics.size(); ++i)
    EXPECT_LE(result.diagnostics[i - 1].offset, result.diagnostics[i].offset)
        << "in the order of the text:\n"
        << all;
}

TEST(Diagnostics, MisspelledClauseIsNotAlsoReportedMissing) {
  // 'partiton' is taken for the partition the user meant: no "missing partition" on top.
  std::string text = saxpyWith(&SaxpyText::partition, "partiton(n)");
  expectError(text, saxpy(), "did you mean 'partition'?", {"partiton"});
}

TEST(Diagnostics, SyntaxErrorInOneClauseDoesNotStopTheOthers) {
  SaxpyText parts;
  parts.extents = "extent(x, y n)"; // syntax error: its arrays must not be called extent-less
  parts.tune = "tune(n = 1 < 4)";
  annotation::SemaResult result = buildKernel(parts.str(), saxpy());
  std::string all = formatDiagnostics(result.diagnostics);
  ASSERT_EQ(result.diagnostics.size(), 2u) << all;
  EXPECT_NE(result.diagnostics[0].message.find("expected ',' or ':' in 'extent'"),
            std::string::npos)
      << all;
  EXPECT_NE(result.diagnostics[1].message.find("operator '<' is not supported"), std::string::npos)
      << all;
}

TEST(Diagnostics, BrokenDataClauseDoesNotLeavePointersWithoutDirection) {
  std::string text = saxpyWith(&SaxpyText::data, "copyin(x[lo:hi]) copy(y[lo:hi)");
  annotation::SemaResult result = buildKernel(text, saxpy());
  ASSERT_EQ(result.diagnostics.size(), 1u) << formatDiagnostics(result.diagnostics);
  EXPECT_NE(result.diagnostics[0].message.find("expected ']'"), std::string::npos);
}

TEST(Diagnostics, EmptyAnnotationNamesEveryMissingClause) {
  annotation::SemaResult result = buildKernel("  // nothing yet\n", saxpy());
  std::string all = formatDiagnostics(result.diagnostics);
  EXPECT_NE(all.find("missing partition"), std::string::npos) << all;
  EXPECT_NE(all.find("missing chunk mode"), std::string::npos) << all;
  EXPECT_NE(all.find("no data clause"), std::string::npos) << all;
  EXPECT_NE(all.find("missing launch clause"), std::string::npos) << all;
  EXPECT_EQ(result.diagnostics.size(), 4u) << all;
}

} // namespace
} // namespace overlap
