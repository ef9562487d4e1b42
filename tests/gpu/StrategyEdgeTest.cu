// The strategies' behaviour at the edges: empty and invalid calls, failing launches, arrays that
// share an allocation, concurrent callers, and the device resources kept between calls.
#include "ColumnBinding.h"
#include "GpuTestSupport.h"
#include "SaxpyBinding.h"
#include "StrategyCases.cuh"
#include "StrategyChecks.h"
#include "overlap/DeviceContext.h"
#include "overlap/HostMemoryKind.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <thread>
#include <vector>

namespace overlap::test {
namespace {

bool mentions(const Status& status, const std::string& text) {
  return status.message().find(text) != std::string::npos;
}

// An InOut array whose two chunked sections overlap neighbouring chunks: copying both out per
// chunk would race with the neighbours, so every strategy refuses it.
struct TwoChunkedOutputSections {
  static constexpr int kArrays = 1;
  float* data = nullptr;
  long long partitionExtent() const { return 8; }
  long long partitionBegin() const { return 0; }
  long long granule() const { return 1; }
  Status checkCall() const { return Status::success(); }
  HostArray array(int) const { return {data, sizeof(float), 8, Direction::InOut, "data"}; }
  static int sectionCount(int) { return 2; }
  static bool sectionIsChunked(int, int) { return true; }
  Section section(int, int s, long long lo, long long hi) const { return {lo - s, hi}; }
  Status launch(void* const*, long long, long long, cudaStream_t) const {
    return Status{cudaErrorUnknown, "launch must not be reached", __FILE__, __LINE__};
  }
};

// These need no GPU: the strategies answer before touching the device.

TEST(StrategyEdges, ZeroPartitionIsANoOpThatLeavesOutputsUntouched) {
  Random random;
  SCOPED_TRACE(random.trace());
  std::vector<float> x(16), y(16);
  random.fill(x.data(), x.size());
  random.fill(y.data(), y.size());
  const std::vector<float> yBefore = y;
  for (const StrategyCase& strategy : allStrategyCases()) {
    SCOPED_TRACE(nameOf(strategy));
    const Status status = runCase(SaxpyBinding{0, 2.0f, x.data(), y.data()}, strategy);
    EXPECT_TRUE(status.ok()) << status.message();
    EXPECT_TRUE(bitwiseEqual(yBefore.data(), y.data(), y.size()));
    // Not even the pointers are looked at.
    const Status nullStatus = runCase(SaxpyBinding{0, 2.0f, nullptr, nullptr}, strategy);
    EXPECT_TRUE(nullStatus.ok()) << nullStatus.message();
  }
}

TEST(StrategyEdges, NegativePartitionIsAnError) {
  std::vector<float> x(4), y(4);
  for (const StrategyCase& strategy : allStrategyCases()) {
    SCOPED_TRACE(nameOf(strategy));
    const Status status = runCase(SaxpyBinding{-1, 2.0f, x.data(), y.data()}, strategy);
    EXPECT_EQ(status.code, cudaErrorInvalidValue);
    EXPECT_TRUE(mentions(status, "partitionExtent")) << status.message();
  }
}

TEST(StrategyEdges, StreamsAndHybridNeedAtLeastOneStream) {
  std::vector<float> x(4), y(4);
  for (Variant variant : {Variant::Streams, Variant::Hybrid})
    for (int streams : {0, -3}) {
      const StrategyCase strategy{variant, {streams, IssueOrder::DepthFirst}};
      SCOPED_TRACE(nameOf(strategy));
      const Status status = runCase(SaxpyBinding{4, 2.0f, x.data(), y.data()}, strategy);
      EXPECT_EQ(status.code, cudaErrorInvalidValue);
      EXPECT_TRUE(mentions(status, "StreamsConfig::streams")) << status.message();
    }
}

TEST(StrategyEdges, AnOutputWithTwoChunkedSectionsIsRefused) {
  std::vector<float> data(8);
  for (const StrategyCase& strategy : allStrategyCases()) {
    SCOPED_TRACE(nameOf(strategy));
    const Status status = runCase(TwoChunkedOutputSections{data.data()}, strategy);
    EXPECT_EQ(status.code, cudaErrorInvalidValue);
    EXPECT_TRUE(mentions(status, "more than one chunked section")) << status.message();
  }
}

// From here on a GPU is needed.

TEST(StrategyEdges, AFailedLaunchNamesTheCallAndTheNextCallWorks) {
  OVERLAP_SKIP_WITHOUT_GPU();
  Random random;
  SCOPED_TRACE(random.trace());
  const long long n = 5000;
  std::vector<float> x(n), y(n);
  random.fill(x.data(), x.size());
  random.fill(y.data(), y.size());
  for (const StrategyCase& strategy : allStrategyCases()) {
    SCOPED_TRACE(nameOf(strategy));
    SaxpyBinding broken{n, 2.0f, x.data(), y.data()};
    broken.block = 2048; // more threads than any GPU allows per block
    const Status status = runCase(broken, strategy);
    // CUDA 13 reports too many threads per block as an invalid argument, older releases as an
    // invalid configuration; either way the launch's own error must come back.
    EXPECT_TRUE(status.code == cudaErrorInvalidValue ||
                status.code == cudaErrorInvalidConfiguration)
        << status.message();
    EXPECT_TRUE(mentions(status, "saxpy<<<...>>>")) << status.message();
    // The pageable arrays it pinned for the call are unpinned again.
    EXPECT_EQ(classifyHostMemory(x.data()), HostMemoryKind::Pageable);
    EXPECT_EQ(classifyHostMemory(y.data()), HostMemoryKind::Pageable);
    checkSaxpy(strategy, HostMemory::Pageable, 1009, random);
    if (HasFailure())
      return;
  }
}

// x and y carved from one allocation, y starting in x's last page, misaligned: pinning must
// register the shared page once.
TEST(StrategyEdges, ArraysSharingOneAllocation) {
  OVERLAP_SKIP_WITHOUT_GPU();
  Random random;
  SCOPED_TRACE(random.trace());
  const long long n = 3001;
  for (HostMemory memory : {HostMemory::Pageable, HostMemory::Pinned}) {
    HostBuffer<float> block;
    OVERLAP_ASSERT_OK(HostBuffer<float>::allocate(2 * n + 1, memory, &block));
    float* const x = block.data() + 1;
    float* const y = x + n;
    for (const StrategyCase& strategy : allStrategyCases()) {
      SCOPED_TRACE(nameOf(strategy) + ", " + to_string(memory));
      random.fill(block.data(), block.size());
      const std::vector<float> xBefore(x, x + n);
      std::vector<float> reference(y, y + n);
      const float a = 1.25f;
      saxpyReference(n, a, xBefore.data(), reference.data());
      const Status status = runCase(SaxpyBinding{n, a, x, y}, strategy);
      ASSERT_TRUE(status.ok()) << status.message();
      EXPECT_TRUE(bitwiseEqual(reference.data(), y, n));
      EXPECT_TRUE(bitwiseEqual(xBefore.data(), x, n));
      if (memory == HostMemory::Pageable)
        EXPECT_EQ(classifyHostMemory(x), HostMemoryKind::Pageable);
    }
  }
}

TEST(StrategyEdges, ConcurrentCallersOnOneDeviceTakeTurns) {
  OVERLAP_SKIP_WITHOUT_GPU();
  const std::vector<StrategyCase> cases = oneCasePerVariant();
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < 8; ++t)
    threads.emplace_back([&cases, t] {
      Random random;
      SCOPED_TRACE(random.trace());
      for (int round = 0; round < 5; ++round)
        checkColumn(cases[(t + round) % cases.size()], HostMemory::Pageable, 97, random);
    });
  for (std::thread& thread : threads)
    thread.join();
}

TEST(GridStrideGrid, FillsEveryMultiprocessorEquallyAndRefusesImpossibleBlocks) {
  OVERLAP_SKIP_WITHOUT_GPU();
  int device = 0;
  ASSERT_EQ(cudaGetDevice(&device), cudaSuccess);
  int multiprocessors = 0;
  ASSERT_EQ(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device),
            cudaSuccess);
  unsigned grid = 0;
  OVERLAP_ASSERT_OK(columnGrid(128, &grid));
  EXPECT_GE(grid, static_cast<unsigned>(multiprocessors));
  EXPECT_EQ(grid % static_cast<unsigned>(multiprocessors), 0u);
  unsigned impossible = 0;
  EXPECT_FALSE(columnGrid(2048, &impossible).ok());
  (void)cudaGetLastError();
}

} // namespace
} // namespace overlap::test
