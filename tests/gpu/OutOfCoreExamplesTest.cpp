// Calls over the device-memory budget (DeviceMemoryBudget.h) on the examples' generated code:
// Streams and Hybrid run them out of core (DeviceLayout.h), choosing their chunks, and equal
// Explicit run without a budget; buoydiff's surface level, which its chunks read through the
// same pointer as their own levels, stays resident in pages while the rest moves; Explicit and
// full buffers over the budget fail saying what they need and touch nothing; Mapped runs at any
// budget. Each test sets the process's budget and resets it. OVERLAP_TEST_MAX_EXTENT below 2^20
// skips them.
#include "GpuTestSupport.h"
#include "buoydiff.overlap.h"
#include "saxpy.overlap.h"

#include "overlap/DeviceContext.h"
#include "overlap/DeviceMemoryBudget.h"
#include "overlap/PagedArrays.h"

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

namespace {

using overlap::test::bitwiseEqual;

overlap::test::Random& random() {
  static overlap::test::Random generator;
  return generator;
}

std::vector<float> randomFloats(long long count) {
  std::vector<float> values(static_cast<std::size_t>(count));
  random().fill(values.data(), values.size());
  return values;
}

// Sets the process's budget for one test and clears Overlap's cached device memory, so that
// what a call leaves cached is what it took.
class BudgetTest : public testing::Test {
protected:
  void SetUp() override {
    OVERLAP_SKIP_WITHOUT_GPU();
    // Out of core takes arrays of megabytes; the sanitizer runs, which set a small limit, check
    // the ring at small sizes through DeviceBuffers::Ring (ExamplesGpuTest.cpp) instead.
    if (overlap::test::maxTestExtent() < (1 << 20))
      GTEST_SKIP() << "OVERLAP_TEST_MAX_EXTENT is below these tests' sizes";
    trace_.emplace(__FILE__, __LINE__, random().trace());
    OVERLAP_ASSERT_OK(overlap::releaseCachedDeviceMemory());
  }
  void TearDown() override { overlap::setDeviceMemoryBudget(0); }

