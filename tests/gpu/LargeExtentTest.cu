// Every variant past 2^31 elements (issue 7): a partition of 2^31 + 11 one-byte elements, a kernel
// indexing with 64-bit integers, fresh random data, every output byte compared with a CPU
// reference. Catches int/unsigned narrowing anywhere between the binding and the copies: chunk
// bounds, section clipping, byte offsets, grid sizes, mapped pointers.
#include "GpuTestSupport.h"
#include "StrategyCases.cuh"
#include "overlap/DeviceContext.h"
#include "overlap/HostMemoryKind.h"
#include "overlap/Launch.cuh"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace overlap::test {
namespace {

constexpr long long kExtent = (1LL << 31) + 11;

// Depends on the element's global index through bits both below and above bit 31, so an element
// computed or copied at the wrong index (say, wrapped at 2^31) comes out different.
__host__ __device__ inline std::uint8_t mix(std::uint8_t x, long long global) {
  return static_cast<std::uint8_t>(3u * x + 7u * static_cast<unsigned>(global) +
                                   static_cast<unsigned>(global >> 24) + 1u);
}

__global__ void mixKernel(long long lo, long long len, const std::uint8_t* x, std::uint8_t* z) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i < len)
    z[i] = mix(x[i], lo + i);
}

// z = mix(x, index) in offset mode, like generated glue: pointers advanced to the chunk. z is a
// pure output, so Hybrid writes it through mapped memory.
struct MixBinding {
  static constexpr int kArrays = 2;
  long long n = 0;
  const std::uint8_t* x = nullptr;
  std::uint8_t* z = nullptr;

  long long partitionExtent() const { return n; }
  long long partitionBegin() const { return 0; }
  long long granule() const { return 1; }
  Status checkCall() const { return Status::success(); }
  HostArray array(int i) const {
    if (i == 0)
      return {const_cast<std::uint8_t*>(x), 1, n, Direction::In, "x"};
    return {z, 1, n, Direction::Out, "z"};
  }
  static int sectionCount(int) { return 1; }
  static bool sectionIsChunked(int, int) { return true; }
  Section section(int, int, long long lo, long long hi) const { return {lo, hi}; }
  Status launch(void* const* bases, long long lo, long long hi, cudaStream_t stream) const {
    const long long len = hi - lo;
    constexpr long long kBlock = 256;
    unsigned grid_x = 0;
    OVERLAP_TRY(checkedDim((len + kBlock - 1) / kBlock, "mix: grid.x", &grid_x));
    mixKernel<<<grid_x, kBlock, 0, stream>>>(lo, len,
                                             static_cast<const std::uint8_t*>(bases[0]) + lo,
                                             static_cast<std::uint8_t*>(bases[1]) + lo);
    return launchStatus("mix<<<...>>>");
  }
};

// Random bytes, none zero (a zero would hide an element nobody wrote into zeroed memory).
void fillBytes(Random& random, std::uint8_t* data, std::size_t count) {
  std::size_t i = 0;
  while (i < count) {
    std::uint64_t bits = random.next();
    for (int b = 0; b < 8 && i < count; ++b, ++i, bits >>= 8) {
      const auto value = static_cast<std::uint8_t>(bits);
      data[i] = value == 0 ? 1 : value;
    }
  }
}

// FNV-1a over 8-byte words: enough to tell whether 2 GiB of input changed, without a copy.
std::uint64_t fingerprint(const std::uint8_t* data, std::size_t count) {
  std::uint64_t hash = 1469598103934665603ULL;
  std::size_t i = 0;
  for (; i + 8 <= count; i += 8) {
    std::uint64_t word = 0;
    std::memcpy(&word, data + i, 8);
    hash = (hash ^ word) * 1099511628211ULL;
  }
  for (; i < count; ++i)
    hash = (hash ^ data[i]) * 1099511628211ULL;
  return hash;
}

