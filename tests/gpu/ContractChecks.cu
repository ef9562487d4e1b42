#include "ContractChecks.h"

#include "CheckSupport.cuh"
#include "ContractBindings.h"
#if OVERLAP_FAULT_INJECTION
#include "overlap/FaultInjection.h"
#endif

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <string>

namespace overlap::test {
namespace {

// Halves in ±[0.5, 2), never zero, like Random::fill's floats.
void fill(Random& random, HostBuffer<__half>* data) {
  for (std::size_t i = 0; i < data->size(); ++i) {
    float value = 0;
    random.fill(&value, 1);
    (*data)[i] = __float2half_rn(value);
  }
}

void fill(Random& random, HostBuffer<float>* data) {
  random.fill(data->data(), data->size());
}

template <class T>
void allocateFilled(std::size_t count, HostMemory memory, Random& random, HostBuffer<T>* out) {
  OVERLAP_ASSERT_OK(HostBuffer<T>::allocate(count, memory, out));
  fill(random, out);
}

template <class T>
void checkVectorLoads(const StrategyCase& c, HostMemory memory, long long n, Random& random) {
  SCOPED_TRACE(describe(c, memory, "n", n));
  const auto count = static_cast<std::size_t>(n);
  HostBuffer<T> x, xBefore, yBefore, reference, yExplicit, y;
  allocateFilled(count, memory, random, &x);
  allocateCopy(x, HostMemory::Pageable, &xBefore);
  // Out arrays start with garbage: every element must be written, none copied in.
  allocateFilled(count, HostMemory::Pageable, random, &yBefore);
  allocateCopy(yBefore, HostMemory::Pageable, &reference);
  allocateCopy(yBefore, memory, &yExplicit);
  allocateCopy(yBefore, memory, &y);
  if (::testing::Test::HasFatalFailure())
    return;
  vectorLoadReference(n, xBefore.data(), reference.data());

  OVERLAP_ASSERT_OK(runScribbled(VectorLoadBinding<T>{n, x.data(), y.data()}, c));
  OVERLAP_ASSERT_OK(runScribbled(VectorLoadBinding<T>{n, x.data(), yExplicit.data()}, kExplicit));
  EXPECT_TRUE(bitwiseEqual(reference.data(), yExplicit.data(), count)) << "Explicit vs CPU";
  EXPECT_TRUE(bitwiseEqual(yExplicit.data(), y.data(), count)) << "y vs Explicit";
  EXPECT_TRUE(bitwiseEqual(reference.data(), y.data(), count)) << "y vs CPU";
  EXPECT_TRUE(bitwiseEqual(xBefore.data(), x.data(), count)) << "the input x changed";
}

// Launches of TileBinding's kernel a call makes: one per chunk of at least a whole tile.
long long expectedTileLaunches(const StrategyCase& c, long long n) {
  const Partition partition{0, n, TileBinding::kTile};
  const bool chunked = c.variant == Variant::Streams || c.variant == Variant::Hybrid;
  const int asked = c.streams.chunks > 0 ? c.streams.chunks : c.streams.streams;
  const long long chunks = chunked ? chunkCount(partition, asked) : 1;
  long long launches = 0;
  for (long long k = 0; k < chunks; ++k) {
    long long lo = 0;
    long long hi = 0;
    chunkBounds(partition, chunks, k, lo, hi);
    launches += hi - lo >= TileBinding::kTile ? 1 : 0;
  }
  return launches;
}

} // namespace

void checkStencil(const StrategyCase& c, HostMemory memory, long long rows, Random& random) {
  SCOPED_TRACE(describe(c, memory, "rows", rows));
  const long long nx = 67;
  const long long ny = rows + 2;
  const auto count = static_cast<std::size_t>(ny * nx);
  HostBuffer<float> in, inBefore, outBefore, reference, outExplicit, out;
  allocateRandom(count, memory, random, &in);
  allocateCopy(in, HostMemory::Pageable, &inBefore);
  allocateRandom(count, HostMemory::Pageable, random, &outBefore);
  allocateCopy(outBefore, HostMemory::Pageable, &reference);
  allocateCopy(outBefore, memory, &outExplicit);
  allocateCopy(outBefore, memory, &out);
  if (::testing::Test::HasFatalFailure())
    return;
  // The reference leaves rows 0 and ny - 1 as they were: so must every variant.
  stencilReference(ny, nx, inBefore.data(), reference.data());

  OVERLAP_ASSERT_OK(runScribbled(StencilBinding{1, ny - 1, nx, in.data(), out.data()}, c));
  OVERLAP_ASSERT_OK(
      runScribbled(StencilBinding{1, ny - 1, nx, in.data(), outExplicit.data()}, kExplicit));
  EXPECT_TRUE(bitwiseEqual(reference.data(), outExplicit.data(), count)) << "Explicit vs CPU";
  EXPECT_TRUE(bitwiseEqual(outExplicit.data(), out.data(), count)) << "out vs Explicit";
  EXPECT_TRUE(bitwiseEqual(reference.data(), out.data(), count)) << "out vs CPU";
  EXPECT_TRUE(bitwiseEqual(inBefore.data(), in.data(), count)) << "the input in changed";
}

void checkFloat4Loads(const StrategyCase& c, HostMemory memory, long long n, Random& random) {
  checkVectorLoads<float>(c, memory, n, random);
}

void checkHalf2Loads(const StrategyCase& c, HostMemory memory, long long n, Random& random) {
  checkVectorLoads<__half>(c, memory, n, random);
}

void checkReductions(const StrategyCase& c, HostMemory memory, long long n, Random& random) {
  SCOPED_TRACE(describe(c, memory, "n", n));
  const auto count = static_cast<std::size_t>(n);
  const auto bins = static_cast<std::size_t>(ReductionBinding::kBins);
  HostBuffer<float> x, sum, sumExplicit;
  HostBuffer<std::uint8_t> b;
  HostBuffer<unsigned> binsBefore, binsReference, binsExplicit, binsResult;
  allocateRandom(count, memory, random, &x);
  OVERLAP_ASSERT_OK(HostBuffer<std::uint8_t>::allocate(count, memory, &b));
  random.fillAny(b.data(), count);
  // The sums start far from 0, so that an initial value lost or added twice shows beyond the
  // rounding the atomics' order may cause.
  OVERLAP_ASSERT_OK(HostBuffer<float>::allocate(1, memory, &sum));
  random.fillUniform(sum.data(), 1, 1000, 2000);
  allocateCopy(sum, memory, &sumExplicit);
  allocateRandom(bins, HostMemory::Pageable, random, &binsBefore);
  allocateCopy(binsBefore, HostMemory::Pageable, &binsReference);
  allocateCopy(binsBefore, memory, &binsExplicit);
  allocateCopy(binsBefore, memory, &binsResult);
  if (::testing::Test::HasFatalFailure())
    return;
  const float initial = sum[0];
  double sumReference = initial;
  reductionReference(n, x.data(), b.data(), &sumReference, binsReference.data());
  // Float additions in any order err by at most (terms - 1) u times the sum of the terms'
  // magnitudes (u = 2^-24), to first order: 1 % over that for the second order.
  double magnitudes = std::fabs(initial);
  for (std::size_t i = 0; i < count; ++i)
    magnitudes += std::fabs(x[i]);
  const double bound = 1.01 * static_cast<double>(n) * std::ldexp(1.0, -24) * magnitudes;

  OVERLAP_ASSERT_OK(
      runScribbled(ReductionBinding{n, x.data(), b.data(), sum.data(), binsResult.data()}, c));
  OVERLAP_ASSERT_OK(runScribbled(
      ReductionBinding{n, x.data(), b.data(), sumExplicit.data(), binsExplicit.data()}, kExplicit));
  EXPECT_NEAR(sumExplicit[0], sumReference, bound) << "Explicit's sum vs CPU";
  EXPECT_NEAR(sum[0], sumReference, bound) << "sum vs CPU";
  EXPECT_NEAR(sum[0], sumExplicit[0], 2 * bound) << "sum vs Explicit";
  EXPECT_TRUE(bitwiseEqual(binsReference.data(), binsExplicit.data(), bins))
      << "Explicit's bins vs CPU";
  EXPECT_TRUE(bitwiseEqual(binsExplicit.data(), binsResult.data(), bins)) << "bins vs Explicit";
}

void checkOptionalOutput(const StrategyCase& c, HostMemory memory, long long n, Random& random) {
  SCOPED_TRACE(describe(c, memory, "n", n));
  const auto count = static_cast<std::size_t>(n);
  float a = 0;
  random.fill(&a, 1);
  HostBuffer<float> x, yBefore, zBefore, yReference, zReference;
  HostBuffer<float> yExplicit, zExplicit, y, z;
  allocateRandom(count, memory, random, &x);
  allocateRandom(count, HostMemory::Pageable, random, &yBefore);
  allocateRandom(count, HostMemory::Pageable, random, &zBefore);
  allocateCopy(yBefore, HostMemory::Pageable, &yReference);
  allocateCopy(zBefore, HostMemory::Pageable, &zReference);
  if (::testing::Test::HasFatalFailure())
    return;
  optionalOutputReference(n, a, x.data(), yReference.data(), zReference.data());

  for (bool passed : {false, true}) {
    SCOPED_TRACE(passed ? "z passed" : "z null");
    allocateCopy(yBefore, memory, &yExplicit);
    allocateCopy(yBefore, memory, &y);
    allocateCopy(zBefore, memory, &zExplicit);
    allocateCopy(zBefore, memory, &z);
    if (::testing::Test::HasFatalFailure())
      return;
    float* const zArg = passed ? z.data() : nullptr;
    float* const zExplicitArg = passed ? zExplicit.data() : nullptr;
    OVERLAP_ASSERT_OK(runScribbled(OptionalOutputBinding{n, a, x.data(), y.data(), zArg}, c));
    OVERLAP_ASSERT_OK(runScribbled(
        OptionalOutputBinding{n, a, x.data(), yExplicit.data(), zExplicitArg}, kExplicit));
    EXPECT_TRUE(bitwiseEqual(yReference.data(), yExplicit.data(), count)) << "Explicit vs CPU";
    EXPECT_TRUE(bitwiseEqual(yExplicit.data(), y.data(), count)) << "y vs Explicit";
    EXPECT_TRUE(bitwiseEqual(yReference.data(), y.data(), count)) << "y vs CPU";
    if (passed) {
      EXPECT_TRUE(bitwiseEqual(zReference.data(), zExplicit.data(), count))
          << "Explicit's z vs CPU";
      EXPECT_TRUE(bitwiseEqual(zReference.data(), z.data(), count)) << "z vs CPU";
    }
  }
}

void checkTiles(const StrategyCase& c, HostMemory memory, long long n, Random& random) {
  SCOPED_TRACE(describe(c, memory, "n", n));
  const auto count = static_cast<std::size_t>(n);
  HostBuffer<float> x, yBefore, reference, yExplicit, y;
  allocateRandom(count, memory, random, &x);
  allocateRandom(count, HostMemory::Pageable, random, &yBefore);
  allocateCopy(yBefore, HostMemory::Pageable, &reference);
  allocateCopy(yBefore, memory, &yExplicit);
  allocateCopy(yBefore, memory, &y);
  if (::testing::Test::HasFatalFailure())
    return;
  tileReference(n, x.data(), reference.data());

#if OVERLAP_FAULT_INJECTION // the launches are counted by the fault injector
  long long launches = 0;
  {
    const fault::ScopedCallCount counting("tiles<<<");
    OVERLAP_ASSERT_OK(runScribbled(TileBinding{n, x.data(), y.data()}, c));
    launches = fault::matchedCalls();
  }
  EXPECT_EQ(launches, expectedTileLaunches(c, n));
#else
  OVERLAP_ASSERT_OK(runScribbled(TileBinding{n, x.data(), y.data()}, c));
#endif
  OVERLAP_ASSERT_OK(runScribbled(TileBinding{n, x.data(), yExplicit.data()}, kExplicit));
  EXPECT_TRUE(bitwiseEqual(reference.data(), yExplicit.data(), count)) << "Explicit vs CPU";
  EXPECT_TRUE(bitwiseEqual(yExplicit.data(), y.data(), count)) << "y vs Explicit";
  EXPECT_TRUE(bitwiseEqual(reference.data(), y.data(), count)) << "y vs CPU";
}

} // namespace overlap::test
