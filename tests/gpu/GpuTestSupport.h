// Reusable pieces of GPU tests: skipping without a device, fresh random data with a printed seed,
// pageable or pinned host buffers, and bit-exact comparison.
#pragma once

#include "overlap/PinnedBuffer.h"
#include "overlap/Status.h"

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iomanip>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>

namespace overlap::test {

// Empty when a CUDA device is usable, otherwise why not.
inline std::string cudaDeviceUnavailableReason() {
  int count = 0;
  const cudaError_t error = cudaGetDeviceCount(&count);
  if (error != cudaSuccess) {
    (void)cudaGetLastError();
    return std::string("no CUDA device: cudaGetDeviceCount failed: ") + cudaGetErrorName(error);
  }
  if (count == 0)
    return "no CUDA device: cudaGetDeviceCount returned 0";
  return {};
}

// OVERLAP_TEST_MAX_EXTENT=<n>: the largest extent the tests of many sizes call (the
// compute-sanitizer runs set it to keep instrumented calls short); unlimited when unset.
inline long long maxTestExtent() {
  const char* limit = std::getenv("OVERLAP_TEST_MAX_EXTENT");
  return limit ? std::atoll(limit) : (1LL << 62);
}

} // namespace overlap::test

// Skips the current test, saying why, on a machine without a usable CUDA device.
#define OVERLAP_SKIP_WITHOUT_GPU()                                                                 \
  do {                                                                                             \
    const std::string overlapSkipReason_ = ::overlap::test::cudaDeviceUnavailableReason();         \
    if (!overlapSkipReason_.empty())                                                               \
      GTEST_SKIP() << overlapSkipReason_;                                                          \
  } while (0)

// Fails the current test with the status's message unless it is ok.
#define OVERLAP_ASSERT_OK(expr)                                                                    \
  do {                                                                                             \
    const ::overlap::Status overlapAssertStatus_ = (expr);                                         \
    ASSERT_TRUE(overlapAssertStatus_.ok()) << #expr << ": " << overlapAssertStatus_.message();     \
  } while (0)

namespace overlap::test {

// Random data for one test: seeded from std::random_device, the seed in every failure message
// (SCOPED_TRACE(random.trace())) so a failure can be replayed with Random(seed).
class Random {
public:
  Random() : Random(std::random_device{}()) {}
  explicit Random(std::uint64_t seed) : seed_(seed), state_(seed) {}

  std::uint64_t seed() const { return seed_; }
  std::string trace() const { return "random seed " + std::to_string(seed_); }

  // SplitMix64: fast enough to fill arrays of 2^24 elements per test case at -O0.
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }

  // Never zero (a zero would hide a missing copy into a zero-initialized buffer): floats with
  // magnitude in [0.5, 2) and either sign, integers in [1, 2^32).
  void fill(float* data, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) {
      const std::uint64_t bits = next();
      const float magnitude = 0.5f + 1.5f * static_cast<float>(bits >> 40) / 16777216.0f;
      data[i] = (bits & 1) != 0 ? -magnitude : magnitude;
    }
  }
  void fill(std::uint32_t* data, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) {
      std::uint32_t value = static_cast<std::uint32_t>(next() >> 32);
      data[i] = value == 0 ? 1 : value;
    }
  }

  // Every bit pattern of an unsigned integer type, zero included: for data whose meaning needs
  // the full range (pixels, histogram bins). Outputs are then checked against a pattern no kernel
  // writes everywhere, not against zeros.
  template <class T> void fillAny(T* data, std::size_t count) {
    static_assert(std::is_unsigned<T>::value, "unsigned integers only");
    for (std::size_t i = 0; i < count; ++i)
      data[i] = static_cast<T>(next() >> (64 - 8 * sizeof(T)));
  }
  // Uniform in [low, high), 24 random bits: quantities with a physical range.
  void fillUniform(float* data, std::size_t count, float low, float high) {
    for (std::size_t i = 0; i < count; ++i)
      data[i] = low + (high - low) * (static_cast<float>(next() >> 40) / 16777216.0f);
  }

private:
  std::uint64_t seed_;
  std::uint64_t state_;
};

enum class HostMemory : unsigned char { Pageable, Pinned };

inline const char* to_string(HostMemory memory) {
  return memory == HostMemory::Pinned ? "Pinned" : "Pageable";
}

// `count` elements of T in pageable (operator new) or pinned (cudaHostAlloc) host memory.
template <class T> class HostBuffer {
  static_assert(std::is_trivially_copyable<T>::value, "plain data only");

public:
  HostBuffer() = default;
  static Status allocate(std::size_t count, HostMemory memory, HostBuffer* out) {
    out->pageable_.reset();
    OVERLAP_TRY(out->pinned_.reset());
    out->count_ = count;
    out->memory_ = memory;
    if (memory == HostMemory::Pinned)
      return PinnedBuffer::allocate(count * sizeof(T), &out->pinned_);
    out->pageable_.reset(new T[count > 0 ? count : 1]);
    return Status::success();
  }

  T* data() const { return memory_ == HostMemory::Pinned ? pinned_.as<T>() : pageable_.get(); }
  std::size_t size() const { return count_; }
  HostMemory memory() const { return memory_; }
  T& operator[](std::size_t i) const { return data()[i]; }

private:
  std::unique_ptr<T[]> pageable_;
  PinnedBuffer pinned_;
  std::size_t count_ = 0;
  HostMemory memory_ = HostMemory::Pageable;
};

// Succeeds when both arrays hold the same bits; otherwise names the first mismatch and counts
// all of them. Bit equality, not ==: -0.0f vs 0.0f or two different NaNs are differences too.
template <class T>
::testing::AssertionResult bitwiseEqual(const T* expected, const T* actual, std::size_t count) {
  std::size_t mismatches = 0;
  std::size_t first = 0;
  for (std::size_t i = 0; i < count; ++i) {
    if (std::memcmp(&expected[i], &actual[i], sizeof(T)) != 0) {
      if (mismatches == 0)
        first = i;
      ++mismatches;
    }
  }
  if (mismatches == 0)
    return ::testing::AssertionSuccess();
  std::ostringstream message;
  message << mismatches << " of " << count << " elements differ; first at " << first;
  if constexpr (std::is_arithmetic<T>::value)
    message << std::setprecision(9) << ": expected " << +expected[first] << ", got "
            << +actual[first];
  return ::testing::AssertionFailure() << message.str();
}

} // namespace overlap::test
