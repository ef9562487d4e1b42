// Device memory across strategy calls, read from cudaMemGetInfo: what the whole device has free,
// so these run alone (RUN_SERIAL), not beside other processes' allocations.
#include "gpu_test_support.h"
#include "overlap/device_context.h"
#include "overlap/host_memory_kind.h"
#include "saxpy_binding.h"
#include "strategy_cases.cuh"
#include "strategy_checks.h"

#include <gtest/gtest.h>

#include <vector>

namespace overlap::test {
namespace {

TEST(StrategyResources, DeviceMemoryIsStableAcrossRepeatedCalls) {
  OVERLAP_SKIP_WITHOUT_GPU();
  const long long n = 1 << 20;
  std::vector<float> x(n, 0.5f), y(n, 0.25f);
  const SaxpyBinding binding{n, 1.0f, x.data(), y.data()};
  const std::vector<StrategyCase> cases = all_strategy_cases();
  for (const StrategyCase& strategy : cases) // grows the pools and the cache to their largest
    OVERLAP_ASSERT_OK(run_case(binding, strategy));
  std::size_t free_before = 0;
  std::size_t total = 0;
  ASSERT_EQ(cudaMemGetInfo(&free_before, &total), cudaSuccess);
  for (int call = 0; call < 100; ++call)
    OVERLAP_ASSERT_OK(run_case(binding, cases[static_cast<std::size_t>(call) % cases.size()]));
  std::size_t free_after = 0;
  ASSERT_EQ(cudaMemGetInfo(&free_after, &total), cudaSuccess);
  EXPECT_EQ(free_after, free_before) << "device memory changed over 100 calls";
  EXPECT_EQ(classify_host_memory(x.data()), HostMemoryKind::Pageable);
}

TEST(StrategyResources, ReleasingTheCacheReturnsItsMemory) {
  OVERLAP_SKIP_WITHOUT_GPU();
  const long long n = 1 << 22;
  std::vector<float> x(n, 0.5f), y(n, 0.25f);
  OVERLAP_ASSERT_OK(run_explicit(SaxpyBinding{n, 1.0f, x.data(), y.data()}));
  const std::size_t cached = cached_device_memory_bytes();
  EXPECT_GE(cached, 2 * n * sizeof(float));
  std::size_t free_before = 0;
  std::size_t total = 0;
  ASSERT_EQ(cudaMemGetInfo(&free_before, &total), cudaSuccess);
  OVERLAP_ASSERT_OK(release_cached_device_memory());
  EXPECT_EQ(cached_device_memory_bytes(), 0u);
  std::size_t free_after = 0;
  ASSERT_EQ(cudaMemGetInfo(&free_after, &total), cudaSuccess);
  EXPECT_GE(free_after, free_before + cached);
  Random random;
  SCOPED_TRACE(random.trace());
  check_saxpy(one_case_per_variant()[2], HostMemory::Pinned, 1009, random);
}

} // namespace
} // namespace overlap::test
