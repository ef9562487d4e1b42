// buildKernel on good annotations: the IR that the emitter and the tuner rely on.
#include "SignatureBuilder.h"
#include "annotation/AnnotationSema.h"

#include <gtest/gtest.h>

#include <string>

namespace overlap {
namespace {

using annotation::buildKernel;
using annotation::SemaResult;
using testing::buildOk;
using testing::formatDiagnostics;
using testing::SignatureBuilder;

ir::Environment paramsOnly(std::vector<long long> values) {
  ir::Environment env;
  env.param = [values](int p) -> std::optional<long long> {
    if (p < 0 || static_cast<size_t>(p) >= values.size())
      return std::nullopt;
    return values[p];
  };
  return env;
}

ir::Environment withChunk(ir::Environment env, long long lo, long long hi) {
  env.lo = lo;
  env.hi = hi;
  return env;
}

long long eval(const ir::ExprPtr& e, const ir::Environment& env) {
  EXPECT_TRUE(e);
  if (!e)
    return -1;
  std::optional<long long> value = ir::evaluate(*e, env);
  EXPECT_TRUE(value.has_value()) << ir::toSource(*e);
  return value.value_or(-1);
}

std::string textAt(const std::string& text, const ir::ExprPtr& e) {
  return text.substr(e->offset, e->length);
}

const std::string kSaxpy = "partition(n) offset(n)\n"
                           "               extent(x, y: n)\n"
                           "               copyin(x[lo:hi]) copy(y[lo:hi])\n"
                           "               launch(grid: ceil_div(len, 256), block: 256)\n"
                           "               tune(n = 67108864)";

TEST(BuildKernel, SaxpyOffsetMode) {
  ir::Kernel k = buildOk(kSaxpy, testing::saxpySignature());
  EXPECT_EQ(k.signature.name, "saxpy");
  EXPECT_EQ(k.mode, ir::ChunkMode::Offset);
  EXPECT_EQ(k.lengthParam, 0);
  EXPECT_EQ(k.beginParam, -1);
  EXPECT_EQ(k.endParam, -1);
  EXPECT_TRUE(k.file.empty());
  EXPECT_EQ(k.line, 0u);

  ASSERT_TRUE(k.partition);
  EXPECT_EQ(k.partition->kind, ir::ExprKind::Param);
  EXPECT_EQ(k.partition->param, 0);
  EXPECT_EQ(textAt(kSaxpy, k.partition), "n");

  ASSERT_EQ(k.arrays.size(), 2u);
  const ir::Array& x = k.arrays[0];
  const ir::Array& y = k.arrays[1];
  EXPECT_EQ(x.param, 2);
  EXPECT_EQ(x.direction, ir::Direction::In);
  EXPECT_EQ(y.param, 3);
  EXPECT_EQ(y.direction, ir::Direction::InOut);
  EXPECT_EQ(kSaxpy.substr(x.offset, 1), "x");
  EXPECT_EQ(x.offset, kSaxpy.find("x[lo"));
  EXPECT_EQ(y.offset, kSaxpy.find("y[lo"));
  ASSERT_EQ(x.sections.size(), 1u);
  ASSERT_EQ(y.sections.size(), 1u);
  EXPECT_TRUE(x.sections[0].chunked());
  EXPECT_EQ(x.sections[0].begin->kind, ir::ExprKind::ChunkLo);
  EXPECT_EQ(x.sections[0].end->kind, ir::ExprKind::ChunkHi);

  ir::Environment env = paramsOnly({1000});
  EXPECT_EQ(eval(x.extent, env), 1000);
  EXPECT_EQ(eval(y.extent, env), 1000);

  EXPECT_FALSE(k.launch.gridStride);
  EXPECT_EQ(eval(k.launch.grid[0], withChunk(env, 100, 613)), 3); // ceil(513 / 256)
  EXPECT_EQ(k.launch.grid[1], nullptr);
  EXPECT_EQ(k.launch.grid[2], nullptr);
  EXPECT_EQ(eval(k.launch.block[0], env), 256);
  EXPECT_EQ(k.launch.block[1], nullptr);
  EXPECT_EQ(k.launch.sharedBytes, nullptr);
  EXPECT_EQ(textAt(kSaxpy, k.launch.grid[0]), "ceil_div(len, 256)");

  ASSERT_EQ(k.tuneDefaults.size(), 1u);
  EXPECT_EQ(k.tuneDefaults[0].param, 0);
  EXPECT_EQ(eval(k.tuneDefaults[0].value, env), 67108864);
}

const std::string kMatmul = "partition(m) offset(m) extent(a: m*k) extent(b: k*n) extent(c: m*n) "
                            "copyin(a[lo*k:hi*k], b) copyout(c[lo*n:hi*n]) launch(grid: "
                            "(ceil_div(n,16), ceil_div(len,16)), block: (16,16))";

TEST(BuildKernel, MatmulWithBroadcastB) {
  ir::Kernel k = buildOk(kMatmul, testing::matmulSignature());
  EXPECT_EQ(k.mode, ir::ChunkMode::Offset);
  EXPECT_EQ(k.lengthParam, 0);
  ASSERT_EQ(k.arrays.size(), 3u);
  const ir::Array& a = k.arrays[0];
  const ir::Array& b = k.arrays[1];
  const ir::Array& c = k.arrays[2];
  EXPECT_EQ(a.param, 3);
  EXPECT_EQ(b.param, 4);
  EXPECT_EQ(c.param, 5);
  EXPECT_EQ(b.direction, ir::Direction::In);
  EXPECT_TRUE(b.sections.empty()) << "a whole array is a broadcast input";
  EXPECT_EQ(c.direction, ir::Direction::Out);

  ir::Environment env = paramsOnly({/*m*/ 30, /*n*/ 50, /*k*/ 7});
  EXPECT_EQ(eval(a.extent, env), 30 * 7);
  EXPECT_EQ(eval(b.extent, env), 7 * 50);
  EXPECT_EQ(eval(c.extent, env), 30 * 50);

  ir::Environment chunk = withChunk(env, 4, 9);
  EXPECT_EQ(eval(a.sections[0].begin, chunk), 4 * 7);
  EXPECT_EQ(eval(a.sections[0].end, chunk), 9 * 7);
  EXPECT_EQ(eval(c.sections[0].begin, chunk), 4 * 50);
  EXPECT_EQ(eval(c.sections[0].end, chunk), 9 * 50);

  EXPECT_EQ(eval(k.launch.grid[0], chunk), 4); // ceil(50 / 16)
  EXPECT_EQ(eval(k.launch.grid[1], chunk), 1); // ceil(5 / 16)
  EXPECT_EQ(k.launch.grid[2], nullptr);
  EXPECT_EQ(eval(k.launch.block[0], chunk), 16);
  EXPECT_EQ(eval(k.launch.block[1], chunk), 16);
  EXPECT_EQ(k.launch.block[2], nullptr);
  EXPECT_TRUE(k.tuneDefaults.empty());
}

const std::string kBuoydiff = "partition(levels) range(begin, end)\n"
                              "extent(t, b: levels * plane)\n"
                              "copyin(t[0:plane], t[(lo - 1) * plane : hi * plane])\n"
                              "copyout(b[lo * plane : hi * plane])\n"
                              "launch(grid: (ceil_div(plane, 128), len), block: 128,\n"
                              "       shared: 128 * 8)\n"
                              "tune(levels = 64, plane = levels * 4096)";

TEST(BuildKernel, BuoydiffRangeModeWithHalo) {
  ir::Kernel k = buildOk(kBuoydiff, testing::buoydiffSignature());
  EXPECT_EQ(k.mode, ir::ChunkMode::Range);
  EXPECT_EQ(k.lengthParam, -1);
  EXPECT_EQ(k.beginParam, 0);
  EXPECT_EQ(k.endParam, 1);

  ASSERT_EQ(k.arrays.size(), 2u);
  const ir::Array& t = k.arrays[0];
  const ir::Array& b = k.arrays[1];
  EXPECT_EQ(t.param, 4);
  EXPECT_EQ(b.param, 5);
  ASSERT_EQ(t.sections.size(), 2u);
  EXPECT_FALSE(t.sections[0].chunked()) << "level 0 is sent once";
  EXPECT_TRUE(t.sections[1].chunked());
  EXPECT_EQ(textAt(kBuoydiff, t.sections[1].begin), "(lo - 1) * plane");

  ir::Environment env = paramsOnly({0, 0, 10, 100});
  EXPECT_EQ(eval(t.extent, env), 1000);
  ir::Environment chunk = withChunk(env, 3, 6);
  EXPECT_EQ(eval(t.sections[0].begin, chunk), 0);
  EXPECT_EQ(eval(t.sections[0].end, chunk), 100);
  EXPECT_EQ(eval(t.sections[1].begin, chunk), 200);
  EXPECT_EQ(eval(t.sections[1].end, chunk), 600);
  EXPECT_EQ(eval(b.sections[0].begin, chunk), 300);
  EXPECT_EQ(eval(b.sections[0].end, chunk), 600);

  EXPECT_EQ(eval(k.launch.grid[1], chunk), 3);
  EXPECT_EQ(eval(k.launch.sharedBytes, chunk), 1024);

  ASSERT_EQ(k.tuneDefaults.size(), 2u);
  EXPECT_EQ(k.tuneDefaults[0].param, 2);
  EXPECT_EQ(k.tuneDefaults[1].param, 3);
  EXPECT_TRUE(ir::mentionsParam(*k.tuneDefaults[1].value, 2));
}

TEST(BuildKernel, ParameterNamedLenOutsideChunkContexts) {
  // Outside sections and launch, len is the parameter; inside, the chunk length.
  ir::KernelSignature signature = SignatureBuilder("scale").integer("len").pointer("v", "float");
  std::string text = "partition(len) offset(len) extent(v: len) copy(v[lo:hi]) "
                     "launch(grid: ceil_div(len, 128), block: 128) tune(len = 2 * 1024)";
  ir::Kernel k = buildOk(text, signature);
  ASSERT_TRUE(k.partition);
  EXPECT_EQ(k.partition->kind, ir::ExprKind::Param);
  EXPECT_EQ(k.partition->param, 0);
  EXPECT_EQ(k.arrays[0].extent->kind, ir::ExprKind::Param);
  EXPECT_EQ(k.launch.grid[0]->operands[0]->kind, ir::ExprKind::ChunkLen);
  EXPECT_EQ(eval(k.tuneDefaults[0].value, paramsOnly({})), 2048);
}

TEST(BuildKernel, RangeParametersNamedLoAndHi) {
  ir::KernelSignature signature =
      SignatureBuilder("rows").integer("lo").integer("hi").integer("n").pointer("v", "float");
  ir::Kernel k = buildOk("partition(n) range(lo, hi) extent(v: n) copyout(v[lo:hi]) "
                         "launch(grid: len, block: 32)",
                         signature);
  EXPECT_EQ(k.mode, ir::ChunkMode::Range);
  EXPECT_EQ(k.beginParam, 0);
  EXPECT_EQ(k.endParam, 1);
  EXPECT_EQ(k.arrays[0].sections[0].begin->kind, ir::ExprKind::ChunkLo);
}

TEST(BuildKernel, GridStrideLaunchAndUnsignedParameters) {
  ir::KernelSignature signature =
      SignatureBuilder("fill").integer("count", "size_t").boolean("flag").pointer("out", "int");
  ir::Kernel k = buildOk("partition(count) offset(count) extent(out: count + flag) "
                         "copyout(out[lo:hi]) launch(gridstride, block: 256)",
                         signature);
  EXPECT_TRUE(k.launch.gridStride);
  EXPECT_EQ(k.launch.grid[0], nullptr);
  EXPECT_EQ(eval(k.arrays[0].extent, paramsOnly({10, 1})), 11);
}

} // namespace
} // namespace overlap