std::string memoryShortage() {
  const auto bytes = static_cast<std::size_t>(kExtent);
  std::size_t free = 0;
  std::size_t total = 0;
  if (cudaMemGetInfo(&free, &total) != cudaSuccess) {
    (void)cudaGetLastError();
    return "cudaMemGetInfo failed";
  }
  // x and z on the device, plus room for the driver.
  if (free < 2 * bytes + (std::size_t{256} << 20))
    return "needs " + std::to_string((2 * bytes) >> 20) + " MiB of device memory, " +
           std::to_string(free >> 20) + " MiB free";
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page = sysconf(_SC_PAGESIZE);
  const std::size_t host = pages > 0 && page > 0 ? static_cast<std::size_t>(pages) * page : 0;
  // x, z and the reference, plus as much again for everything else the machine runs.
  if (host < 6 * bytes)
    return "needs " + std::to_string((6 * bytes) >> 20) + " MiB of host memory, " +
           std::to_string(host >> 20) + " MiB present";
  return {};
}

TEST(LargeExtent, EveryVariantPast2To31OneByteElements) {
  OVERLAP_SKIP_WITHOUT_GPU();
  const std::string shortage = memoryShortage();
  if (!shortage.empty())
    GTEST_SKIP() << "n = 2^31 + 11 bytes: " << shortage;
  int device = 0;
  int canMap = 0;
  ASSERT_EQ(cudaGetDevice(&device), cudaSuccess);
  ASSERT_EQ(cudaDeviceGetAttribute(&canMap, cudaDevAttrCanMapHostMemory, device), cudaSuccess);

  Random random;
  SCOPED_TRACE(random.trace());
  const auto count = static_cast<std::size_t>(kExtent);
  std::unique_ptr<std::uint8_t[]> x(new std::uint8_t[count]);
  std::unique_ptr<std::uint8_t[]> z(new std::uint8_t[count]);
  std::unique_ptr<std::uint8_t[]> reference(new std::uint8_t[count]);
  fillBytes(random, x.get(), count);
  for (std::size_t i = 0; i < count; ++i)
    reference[i] = mix(x[i], static_cast<long long>(i));
  const std::uint64_t xFingerprint = fingerprint(x.get(), count);

  std::vector<StrategyCase> cases = {{Variant::Explicit, {}},
                                     {Variant::Streams, {4, IssueOrder::DepthFirst}},
                                     {Variant::Streams, {4, IssueOrder::BreadthFirst}}};
  if (canMap != 0) {
    cases.push_back({Variant::Mapped, {}});
    cases.push_back({Variant::Hybrid, {4, IssueOrder::DepthFirst}});
    cases.push_back({Variant::Hybrid, {4, IssueOrder::BreadthFirst}});
  }
  for (const StrategyCase& c : cases) {
    SCOPED_TRACE(nameOf(c));
    fillBytes(random, z.get(), count); // garbage every element must overwrite
    const Status status = runCase(MixBinding{kExtent, x.get(), z.get()}, c);
    ASSERT_TRUE(status.ok()) << status.message();
    // The elements either side of 2^31 first, for a readable message; then all of them.
    for (long long i : {0LL, (1LL << 31) - 1, 1LL << 31, (1LL << 31) + 1, kExtent - 1})
      EXPECT_EQ(+z[static_cast<std::size_t>(i)], +reference[static_cast<std::size_t>(i)])
          << "element " << i;
    EXPECT_EQ(std::memcmp(z.get(), reference.get(), count), 0)
        << "some output byte differs from the CPU's";
    EXPECT_EQ(fingerprint(x.get(), count), xFingerprint) << "the input x changed";
    EXPECT_EQ(classifyHostMemory(x.get()), HostMemoryKind::Pageable);
    if (HasFailure())
      return;
  }
  // 4.3 GB of device buffers are not left to the rest of the test program.
  EXPECT_TRUE(releaseCachedDeviceMemory().ok());
  if (canMap == 0)
    GTEST_SKIP() << "Mapped and Hybrid not tested: the device cannot map host memory";
}

} // namespace
} // namespace overlap::test
