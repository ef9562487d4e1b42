#include "StrategyChecks.h"

#include "CheckSupport.cuh"
#include "ColumnBinding.h"
#include "MatmulBinding.h"
#include "SaxpyBinding.h"
#include "StrategyCases.cuh"

#include <cstdint>

namespace overlap::test {

void checkSaxpy(const StrategyCase& c, HostMemory memory, long long n, Random& random) {
  SCOPED_TRACE(describe(c, memory, "n", n));
  const auto count = static_cast<std::size_t>(n);
  HostBuffer<float> x, xBefore, yBefore, reference, yExplicit, y;
  float a = 0;
  random.fill(&a, 1);
  allocateRandom(count, memory, random, &x);
  allocateRandom(count, HostMemory::Pageable, random, &yBefore);
  allocateCopy(x, HostMemory::Pageable, &xBefore);
  allocateCopy(yBefore, HostMemory::Pageable, &reference);
  allocateCopy(yBefore, memory, &yExplicit);
  allocateCopy(yBefore, memory, &y);
  if (::testing::Test::HasFatalFailure())
    return;
  saxpyReference(n, a, xBefore.data(), reference.data());

  // The strategy under test first and Explicit second, so neither finds the other's data.
  OVERLAP_ASSERT_OK(runScribbled(SaxpyBinding{n, a, x.data(), y.data()}, c));
  OVERLAP_ASSERT_OK(runScribbled(SaxpyBinding{n, a, x.data(), yExplicit.data()}, kExplicit));
  EXPECT_TRUE(bitwiseEqual(reference.data(), yExplicit.data(), count)) << "Explicit vs CPU";
  EXPECT_TRUE(bitwiseEqual(yExplicit.data(), y.data(), count)) << "y vs Explicit";
  EXPECT_TRUE(bitwiseEqual(reference.data(), y.data(), count)) << "y vs CPU";
  EXPECT_TRUE(bitwiseEqual(xBefore.data(), x.data(), count)) << "the input x changed";
}

void checkMatmul(const StrategyCase& c, HostMemory memory, long long m, Random& random) {
  SCOPED_TRACE(describe(c, memory, "m", m));
  const long long n = 29;
  const long long k = 37;
  HostBuffer<std::uint32_t> a, b, cBefore, reference, cExplicit, cResult;
  allocateRandom(static_cast<std::size_t>(m * k), memory, random, &a);
  allocateRandom(static_cast<std::size_t>(k * n), memory, random, &b);
  // Out arrays start with garbage: every element must be written, none copied in.
  allocateRandom(static_cast<std::size_t>(m * n), HostMemory::Pageable, random, &cBefore);
  allocateCopy(cBefore, HostMemory::Pageable, &reference);
  allocateCopy(cBefore, memory, &cExplicit);
  allocateCopy(cBefore, memory, &cResult);
  if (::testing::Test::HasFatalFailure())
    return;
  matmulReference(m, n, k, a.data(), b.data(), reference.data());

  const auto count = static_cast<std::size_t>(m * n);
  OVERLAP_ASSERT_OK(runScribbled(MatmulBinding{m, n, k, a.data(), b.data(), cResult.data()}, c));
  OVERLAP_ASSERT_OK(
      runScribbled(MatmulBinding{m, n, k, a.data(), b.data(), cExplicit.data()}, kExplicit));
  EXPECT_TRUE(bitwiseEqual(reference.data(), cExplicit.data(), count)) << "Explicit vs CPU";
  EXPECT_TRUE(bitwiseEqual(cExplicit.data(), cResult.data(), count)) << "c vs Explicit";
  EXPECT_TRUE(bitwiseEqual(reference.data(), cResult.data(), count)) << "c vs CPU";
}

void checkColumn(const StrategyCase& c, HostMemory memory, long long levels, Random& random) {
  SCOPED_TRACE(describe(c, memory, "levels", levels));
  const long long plane = 67;
  const auto count = static_cast<std::size_t>(levels * plane);
  HostBuffer<float> rho, rhoBefore, accBefore, outBefore;
  HostBuffer<float> accReference, outReference, accExplicit, outExplicit, acc, out;
  allocateRandom(count, memory, random, &rho);
  allocateCopy(rho, HostMemory::Pageable, &rhoBefore);
  allocateRandom(count, HostMemory::Pageable, random, &accBefore);
  allocateRandom(count, HostMemory::Pageable, random, &outBefore);
  allocateCopy(accBefore, HostMemory::Pageable, &accReference);
  allocateCopy(outBefore, HostMemory::Pageable, &outReference);
  allocateCopy(accBefore, memory, &accExplicit);
  allocateCopy(outBefore, memory, &outExplicit);
  allocateCopy(accBefore, memory, &acc);
  allocateCopy(outBefore, memory, &out);
  if (::testing::Test::HasFatalFailure())
    return;
  columnReference(levels, plane, rhoBefore.data(), accReference.data(), outReference.data());

  OVERLAP_ASSERT_OK(
      runScribbled(ColumnBinding{levels, plane, rho.data(), acc.data(), out.data()}, c));
  OVERLAP_ASSERT_OK(runScribbled(
      ColumnBinding{levels, plane, rho.data(), accExplicit.data(), outExplicit.data()}, kExplicit));
  EXPECT_TRUE(bitwiseEqual(outReference.data(), outExplicit.data(), count))
      << "Explicit out vs CPU";
  EXPECT_TRUE(bitwiseEqual(accReference.data(), accExplicit.data(), count))
      << "Explicit acc vs CPU";
  EXPECT_TRUE(bitwiseEqual(outExplicit.data(), out.data(), count)) << "out vs Explicit";
  EXPECT_TRUE(bitwiseEqual(accExplicit.data(), acc.data(), count)) << "acc vs Explicit";
  EXPECT_TRUE(bitwiseEqual(outReference.data(), out.data(), count)) << "out vs CPU";
  EXPECT_TRUE(bitwiseEqual(accReference.data(), acc.data(), count)) << "acc vs CPU";
  EXPECT_TRUE(bitwiseEqual(rhoBefore.data(), rho.data(), count)) << "the input rho changed";
}

void checkEveryVariantSmall(Random& random) {
  for (const StrategyCase& strategy : oneCasePerVariant())
    for (HostMemory memory : {HostMemory::Pageable, HostMemory::Pinned}) {
      checkSaxpy(strategy, memory, 1009, random);
      checkMatmul(strategy, memory, 31, random);
      checkColumn(strategy, memory, 13, random);
    }
}

} // namespace overlap::test
