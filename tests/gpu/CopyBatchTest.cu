// A stream's copies issued together (overlap/CopyBatch.h): more copies than one batch holds, both
// directions, and every variant with its copies batched and issued one by one, equal to the CPU's
// result bit for bit.
#include "GpuTestSupport.h"
#include "StrategyChecks.h"
#include "overlap/CopyBatch.h"
#include "overlap/PinnedBuffer.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace overlap::test {
namespace {

// Restores batching however a test ends.
struct BatchedCopiesScope {
  explicit BatchedCopiesScope(bool on) { setBatchedCopies(on); }
  ~BatchedCopiesScope() { setBatchedCopies(true); }
};

TEST(CopyBatch, ManyCopiesBothWaysBatchedOrOneByOne) {
  OVERLAP_SKIP_WITHOUT_GPU();
  Random random;
  SCOPED_TRACE(random.trace());
  // 37 sections of different sizes: more than a batch holds, and a last one issued alone.
  std::vector<std::size_t> sizes;
  std::size_t total = 0;
  for (int i = 0; i < 37; ++i) {
    sizes.push_back(static_cast<std::size_t>(1 + 97 * i) * sizeof(float));
    total += sizes.back();
  }
  for (bool batched : {true, false}) {
    SCOPED_TRACE(batched ? "batched" : "one by one");
    const BatchedCopiesScope scope(batched);
    PinnedBuffer in;
    PinnedBuffer out;
    OVERLAP_ASSERT_OK(PinnedBuffer::allocate(total, &in));
    OVERLAP_ASSERT_OK(PinnedBuffer::allocate(total, &out));
    random.fill(in.as<float>(), total / sizeof(float));
    random.fill(out.as<float>(), total / sizeof(float));
    void* device = nullptr;
    ASSERT_EQ(cudaMalloc(&device, total), cudaSuccess);
    cudaStream_t stream = nullptr;
    ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);
    {
      CopyBatch toDevice(stream);
      std::size_t offset = 0;
      for (std::size_t bytes : sizes) {
        OVERLAP_ASSERT_OK(
            toDevice.add(static_cast<char*>(device) + offset, in.as<char>() + offset, bytes));
        offset += bytes;
      }
      OVERLAP_ASSERT_OK(toDevice.issue());
      CopyBatch toHost(stream);
      offset = 0;
      for (std::size_t bytes : sizes) {
        OVERLAP_ASSERT_OK(
            toHost.add(out.as<char>() + offset, static_cast<char*>(device) + offset, bytes));
        offset += bytes;
      }
      OVERLAP_ASSERT_OK(toHost.issue());
      OVERLAP_ASSERT_OK(toHost.issue()); // nothing left: no call
    }
    ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
    EXPECT_EQ(std::memcmp(in.data(), out.data(), total), 0);
    EXPECT_EQ(cudaStreamDestroy(stream), cudaSuccess);
    EXPECT_EQ(cudaFree(device), cudaSuccess);
  }
  // CUDA 13 drivers batch: a refusal (cudaErrorNotSupported) would have turned batching off.
  EXPECT_TRUE(batchedCopies());
}

// cudaMemcpyBatchAsync refuses the legacy default stream (an asynchronous call on stream 0): its
// copies go one by one, and no error is left behind for the next call.
TEST(CopyBatch, TheLegacyDefaultStreamTakesItsCopiesOneByOne) {
  OVERLAP_SKIP_WITHOUT_GPU();
  Random random;
  SCOPED_TRACE(random.trace());
  const std::size_t count = 3 * 1031;
  PinnedBuffer in;
  PinnedBuffer out;
  OVERLAP_ASSERT_OK(PinnedBuffer::allocate(count * sizeof(float), &in));
  OVERLAP_ASSERT_OK(PinnedBuffer::allocate(count * sizeof(float), &out));
  random.fill(in.as<float>(), count);
  random.fill(out.as<float>(), count);
  float* device = nullptr;
  ASSERT_EQ(cudaMalloc(&device, count * sizeof(float)), cudaSuccess);
  CopyBatch toDevice(nullptr);
  CopyBatch toHost(nullptr);
  for (std::size_t part = 0; part < 3; ++part) {
    const std::size_t at = part * 1031;
    OVERLAP_ASSERT_OK(toDevice.add(device + at, in.as<float>() + at, 1031 * sizeof(float)));
    OVERLAP_ASSERT_OK(toHost.add(out.as<float>() + at, device + at, 1031 * sizeof(float)));
  }
  OVERLAP_ASSERT_OK(toDevice.issue());
  OVERLAP_ASSERT_OK(toHost.issue());
  ASSERT_EQ(cudaStreamSynchronize(nullptr), cudaSuccess);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  EXPECT_EQ(std::memcmp(in.data(), out.data(), count * sizeof(float)), 0);
  EXPECT_EQ(cudaFree(device), cudaSuccess);
}

// Saxpy copies two arrays a chunk, matmul a broadcast matrix, the column kernel halos and an
// in-out array: each variant's copies batched, then one by one.
TEST(CopyBatch, EveryVariantBatchedOrOneByOneEqualsTheCpu) {
  OVERLAP_SKIP_WITHOUT_GPU();
  Random random;
  SCOPED_TRACE(random.trace());
  for (bool batched : {true, false}) {
    SCOPED_TRACE(batched ? "batched" : "one by one");
    const BatchedCopiesScope scope(batched);
    checkEveryVariantSmall(random);
  }
}

} // namespace
} // namespace overlap::test
