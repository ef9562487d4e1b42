// The clauses for kernels as people publish them: granule, offset(n = VALUE) and the bare offset,
// partition(BEGIN : END), range with one bound or none, bind, reduce, halo, optional, param,
// instantiate, sizeof and the file's constants. Each test states the IR the emitter relies on,
// and the misuse of each clause is refused with a located message (DiagnosticsTest.cpp has the
// older clauses').
#include "SignatureBuilder.h"
#include "annotation/AnnotationSema.h"
#include "annotation/Instantiations.h"

#include <gtest/gtest.h>

#include <string>

namespace overlap {
namespace {

using annotation::buildKernel;
using testing::buildOk;
using testing::formatDiagnostics;
using testing::SignatureBuilder;

// The one error building reports, with where it points.
struct Finding {
  std::string message;
  std::string spelled; // the text it underlines
};

Finding buildError(const std::string& text, const ir::KernelSignature& signature) {
  annotation::SemaResult result = buildKernel(text, signature);
  EXPECT_FALSE(result.kernel.has_value());
  EXPECT_EQ(result.diagnostics.size(), 1u) << formatDiagnostics(result.diagnostics);
  if (result.diagnostics.empty())
    return {};
  const annotation::Diagnostic& d = result.diagnostics[0];
  return {d.message, text.substr(d.offset, d.length)};
}

ir::Environment values(std::vector<long long> params, std::optional<long long> lo = std::nullopt,
                       std::optional<long long> hi = std::nullopt) {
  ir::Environment env;
  env.param = [params](int p) -> std::optional<long long> {
    if (p < 0 || static_cast<std::size_t>(p) >= params.size())
      return std::nullopt;
    return params[p];
  };
  env.lo = lo;
  env.hi = hi;
  return env;
}

long long eval(const ir::ExprPtr& e, const ir::Environment& env) {
  EXPECT_TRUE(e);
  if (!e)
    return -1;
  return ir::evaluate(*e, env).value_or(-1);
}

// hadd(const __half* x, __half* y, int n): n counts halves, the arrays hold pairs of them.
ir::KernelSignature pairs() {
  return SignatureBuilder("hadd").pointer("x", "float", true).pointer("y", "float").integer("n");
}

const std::string kPairsBody = " extent(x, y: n / 2) copyin(x[lo:hi]) copyout(y[lo:hi])"
                               " launch(grid: ceil_div(len, 256), block: 256)";

TEST(ChunkingClauses, OffsetWithALengthValue) {
  const ir::Kernel kernel = buildOk("partition(n / 2) offset(n = 2 * len)" + kPairsBody, pairs());
  EXPECT_EQ(kernel.mode, ir::ChunkMode::Offset);
  EXPECT_EQ(kernel.lengthParam, 2);
  // The kernel's n for a chunk of 5 pairs.
  EXPECT_EQ(eval(kernel.lengthValue, values({0, 0, 11}, 10, 15)), 10);
}

TEST(ChunkingClauses, APartitionThatNeverPassesTheCallersLengthIsRefused) {
  // Every variant would compute half of the work: n receives the pair count.
  const Finding f = buildError("partition(n / 2) offset(n)" + kPairsBody, pairs());
  EXPECT_NE(f.message.find("one launch over the whole partition P = n / 2 passes 'n' P, never "
                           "the caller's n"),
            std::string::npos)
      << f.message;
  EXPECT_NE(f.message.find("offset(n = 2 * len)"), std::string::npos) << f.message;
  EXPECT_EQ(f.spelled, "n");
}

TEST(ChunkingClauses, ALengthThePartitionDoesNotNameIsLeftToTheCall) {
  // n = 2 * rows holds for callers that pass it so (the generated checkCall tells the others);
  // darknet's maxpool counts its elements in n and its rows in a host parameter.
  const ir::Kernel kernel =
      buildOk("param(int rows) partition(rows) offset(n = 2 * len) extent(x, y: 2 * rows)"
              " copyin(x[2 * lo : 2 * hi]) copyout(y[2 * lo : 2 * hi])"
              " launch(grid: ceil_div(2 * len, 256), block: 256) tune(rows = 1024, n = 2 * rows)",
              pairs());
  EXPECT_EQ(kernel.lengthParam, 2);
  // A partition of n that passes n its half never matches, whatever the caller passes.
  const Finding f =
      buildError("param(int rows) partition(n / 2) offset(n = len)" + kPairsBody, pairs());
  EXPECT_NE(f.message.find("never the caller's n"), std::string::npos) << f.message;
}

TEST(ChunkingClauses, ALengthValueOfLoIsRefused) {
  const Finding f = buildError("partition(n / 2) offset(n = 2 * lo)" + kPairsBody, pairs());
  EXPECT_NE(f.message.find("'lo' cannot be used in the chunk length value"), std::string::npos)
      << f.message;
  EXPECT_EQ(f.spelled, "lo");
}

TEST(ChunkingClauses, BareOffsetForAKernelWithoutALength) {
  // One block per row: rows come from param(...), the kernel takes only the row width.
  const ir::KernelSignature rowSum = SignatureBuilder("row_sum")
                                         .pointer("in", "float", true)
                                         .pointer("out", "float")
                                         .integer("cols");
  const ir::Kernel kernel =
      buildOk("param(int rows) partition(rows) offset extent(in: rows * cols) extent(out: rows)"
              " copyin(in[lo * cols : hi * cols]) copyout(out[lo:hi])"
              " launch(grid: len, block: 256) tune(rows = 4096, cols = 1024)",
              rowSum);
  EXPECT_EQ(kernel.lengthParam, -1);
  ASSERT_EQ(kernel.signature.params.size(), 4u);
  const ir::Parameter& rows = kernel.signature.params[3];
  EXPECT_EQ(rows.name, "rows");
  EXPECT_TRUE(rows.hostOnly);
  EXPECT_EQ(rows.valueType, "int");
  EXPECT_EQ(rows.scalarKind, ir::ScalarKind::SignedInteger);
  EXPECT_EQ(eval(kernel.partition, values({0, 0, 7, 9})), 9);
  ASSERT_EQ(kernel.tuneDefaults.size(), 2u);
  EXPECT_EQ(kernel.tuneDefaults[0].param, 3);
}

TEST(ChunkingClauses, ParamNeedsAnIntegerTypeAndANewName) {
  const ir::KernelSignature rowSum =
      SignatureBuilder("row_sum").pointer("in", "float", true).integer("cols");
  const std::string rest = " partition(rows) offset extent(in: rows) copyin(in[lo:hi])"
                           " launch(grid: len, block: 1)";
  Finding f = buildError("param(float rows)" + rest, rowSum);
  EXPECT_NE(f.message.find("'float' is not an integer type param(...) takes"), std::string::npos);
  EXPECT_EQ(f.spelled, "float");
  f = buildError("param(int rows, long cols)" + rest, rowSum);
  EXPECT_NE(f.message.find("'cols' is already a parameter"), std::string::npos);
  EXPECT_EQ(f.spelled, "cols");
}

TEST(ChunkingClauses, ParamTakesEverySpellingOfAnIntegerType) {
  const ir::KernelSignature rowSum =
      SignatureBuilder("row_sum").pointer("in", "float", true).integer("cols");
  const std::string rest = " partition(rows) offset extent(in: rows) copyin(in[lo:hi])"
                           " launch(grid: len, block: 1)";
  const std::pair<const char*, const char*> spellings[] = {{"std::size_t", "size_t"},
                                                           {"long int", "long"},
                                                           {"unsigned long int", "unsigned long"},
                                                           {"short int", "short"},
                                                           {"std::int64_t", "int64_t"},
                                                           {"uint", "unsigned int"},
                                                           {"unsigned", "unsigned"}};
  for (const auto& [spelled, declared] : spellings) {
    SCOPED_TRACE(spelled);
    const ir::Kernel kernel = buildOk("param(" + std::string(spelled) + " rows)" + rest, rowSum);
    ASSERT_EQ(kernel.signature.params.size(), 3u);
    EXPECT_EQ(kernel.signature.params[2].name, "rows");
    EXPECT_EQ(kernel.signature.params[2].type, declared);
  }
  // A qualified name that is no type param(...) knows is one error, at the whole name.
  const Finding f = buildError("param(std::string rows)" + rest, rowSum);
  EXPECT_NE(f.message.find("'std::string' is not an integer type"), std::string::npos) << f.message;
  EXPECT_EQ(f.spelled, "std::string");
}

TEST(ChunkingClauses, ParamTakesATypeOfTheFileAsTheBuiltinTypeItIs) {
  // The frontend says what the file's names stand for; a builtin spelling wins over them.
  ir::KernelSignature rowSum =
      SignatureBuilder("row_sum").pointer("in", "float", true).integer("cols");
  rowSum.typeAliases = {{"Index_t", "int"}, {"ns::idx", "unsigned long"}, {"real", "float"}};
  const std::string rest = " partition(rows) offset extent(in: rows) copyin(in[lo:hi])"
                           " launch(grid: len, block: 1)";
  const ir::Kernel kernel = buildOk("param(Index_t rows, ns::idx first)" + rest, rowSum);
  ASSERT_EQ(kernel.signature.params.size(), 4u);
  EXPECT_EQ(kernel.signature.params[2].type, "int");
  EXPECT_EQ(kernel.signature.params[2].scalarKind, ir::ScalarKind::SignedInteger);
  EXPECT_EQ(kernel.signature.params[3].type, "unsigned long");
  EXPECT_EQ(kernel.signature.params[3].scalarKind, ir::ScalarKind::UnsignedInteger);
  // A type of the file that is no integer is refused, saying what it is.
  const Finding f = buildError("param(real rows)" + rest, rowSum);
  EXPECT_NE(f.message.find("'real' ('float') is not an integer type"), std::string::npos)
      << f.message;
  EXPECT_EQ(f.spelled, "real");
}

// A stencil over rows [iy_start, iy_end): the caller passes both.
ir::KernelSignature jacobi() {
  return SignatureBuilder("jacobi")
      .pointer("a_new", "float")
      .pointer("a", "float", true)
      .integer("iy_start")
      .integer("iy_end")
      .integer("nx");
}

const std::string kJacobi =
    "partition(iy_start : iy_end) range(iy_start, iy_end)"
    " extent(a, a_new: (iy_end + 1) * nx)"
    " copyin(a[(lo - 1) * nx : (hi + 1) * nx]) copy(a_new[lo * nx : hi * nx])"
    " launch(grid: (ceil_div(nx, 32), ceil_div(len, 4)), block: (32, 4))";

TEST(ChunkingClauses, PartitionWithAnOriginKeepsTheRangeBoundsAsCallerArguments) {
  const ir::Kernel kernel = buildOk(kJacobi, jacobi());
  EXPECT_TRUE(kernel.boundsFromCaller);
  EXPECT_TRUE(ir::isCallerParam(kernel, 2));
  EXPECT_TRUE(ir::isCallerParam(kernel, 3));
  // iy_start = 1, iy_end = 99: P = 98 rows from row 1.
  EXPECT_EQ(eval(kernel.partitionBegin, values({0, 0, 1, 99, 64})), 1);
  EXPECT_EQ(eval(kernel.partition, values({0, 0, 1, 99, 64})), 98);
}

TEST(ChunkingClauses, WithoutAnOriginTheRangeBoundsAreSetPerChunk) {
  const ir::Kernel kernel =
      buildOk("partition(levels) range(begin, end) extent(t, b: levels * plane)"
              " copyin(t[lo * plane : hi * plane]) copyout(b[lo * plane : hi * plane])"
              " launch(grid: len, block: 128)",
              testing::buoydiffSignature());
  EXPECT_FALSE(kernel.boundsFromCaller);
  EXPECT_FALSE(ir::isCallerParam(kernel, 0));
  EXPECT_FALSE(kernel.partitionBegin);
}

TEST(ChunkingClauses, RangeWithOnlyABeginAndBind) {
  // kernel(float* a, int offset): a[offset + i], the grid covers the chunk.
  const ir::KernelSignature async =
      SignatureBuilder("kernel").pointer("a", "float").integer("offset");
  const ir::Kernel begin =
      buildOk("param(int n) partition(n) range(offset) extent(a: n) copy(a[lo:hi]) granule(256)"
              " launch(grid: ceil_div(len, 256), block: 256)",
              async);
  EXPECT_EQ(begin.beginParam, 1);
  EXPECT_EQ(begin.endParam, -1);
  const ir::Kernel bound =
      buildOk("param(int n) partition(n) range bind(offset = offset + lo) extent(a: offset + n)"
              " copy(a[offset + lo : offset + hi]) granule(256)"
              " launch(grid: ceil_div(len, 256), block: 256)",
              async);
  EXPECT_EQ(bound.beginParam, -1);
  ASSERT_EQ(bound.bindings.size(), 1u);
  EXPECT_EQ(bound.bindings[0].param, 1);
  // The caller's offset 1000, chunk [30, 40): the kernel gets 1030.
  EXPECT_EQ(eval(bound.bindings[0].value, values({0, 1000, 64}, 30, 40)), 1030);
}

TEST(ChunkingClauses, BindRefusesArraysTheModesParametersAndProducts) {
  const std::string rest = " extent(x, y: n / 2) copyin(x[lo:hi]) copyout(y[lo:hi])"
                           " launch(grid: len, block: 1)";
  Finding f = buildError("partition(n / 2) offset(n = 2 * len) bind(n = lo)" + rest, pairs());
  EXPECT_NE(f.message.find("already receives the chunk from the offset or range clause"),
            std::string::npos);
  f = buildError("partition(n / 2) offset(n = 2 * len) bind(x = lo)" + rest, pairs());
  EXPECT_NE(f.message.find("bind sets integer scalar parameters"), std::string::npos);
  EXPECT_EQ(f.spelled, "x");
  const ir::KernelSignature twoLengths = SignatureBuilder("k")
                                             .pointer("x", "float", true)
                                             .pointer("y", "float")
                                             .integer("n")
                                             .integer("k");
  f = buildError("partition(n) offset(n) bind(k = lo * hi) extent(x, y: n) copyin(x[lo:hi])"
                 " copyout(y[lo:hi]) launch(grid: len, block: 1)",
                 twoLengths);
  EXPECT_NE(f.message.find("bound value 'lo * hi' is not affine"), std::string::npos);
}

TEST(ChunkingClauses, Granule) {
  const ir::Kernel kernel =
      buildOk("partition(n / 2) offset(n = 2 * len) granule(4)" + kPairsBody, pairs());
  EXPECT_EQ(eval(kernel.granule, values({})), 4);
  const Finding f =
      buildError("partition(n / 2) offset(n = 2 * len) granule(0)" + kPairsBody, pairs());
  EXPECT_NE(f.message.find("granule 0 is not positive"), std::string::npos);
  EXPECT_EQ(f.spelled, "0");
  const Finding chunk =
      buildError("partition(n / 2) offset(n = 2 * len) granule(len)" + kPairsBody, pairs());
  EXPECT_NE(chunk.message.find("'len' cannot be used in the granule"), std::string::npos);
}

// reduce into a residual norm and a histogram; halo; optional.
ir::KernelSignature stencil() {
  return SignatureBuilder("stencil")
      .pointer("in", "float", true)
      .pointer("out", "float")
      .pointer("norm", "float")
      .pointer("mask", "int")
      .integer("n")
      .integer("w");
}

const std::string kStencilBase = "partition(n) offset(n) extent(in, out: n * w) extent(norm: 1)"
                                 " extent(mask: n) launch(grid: len, block: 256)";

TEST(ArrayClauses, ReduceHaloAndOptional) {
  const ir::Kernel kernel = buildOk(
      kStencilBase + " copyin(in[lo * w : hi * w]) halo(in: 8 * w, 4 * w)"
                     " copyout(out[lo * w : hi * w], mask[lo:hi]) optional(mask) reduce(+: norm)",
      stencil());
  ASSERT_EQ(kernel.arrays.size(), 4u);
  const ir::Array& in = kernel.arrays[0];
  EXPECT_EQ(eval(in.haloBefore, values({0, 0, 0, 0, 10, 3})), 24);
  EXPECT_EQ(eval(in.haloAfter, values({0, 0, 0, 0, 10, 3})), 12);
  const ir::Array& norm = kernel.arrays[2];
  EXPECT_EQ(norm.reduce, ir::ReduceOp::Sum);
  EXPECT_EQ(norm.direction, ir::Direction::InOut);
  EXPECT_TRUE(norm.sections.empty());
  EXPECT_TRUE(kernel.arrays[3].optional);
  EXPECT_FALSE(kernel.arrays[1].optional);
  // The bitwise operators combine integers.
  ir::KernelSignature integerNorm = stencil();
  integerNorm.params[2] = SignatureBuilder("k").pointer("norm", "int").build().params[0];
  auto bitwise = [](ir::ReduceOp op) {
    return op == ir::ReduceOp::BitAnd || op == ir::ReduceOp::BitOr || op == ir::ReduceOp::BitXor;
  };
  for (const auto& [op, kind] :
       std::vector<std::pair<std::string, ir::ReduceOp>>{{"*", ir::ReduceOp::Product},
                                                         {"min", ir::ReduceOp::Min},
                                                         {"max", ir::ReduceOp::Max},
                                                         {"&", ir::ReduceOp::BitAnd},
                                                         {"|", ir::ReduceOp::BitOr},
                                                         {"^", ir::ReduceOp::BitXor}}) {
    const ir::Kernel other = buildOk(kStencilBase +
                                         " copyin(in[lo * w : hi * w])"
                                         " copyout(out[lo * w : hi * w], mask[lo:hi])"
                                         " reduce(" +
                                         op + ": norm)",
                                     bitwise(kind) ? integerNorm : stencil());
    EXPECT_EQ(other.arrays[2].reduce, kind) << op;
  }
}

TEST(ArrayClauses, MisusedReduceHaloAndOptional) {
  const std::string outputs = " copyout(out[lo * w : hi * w], mask[lo:hi])";
  Finding f = buildError(kStencilBase + " copyin(in[lo * w : hi * w])" + outputs +
                             " reduce(+: norm) copy(norm)",
                         stencil());
  EXPECT_NE(f.message.find("'norm' is already in reduce"), std::string::npos) << f.message;
  f = buildError(kStencilBase + " copyin(in[lo * w : hi * w])" + outputs + " reduce(avg: norm)",
                 stencil());
  EXPECT_NE(f.message.find("expected a reduction operator"), std::string::npos) << f.message;
  EXPECT_EQ(f.spelled, "avg");
  f = buildError(kStencilBase + " copyin(in[lo * w : hi * w])" + outputs +
                     " reduce(+: norm) halo(out: w)",
                 stencil());
  EXPECT_NE(f.message.find("'out' is an output; a halo widens what an input's chunks read"),
            std::string::npos);
  f = buildError(kStencilBase + " copyin(in)" + outputs + " reduce(+: norm) halo(in: w)",
                 stencil());
  EXPECT_NE(f.message.find("needs exactly one section that depends on the chunk"),
            std::string::npos);
  f = buildError(kStencilBase + " copyin(in[lo * w : hi * w])" + outputs +
                     " reduce(+: norm) halo(in: -1)",
                 stencil());
  EXPECT_NE(f.message.find("halo width -1 is negative"), std::string::npos);
  f = buildError(kStencilBase + " copyin(in[lo * w : hi * w])" + outputs +
                     " reduce(+: norm) optional(n)",
                 stencil());
  EXPECT_NE(f.message.find("'n' is not an array of copyin, copyout, copy or reduce"),
            std::string::npos);
}

TEST(ArrayClauses, OffsetModeHaloIsSuggestedForAWiderSection) {
  const Finding f = buildError(kStencilBase + " copyin(in[(lo - 8) * w : (hi + 8) * w])"
                                              " copyout(out[lo * w : hi * w], mask[lo:hi])"
                                              " reduce(+: norm)",
                               stencil());
  EXPECT_NE(f.message.find("add halo(in: BEFORE, AFTER)"), std::string::npos) << f.message;
}

// A kernel template's instantiation: its template arguments and the file's constants are names
// expressions may use.
TEST(Constants, TemplateArgumentsConstantsAndSizeof) {
  ir::KernelSignature signature =
      SignatureBuilder("conv").pointer("x", "float", true).pointer("y", "float").integer("n");
  signature.templateArguments = "<float, 128>";
  signature.constants = {{"BLOCK", 128}, {"KERNEL_RADIUS", 8}};
  signature.typeSizes = {{"T", 4}};
  const ir::Kernel kernel =
      buildOk("partition(n) offset(n) extent(x, y: n) copyin(x[lo:hi]) copyout(y[lo:hi])"
              " halo(x: KERNEL_RADIUS)"
              " launch(grid: ceil_div(len, BLOCK), block: BLOCK, shared: BLOCK * sizeof(T))",
              signature);
  EXPECT_EQ(eval(kernel.launch.block[0], values({})), 128);
  EXPECT_EQ(eval(kernel.launch.sharedBytes, values({})), 512);
  EXPECT_EQ(eval(kernel.arrays[0].haloBefore, values({})), 8);
  // A parameter of the same name wins over a constant.
  signature.constants.push_back({"n", 5});
  const ir::Kernel shadowed =
      buildOk("partition(n) offset(n) extent(x, y: n) copyin(x[lo:hi]) copyout(y[lo:hi])"
              " launch(grid: len, block: 1)",
              signature);
  EXPECT_EQ(eval(shadowed.partition, values({0, 0, 77})), 77);
}

TEST(Constants, SizeofAnUnknownType) {
  const Finding f = buildError(
      "partition(n) offset(n) extent(x, y: n) copyin(x[lo:hi])"
      " copyout(y[lo:hi]) launch(grid: len, block: 1, shared: sizeof(U))",
      SignatureBuilder("k").pointer("x", "float", true).pointer("y", "float").integer("n"));
  EXPECT_NE(f.message.find("sizeof(U): not a type the annotation knows"), std::string::npos);
  EXPECT_EQ(f.spelled, "sizeof(U)");
}

TEST(Instantiations, ListedInTheTemplatesOrder) {
  ir::KernelSignature templ;
  templ.name = "sum";
  templ.isTemplate = true;
  templ.templateParams = {{"T", true, false}, {"BLOCK", false, false}, {"ATOMIC", false, true}};
  const std::string text = "partition(n) instantiate(BLOCK = 256, T = float)"
                           " instantiate(hsum: T = __half, BLOCK = 2 * 64, ATOMIC = true)";
  const annotation::InstantiationsResult result = annotation::instantiationsOf(text, templ);
  EXPECT_TRUE(result.diagnostics.empty()) << formatDiagnostics(result.diagnostics);
  ASSERT_EQ(result.instantiations.size(), 2u);
  EXPECT_EQ(result.instantiations[0].name, "");
  EXPECT_EQ(result.instantiations[0].arguments, (std::vector<std::string>{"float", "256", ""}));
  EXPECT_EQ(result.instantiations[1].name, "hsum");
  EXPECT_EQ(result.instantiations[1].arguments,
            (std::vector<std::string>{"__half", "2 * 64", "true"}));
  EXPECT_EQ(annotation::derivedEntryName("sum", {"float", "256"}), "sum_float_256");
  EXPECT_EQ(annotation::derivedEntryName("sum", {"unsigned int", "ns::Vec<float>"}),
            "sum_unsigned_int_ns_Vec_float");
  // Arguments that differ only in a sign or a pointer get different names.
  EXPECT_EQ(annotation::derivedEntryName("shift", {"-1"}), "shift_m1");
  EXPECT_EQ(annotation::derivedEntryName("shift", {"1"}), "shift_1");
  EXPECT_EQ(annotation::derivedEntryName("shift", {"ns::Offset<-2>"}), "shift_ns_Offset_m2");
  EXPECT_EQ(annotation::derivedEntryName("sum", {"float *", "4"}), "sum_float_ptr_4");
  EXPECT_EQ(annotation::derivedEntryName("sum", {"const float **"}), "sum_const_float_ptr_ptr");
}

TEST(Instantiations, MissingDuplicatedAndOutOfOrderParameters) {
  ir::KernelSignature templ;
  templ.name = "sum";
  templ.isTemplate = true;
  templ.templateParams = {{"T", true, false}, {"B", false, true}, {"C", false, true}};
  const auto errors = [&](const std::string& text) {
    return formatDiagnostics(annotation::instantiationsOf(text, templ).diagnostics);
  };
  EXPECT_NE(errors("instantiate(B = 1)").find("gives no value for template parameter 'T'"),
            std::string::npos);
  EXPECT_NE(errors("instantiate(T = int, T = float)").find("'T' given twice"), std::string::npos);
  EXPECT_NE(errors("instantiate(T = int, C = 2)")
                .find("leaves 'B' to its default but gives a "
                      "later template parameter"),
            std::string::npos);
  EXPECT_NE(errors("instantiate(a: T = int) instantiate(a: T = float)")
                .find("another instantiate is already named 'a'"),
            std::string::npos);
  // A kernel that is no template takes no instantiate.
  const Finding f = buildError(
      "partition(n) offset(n) extent(x, y: n) copyin(x[lo:hi])"
      " copyout(y[lo:hi]) launch(grid: len, block: 1)"
      " instantiate(T = float)",
      SignatureBuilder("k").pointer("x", "float", true).pointer("y", "float").integer("n"));
  EXPECT_NE(f.message.find("kernel 'k' is not a template"), std::string::npos);
}

TEST(Instantiations, ExpressionNamesInTextOrder) {
  const std::string text = "partition(rows) offset extent(in: rows * W) copyin(in[lo * W : hi * W])"
                           " launch(grid: ceil_div(len, BLOCK), block: BLOCK) tune(rows = ROWS)";
  const std::vector<annotation::Name> names = annotation::expressionNames(text);
  std::vector<std::string> spelled;
  for (const annotation::Name& name : names)
    spelled.push_back(name.text);
  EXPECT_EQ(spelled, (std::vector<std::string>{"rows", "W", "BLOCK", "ROWS"}));
  EXPECT_EQ(names[1].offset, text.find("W")); // the first W
}

} // namespace
} // namespace overlap
