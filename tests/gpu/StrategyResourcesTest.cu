// Device memory across strategy calls, read from cudaMemGetInfo: what the whole device has free,
// so these run alone (RUN_SERIAL), not beside other processes' allocations.
#include "GpuTestSupport.h"
#include "SaxpyBinding.h"
#include "StrategyCases.cuh"
#include "StrategyChecks.h"
#include "overlap/DeviceContext.h"
#include "overlap/HostMemoryKind.h"

#include <gtest/gtest.h>

#include <vector>

namespace overlap::test {
namespace {

TEST(StrategyResources, DeviceMemoryIsStableAcrossRepeatedCalls) {
  OVERLAP_SKIP_WITHOUT_GPU();
  const long long n = 1 << 20;
  std::vector<float> x(n, 0.5f), y(n, 0.25f);
  const SaxpyBinding binding{n, 1.0f, x.data(), y.data()};
  const std::vector<StrategyCase> cases = allStrategyCases();
  for (const StrategyCase& strategy : cases) // grows the pools and the cache to their largest
    OVERLAP_ASSERT_OK(runCase(binding, strategy));
  std::size_t freeBefore = 0;
  std::size_t total = 0;
  ASSERT_EQ(cudaMemGetInfo(&freeBefore, &total), cudaSuccess);
  for (int call = 0; call < 100; ++call)
    OVERLAP_ASSERT_OK(runCase(binding, cases[static_cast<std::size_t>(call) % cases.size()]));
  std::size_t freeAfter = 0;
  ASSERT_EQ(cudaMemGetInfo(&freeAfter, &total), cudaSuccess);
  EXPECT_EQ(freeAfter, freeBefore) << "device memory changed over 100 calls";
  EXPECT_EQ(classifyHostMemory(x.data()), HostMemoryKind::Pageable);
}

TEST(StrategyResources, ReleasingTheCacheReturnsItsMemory) {
  OVERLAP_SKIP_WITHOUT_GPU();
  const long long n = 1 << 22;
  std::vector<float> x(n, 0.5f), y(n, 0.25f);
  OVERLAP_ASSERT_OK(runExplicit(SaxpyBinding{n, 1.0f, x.data(), y.data()}));
  const std::size_t cached = cachedDeviceMemoryBytes();
  EXPECT_GE(cached, 2 * n * sizeof(float));
  std::size_t freeBefore = 0;
  std::size_t total = 0;
  ASSERT_EQ(cudaMemGetInfo(&freeBefore, &total), cudaSuccess);
  OVERLAP_ASSERT_OK(releaseCachedDeviceMemory());
  EXPECT_EQ(cachedDeviceMemoryBytes(), 0u);
  std::size_t freeAfter = 0;
  ASSERT_EQ(cudaMemGetInfo(&freeAfter, &total), cudaSuccess);
  EXPECT_GE(freeAfter, freeBefore + cached);
  Random random;
  SCOPED_TRACE(random.trace());
  checkSaxpy(oneCasePerVariant()[2], HostMemory::Pinned, 1009, random);
}

} // namespace
} // namespace overlap::test