  std::optional<testing::ScopedTrace> trace_;
};

constexpr std::size_t kMiB = std::size_t{1} << 20;

TEST_F(BudgetTest, SaxpyOverItsBudgetRunsOutOfCoreInEveryStreamedWay) {
  const int n = (1 << 22) + 3; // 16 MiB a vector
  const std::vector<float> x = randomFloats(n);
  const std::vector<float> y0 = randomFloats(n);
  std::vector<float> expected = y0;
  OVERLAP_ASSERT_OK(saxpy_explicit(n, 1.5f, x.data(), expected.data()));
  OVERLAP_ASSERT_OK(overlap::releaseCachedDeviceMemory()); // Explicit's full buffers
  const std::size_t budget = 8 * kMiB; // a quarter of the 32 MiB the full buffers take
  overlap::setDeviceMemoryBudget(budget);
  for (overlap::IssueOrder order :
       {overlap::IssueOrder::DepthFirst, overlap::IssueOrder::BreadthFirst})
    for (int streams : {1, 3, 8}) {
      SCOPED_TRACE(std::to_string(streams) + " streams, " + overlap::to_string(order));
      std::vector<float> y = y0;
      OVERLAP_ASSERT_OK(saxpy_streams(n, 1.5f, x.data(), y.data(), streams, order));
      EXPECT_TRUE(bitwiseEqual(expected.data(), y.data(), y.size()));
      y = y0;
      OVERLAP_ASSERT_OK(saxpy_hybrid(n, 1.5f, x.data(), y.data(), streams, order));
      EXPECT_TRUE(bitwiseEqual(expected.data(), y.data(), y.size()));
      EXPECT_LE(overlap::cachedDeviceMemoryBytes(), budget);
    }
}

TEST_F(BudgetTest, ABudgetOfTheCallsOwnWinsOverTheProcesss) {
  const int n = 1 << 20;
  const std::vector<float> x = randomFloats(n);
  const std::vector<float> y0 = randomFloats(n);
  std::vector<float> expected = y0;
  OVERLAP_ASSERT_OK(saxpy_explicit(n, -0.75f, x.data(), expected.data()));
  OVERLAP_ASSERT_OK(overlap::releaseCachedDeviceMemory());
  overlap::setDeviceMemoryBudget(64 * kMiB); // fits: the call's own budget must decide
  overlap::StreamsConfig config{4, overlap::IssueOrder::DepthFirst};
  config.deviceMemoryBudget = 2 * kMiB; // a quarter of the 8 MiB
  std::vector<float> y = y0;
  OVERLAP_ASSERT_OK(saxpy_streams(n, -0.75f, x.data(), y.data(), config));
  EXPECT_TRUE(bitwiseEqual(expected.data(), y.data(), y.size()));
  EXPECT_LE(overlap::cachedDeviceMemoryBytes(), 2 * kMiB);
}

TEST_F(BudgetTest, OverTheBudgetExplicitAndFullBuffersFailNamingBothAndTouchNothing) {
  const int n = 1 << 20;
  const std::vector<float> x = randomFloats(n);
  const std::vector<float> y0 = randomFloats(n);
  overlap::setDeviceMemoryBudget(kMiB);
  std::vector<float> y = y0;
  overlap::Status status = saxpy_explicit(n, 2.0f, x.data(), y.data());
  EXPECT_EQ(status.code, cudaErrorMemoryAllocation) << status.message();
  EXPECT_NE(status.message().find("Explicit needs 8.0 MiB of device memory; the budget is 1.0 MiB "
                                  "(setDeviceMemoryBudget)"),
            std::string::npos)
      << status.message();
  EXPECT_TRUE(bitwiseEqual(y0.data(), y.data(), y.size()));

  overlap::StreamsConfig full{4, overlap::IssueOrder::DepthFirst};
  full.buffers = overlap::DeviceBuffers::Full;
  status = saxpy_streams(n, 2.0f, x.data(), y.data(), full);
  EXPECT_EQ(status.code, cudaErrorMemoryAllocation) << status.message();
  EXPECT_NE(status.message().find("with full buffers needs"), std::string::npos)
      << status.message();
  // Two chunks on two streams: each slot holds half of x and y, all of them together 8 MiB.
  overlap::StreamsConfig fewChunks{2, overlap::IssueOrder::DepthFirst};
  fewChunks.chunks = 2;
  status = saxpy_streams(n, 2.0f, x.data(), y.data(), fewChunks);
  EXPECT_EQ(status.code, cudaErrorMemoryAllocation) << status.message();
  EXPECT_NE(status.message().find("more chunks make smaller slots"), std::string::npos)
      << status.message();
  EXPECT_TRUE(bitwiseEqual(y0.data(), y.data(), y.size()));
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}

TEST_F(BudgetTest, MappedRunsAtAnyBudget) {
  const int n = 1 << 20;
  const std::vector<float> x = randomFloats(n);
  const std::vector<float> y0 = randomFloats(n);
  std::vector<float> expected = y0;
  OVERLAP_ASSERT_OK(saxpy_explicit(n, 3.0f, x.data(), expected.data()));
  overlap::setDeviceMemoryBudget(1);
  std::vector<float> y = y0;
  OVERLAP_ASSERT_OK(saxpy_mapped(n, 3.0f, x.data(), y.data()));
  EXPECT_TRUE(bitwiseEqual(expected.data(), y.data(), y.size()));
}

// buoydiff's chunks read the surface level through the same pointer as their own levels: out of
// core, that array is paged where the device maps pages (the surface's pages stay, each slot's
// chunk pages move), and refused with the reason where it does not.
TEST_F(BudgetTest, BuoydiffOverItsBudgetPagesItsSurfaceLevel) {
  std::size_t pageBytes = 0;
  int device = 0;
  ASSERT_EQ(cudaGetDevice(&device), cudaSuccess);
  OVERLAP_ASSERT_OK(overlap::devicePageBytes(device, &pageBytes));
  const int levels = 61;
  const long long plane = 3 * (1 << 18) + 5; // 3 MiB a level: levels span pages unevenly
  const std::vector<float> rho = randomFloats(levels * plane);
  std::vector<float> expected = randomFloats(levels * plane);
  OVERLAP_ASSERT_OK(buoydiff_explicit(levels, plane, rho.data(), expected.data()));
  const std::size_t full = 2 * static_cast<std::size_t>(levels * plane) * sizeof(float);
  overlap::setDeviceMemoryBudget(full / 4);
  for (overlap::IssueOrder order :
       {overlap::IssueOrder::DepthFirst, overlap::IssueOrder::BreadthFirst})
    for (int streams : {1, 2, 5}) {
      SCOPED_TRACE(std::to_string(streams) + " streams, " + overlap::to_string(order));
      std::vector<float> out = randomFloats(levels * plane);
      const overlap::Status status =
          buoydiff_streams(levels, plane, rho.data(), out.data(), streams, order);
      if (pageBytes == 0) {
        EXPECT_EQ(status.code, cudaErrorMemoryAllocation);
        EXPECT_NE(status.message().find("array 'rho' can have neither a window nor pages"),
                  std::string::npos)
            << status.message();
        continue;
      }
      OVERLAP_ASSERT_OK(status);
      EXPECT_TRUE(bitwiseEqual(expected.data(), out.data(), out.size()));
    }
}

} // namespace
