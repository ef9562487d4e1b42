// Every generated variant of every example against the Explicit variant and a CPU reference, on
// fresh random inputs, at the odd sizes where chunking goes wrong first: one element, fewer
// elements than streams, a prime, and 2^24 + 3. Calls the generated host functions the way a user
// does, with pageable std::vector memory.
//
// OVERLAP_TEST_MAX_EXTENT=<n> drops the larger sizes (the compute-sanitizer run uses it).
#include "ExampleCases.h"
#include "GpuTestSupport.h"
#include "buoydiff.overlap.h"
#include "matmul.overlap.h"
#include "saxpy.overlap.h"

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace {

using overlap::test::bitwiseEqual;

// One generator for the whole run: the inputs of each size are made once and shared by every
// variant (Prepared below). Its seed is printed once and traced in every test.
overlap::test::Random& random() {
  static overlap::test::Random* const generator = [] {
    auto* made = new overlap::test::Random;
    std::printf("%s\n", made->trace().c_str());
    return made;
  }();
  return *generator;
}

// Never zero (Random::fill): a zero would hide an element that was never copied.
std::vector<float> randomFloats(long long count) {
  std::vector<float> values(static_cast<size_t>(count));
  random().fill(values.data(), values.size());
  return values;
}

// Bit equality with the first difference named.
testing::AssertionResult sameBits(const std::vector<float>& got, const std::vector<float>& want) {
  if (got.size() != want.size())
    return testing::AssertionFailure() << "sizes " << got.size() << " vs " << want.size();
  return bitwiseEqual(want.data(), got.data(), got.size());
}

using Case = overlap::test::ExampleCase;
using overlap::test::caseName;
using overlap::test::configOf;

std::vector<Case> allCases() {
  using overlap::IssueOrder;
  std::vector<Case> cases = {{overlap::Variant::Explicit, 0, IssueOrder::DepthFirst},
                             {overlap::Variant::Mapped, 0, IssueOrder::DepthFirst}};
  for (overlap::Variant variant : {overlap::Variant::Streams, overlap::Variant::Hybrid})
    for (IssueOrder order : {IssueOrder::DepthFirst, IssueOrder::BreadthFirst}) {
      for (int streams : {1, 2, 3, 7, 16, 64})
        cases.push_back({variant, streams, order});
      // More chunks than streams, in full buffers; then out of core, where the ring of one slot
      // per stream turns 2, 3 and many times (never more chunks than elements, so the smaller
      // sizes turn fewer times).
      cases.push_back({variant, 3, order, 10});
      for (const auto& [streams, chunks] :
           {std::pair<int, int>{1, 1}, {2, 4}, {3, 9}, {7, 259}, {2, 1024}})
        cases.push_back({variant, streams, order, chunks, true});
    }
  return cases;
}

// The partition extents each case runs at: 1, N-1, a prime and 2^24 + 3.
std::vector<long long> extentsFor(const Case& c, long long large) {
  std::vector<long long> extents = {1, 1009, large};
  if (c.streams > 2)
    extents.push_back(c.streams - 1);
  std::vector<long long> kept;
  for (long long e : extents)
    if (e <= overlap::test::maxTestExtent())
      kept.push_back(e);
  return kept;
}

class ExampleTest : public testing::TestWithParam<Case> {
protected:
  void SetUp() override {
    OVERLAP_SKIP_WITHOUT_GPU();
    trace_.emplace(__FILE__, __LINE__, random().trace());
  }

  // Runs the case's variant through the generated function `run(variant functions...)`: the
  // streamed ones with (streams, order) where the case has no other setting, else with their
  // StreamsConfig, the two entry points a user calls.
  template <class Explicit, class Mapped, class Streams, class Hybrid>
  overlap::Status runVariant(Explicit&& explicitFn, Mapped&& mappedFn, Streams&& streamsFn,
                             Hybrid&& hybridFn) const {
    const Case& c = GetParam();
    const bool plain = c.chunks == 0 && !c.ring;
    switch (c.variant) {
    case overlap::Variant::Explicit:
      return explicitFn();
    case overlap::Variant::Mapped:
      return mappedFn();
    case overlap::Variant::Streams:
      return plain ? streamsFn(c.streams, c.order) : streamsFn(configOf(c));
    case overlap::Variant::Hybrid:
      return plain ? hybridFn(c.streams, c.order) : hybridFn(configOf(c));
    }
    return {cudaErrorInvalidValue, "unknown variant", __FILE__, __LINE__};
  }

private:
  std::optional<testing::ScopedTrace> trace_; // the seed, in every failure of the test
};

// Inputs and the Explicit result of one example at one size, made once per test run and shared
// by every variant: the CPU references of the large sizes take seconds.
struct Prepared {
  std::vector<std::vector<float>> inputs;
  std::vector<float> explicitResult;
  overlap::Status explicitStatus;
  std::string explicitVsCpu; // empty when Explicit equals the CPU reference bit for bit
};

template <class Make>
const Prepared& prepared(std::map<long long, Prepared>& cache, long long extent, Make&& make) {
  auto found = cache.find(extent);
  if (found == cache.end())
    found = cache.emplace(extent, make()).first;
  return found->second;
}

// Checks Explicit against the CPU and then the case's variant against Explicit.
#define OVERLAP_EXPECT_MATCHES(data, runVariant, output)                                           \
  do {                                                                                             \
    ASSERT_TRUE((data).explicitStatus.ok()) << (data).explicitStatus.message();                    \
    ASSERT_TRUE((data).explicitVsCpu.empty()) << "Explicit vs CPU: " << (data).explicitVsCpu;      \
    const overlap::Status status_ = (runVariant);                                                  \
    ASSERT_TRUE(status_.ok()) << status_.message();                                                \
    EXPECT_TRUE(sameBits((output), (data).explicitResult)) << "vs Explicit";                       \
  } while (0)

std::string compareWithCpu(const std::vector<float>& gpu, const std::vector<float>& cpu) {
  const testing::AssertionResult same = sameBits(gpu, cpu);
  return same ? std::string() : same.message();
}

// ---- saxpy: offset mode, an input and an inout array ----

const float kSaxpyA = 1.75f;

Prepared prepareSaxpy(long long extent) {
  const int n = static_cast<int>(extent);
  Prepared p;
  p.inputs = {randomFloats(n), randomFloats(n)}; // x, y
  const std::vector<float>& x = p.inputs[0];
  std::vector<float> cpu = p.inputs[1];
  for (size_t i = 0; i < cpu.size(); ++i)
    cpu[i] = std::fmaf(kSaxpyA, x[i], cpu[i]);
  p.explicitResult = p.inputs[1];
  p.explicitStatus = saxpy_explicit(n, kSaxpyA, x.data(), p.explicitResult.data());
  p.explicitVsCpu = compareWithCpu(p.explicitResult, cpu);
  return p;
}

TEST_P(ExampleTest, SaxpyMatchesExplicitAndCpu) {
  static std::map<long long, Prepared> cache;
  for (long long extent : extentsFor(GetParam(), (1LL << 24) + 3)) {
    SCOPED_TRACE("n = " + std::to_string(extent));
    const Prepared& data = prepared(cache, extent, [&] { return prepareSaxpy(extent); });
    const int n = static_cast<int>(extent);
    const float* x = data.inputs[0].data();
    std::vector<float> y = data.inputs[1];
    OVERLAP_EXPECT_MATCHES(
        data,
        runVariant([&] { return saxpy_explicit(n, kSaxpyA, x, y.data()); },
                   [&] { return saxpy_mapped(n, kSaxpyA, x, y.data()); },
                   [&](auto&&... how) { return saxpy_streams(n, kSaxpyA, x, y.data(), how...); },
                   [&](auto&&... how) { return saxpy_hybrid(n, kSaxpyA, x, y.data(), how...); }),
        y);
  }
}

// ---- matmul: offset mode, B broadcast, two-dimensional launch ----

const int kMatmulN = 7, kMatmulK = 5; // odd widths: no chunk boundary falls on a round multiple

Prepared prepareMatmul(long long extent) {
  const int m = static_cast<int>(extent), n = kMatmulN, k = kMatmulK;
  Prepared p;
  p.inputs = {randomFloats(1LL * m * k), randomFloats(1LL * k * n)}; // a, b
  const std::vector<float>& a = p.inputs[0];
  const std::vector<float>& b = p.inputs[1];
  std::vector<float> cpu(static_cast<size_t>(m) * n);
  for (int row = 0; row < m; ++row)
    for (int col = 0; col < n; ++col) {
      float sum = 0.0f;
      for (int i = 0; i < k; ++i)
        sum = std::fmaf(a[static_cast<size_t>(row) * k + i], b[static_cast<size_t>(i) * n + col],
                        sum);
      cpu[static_cast<size_t>(row) * n + col] = sum;
    }
  p.explicitResult = randomFloats(1LL * m * n);
  p.explicitStatus = matmul_explicit(m, n, k, a.data(), b.data(), p.explicitResult.data());
  p.explicitVsCpu = compareWithCpu(p.explicitResult, cpu);
  return p;
}

TEST_P(ExampleTest, MatmulMatchesExplicitAndCpu) {
  static std::map<long long, Prepared> cache;
  for (long long extent : extentsFor(GetParam(), (1LL << 24) + 3)) {
    SCOPED_TRACE("m = " + std::to_string(extent));
    const Prepared& data = prepared(cache, extent, [&] { return prepareMatmul(extent); });
    const int m = static_cast<int>(extent), n = kMatmulN, k = kMatmulK;
    const float* a = data.inputs[0].data();
    const float* b = data.inputs[1].data();
    std::vector<float> c = randomFloats(1LL * m * n); // stale values must be overwritten
    OVERLAP_EXPECT_MATCHES(
        data,
        runVariant([&] { return matmul_explicit(m, n, k, a, b, c.data()); },
                   [&] { return matmul_mapped(m, n, k, a, b, c.data()); },
                   [&](auto&&... how) { return matmul_streams(m, n, k, a, b, c.data(), how...); },
                   [&](auto&&... how) { return matmul_hybrid(m, n, k, a, b, c.data(), how...); }),
        c);
  }
}

// ---- buoydiff: range mode, a broadcast level and a halo into the previous chunk ----

const long long kBuoydiffPlane = 3;

Prepared prepareBuoydiff(long long extent) {
  const int levels = static_cast<int>(extent);
  const long long plane = kBuoydiffPlane;
  Prepared p;
  p.inputs = {randomFloats(levels * plane)}; // rho
  const std::vector<float>& rho = p.inputs[0];
  std::vector<float> cpu(static_cast<size_t>(levels * plane));
  for (int k = 0; k < levels; ++k)
    for (long long q = 0; q < plane; ++q) {
      const float surface = rho[q];
      const float here = rho[k * plane + q];
      const float above = k > 0 ? rho[(k - 1) * plane + q] : surface;
      cpu[k * plane + q] = (here - above) * (surface + 1.0f);
    }
  p.explicitResult = randomFloats(levels * plane);
  p.explicitStatus = buoydiff_explicit(levels, plane, rho.data(), p.explicitResult.data());
  p.explicitVsCpu = compareWithCpu(p.explicitResult, cpu);
  return p;
}

TEST_P(ExampleTest, BuoydiffMatchesExplicitAndCpu) {
  static std::map<long long, Prepared> cache;
  for (long long extent : extentsFor(GetParam(), (1LL << 24) + 3)) {
    SCOPED_TRACE("levels = " + std::to_string(extent));
    const Prepared& data = prepared(cache, extent, [&] { return prepareBuoydiff(extent); });
    const int levels = static_cast<int>(extent);
    const long long plane = kBuoydiffPlane;
    const float* rho = data.inputs[0].data();
    std::vector<float> out = randomFloats(levels * plane);
    OVERLAP_EXPECT_MATCHES(
        data,
        runVariant(
            [&] { return buoydiff_explicit(levels, plane, rho, out.data()); },
            [&] { return buoydiff_mapped(levels, plane, rho, out.data()); },
            [&](auto&&... how) { return buoydiff_streams(levels, plane, rho, out.data(), how...); },
            [&](auto&&... how) { return buoydiff_hybrid(levels, plane, rho, out.data(), how...); }),
        out);
  }
}

INSTANTIATE_TEST_SUITE_P(AllVariants, ExampleTest, testing::ValuesIn(allCases()), caseName);

// The descriptor table the tuner iterates over describes what the annotation says.
TEST(ExampleDescriptors, DescribeTheAnnotatedKernels) {
  const overlap::KernelDescriptor& d = buoydiff_descriptor;
  EXPECT_STREQ(d.name, "buoydiff");
  ASSERT_EQ(d.paramCount, 6);
  EXPECT_EQ(d.params[2].role, overlap::ParamRole::ChunkBegin);
  EXPECT_EQ(d.params[3].role, overlap::ParamRole::ChunkEnd);
  ASSERT_EQ(d.arrayCount, 2);
  EXPECT_EQ(d.arrays[0].direction, overlap::Direction::In);
  EXPECT_EQ(d.arrays[1].direction, overlap::Direction::Out);

  const int levels = 10, unused = 0;
  const long long plane = 100;
  const float* rho = nullptr;
  float* out = nullptr;
  const void* args[] = {&levels, &plane, &unused, &unused, &rho, &out};
  EXPECT_EQ(d.partitionExtent(args), 10);
  EXPECT_EQ(d.arrayExtent(args, 0), 1000);
  ASSERT_EQ(d.sectionCount(args, 0), 2);
  EXPECT_FALSE(d.sectionIsChunked(0, 0)); // the surface level, sent once
  EXPECT_TRUE(d.sectionIsChunked(0, 1));
  const overlap::Section halo = d.section(args, 0, 1, 4, 7);
  EXPECT_EQ(halo.begin, 300); // level 3 = lo - 1
  EXPECT_EQ(halo.end, 700);
  ASSERT_EQ(d.tuneDefaultCount, 2);

  EXPECT_NE(overlap::findRegisteredKernel("saxpy"), nullptr);
  EXPECT_NE(overlap::findRegisteredKernel("matmul"), nullptr);
  EXPECT_EQ(overlap::findRegisteredKernel("no_such_kernel"), nullptr);
}

// The launch geometry the model's fill penalty reads comes from the launch the variants make:
// saxpy's launch(grid: ceil_div(len, 256), block: 256) over a chunk, buoydiff's grid over a
// plane whatever the chunk.
TEST(ExampleDescriptors, LaunchGeometryIsTheAnnotatedLaunch) {
  OVERLAP_SKIP_WITHOUT_GPU();
  const overlap::KernelDescriptor& d = saxpy_descriptor;
  ASSERT_NE(d.launchGeometry, nullptr);
  const int n = 1000003;
  const float a = 2.0f;
  const float* x = nullptr;
  float* y = nullptr;
  const void* args[] = {&n, &a, &x, &y};
  for (const auto& [lo, hi] : {std::pair<long long, long long>{0, n}, {17, 17 + 257}, {5, 6}}) {
    overlap::LaunchGeometry geometry;
    OVERLAP_ASSERT_OK(d.launchGeometry(args, lo, hi, &geometry));
    EXPECT_EQ(geometry.blocks, (hi - lo + 255) / 256) << "[" << lo << ", " << hi << ")";
    EXPECT_EQ(geometry.blockThreads, 256);
    EXPECT_EQ(geometry.sharedBytes, 0u);
    EXPECT_GE(geometry.residentBlocksPerSm, 1);
    EXPECT_FALSE(geometry.gridStride);
  }
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);

  const overlap::KernelDescriptor& pop = buoydiff_descriptor;
  ASSERT_NE(pop.launchGeometry, nullptr);
  const int levels = 42, unused = 0;
  const long long plane = 1000;
  const float* rho = nullptr;
  float* out = nullptr;
  const void* popArgs[] = {&levels, &plane, &unused, &unused, &rho, &out};
  for (const auto& [lo, hi] : {std::pair<long long, long long>{0, 42}, {3, 4}}) {
    overlap::LaunchGeometry geometry;
    OVERLAP_ASSERT_OK(pop.launchGeometry(popArgs, lo, hi, &geometry));
    EXPECT_EQ(geometry.blocks, (plane + 255) / 256) << "levels [" << lo << ", " << hi << ")";
    EXPECT_EQ(geometry.blockThreads, 256);
  }
}

} // namespace
