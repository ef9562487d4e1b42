// Every generated variant of every benchmark application (bench/apps) against its CPU reference,
// bit for bit, at small odd sizes: chunks of unequal length, more streams than frames or levels.
// Calls go through the kernels' generated descriptors, as the tuner makes them, with pageable
// std::vector memory; outputs start as a pattern no kernel writes, so an unwritten chunk shows.
#include "frame_histogram.overlap.h"
#include "gray_histogram.overlap.h"
#include "pop_state.overlap.h"
#include "reference.h"
#include "scalar_add.overlap.h"
#include "sepia.overlap.h"

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

std::string gpuUnavailableReason() {
  int count = 0;
  const cudaError_t error = cudaGetDeviceCount(&count);
  if (error != cudaSuccess) {
    (void)cudaGetLastError(); // no device is an answer here, not an error to carry on
    return std::string("no CUDA device: cudaGetDeviceCount failed: ") + cudaGetErrorName(error);
  }
  return count == 0 ? "no CUDA device: cudaGetDeviceCount returned 0" : std::string();
}

std::mt19937_64& rng() {
  static std::mt19937_64 engine = [] {
    const unsigned long long seed = std::random_device{}();
    std::printf("random seed %llu\n", seed);
    return std::mt19937_64(seed);
  }();
  return engine;
}

template <class T> std::vector<T> randomIntegers(long long count) {
  std::uniform_int_distribution<unsigned long long> dist(0, static_cast<T>(~T(0)));
  std::vector<T> values(static_cast<size_t>(count));
  for (T& v : values)
    v = static_cast<T>(dist(rng()));
  return values;
}

std::vector<float> randomFloats(long long count, float low, float high) {
  std::uniform_real_distribution<float> dist(low, high);
  std::vector<float> values(static_cast<size_t>(count));
  for (float& v : values)
    v = dist(rng());
  return values;
}

// A pattern the kernels cannot produce everywhere: 0xA5 bytes.
template <class T> std::vector<T> unwritten(long long count) {
  std::vector<T> values(static_cast<size_t>(count));
  std::memset(values.data(), 0xA5, values.size() * sizeof(T));
  return values;
}

template <class T>
testing::AssertionResult sameBits(const std::vector<T>& got, const std::vector<T>& want) {
  if (got.size() != want.size())
    return testing::AssertionFailure() << "sizes " << got.size() << " vs " << want.size();
  size_t mismatches = 0, first = 0;
  for (size_t i = 0; i < got.size(); ++i)
    if (std::memcmp(&got[i], &want[i], sizeof(T)) != 0 && mismatches++ == 0)
      first = i;
  if (mismatches == 0)
    return testing::AssertionSuccess();
  return testing::AssertionFailure()
         << mismatches << " of " << got.size() << " elements differ, first at " << first << ": "
         << +got[first] << " vs " << +want[first];
}

struct Case {
  overlap::Variant variant;
  int streams; // Streams and Hybrid only
  overlap::IssueOrder order;
};

std::string describe(const Case& c) {
  if (c.variant == overlap::Variant::Explicit)
    return "Explicit";
  if (c.variant == overlap::Variant::Mapped)
    return "Mapped";
  return std::string(c.variant == overlap::Variant::Streams ? "Streams" : "Hybrid") +
         std::to_string(c.streams) +
         (c.order == overlap::IssueOrder::DepthFirst ? "DepthFirst" : "BreadthFirst");
}

void PrintTo(const Case& c, std::ostream* out) {
  *out << describe(c);
}

std::vector<Case> allCases() {
  std::vector<Case> cases = {{overlap::Variant::Explicit, 0, overlap::IssueOrder::DepthFirst},
                             {overlap::Variant::Mapped, 0, overlap::IssueOrder::DepthFirst}};
  for (overlap::Variant variant : {overlap::Variant::Streams, overlap::Variant::Hybrid})
    for (int streams : {1, 2, 3, 16})
      for (overlap::IssueOrder order :
           {overlap::IssueOrder::DepthFirst, overlap::IssueOrder::BreadthFirst})
        cases.push_back({variant, streams, order});
  return cases;
}

class BenchAppTest : public testing::TestWithParam<Case> {
protected:
  void SetUp() override {
    const std::string reason = gpuUnavailableReason();
    if (!reason.empty())
      GTEST_SKIP() << reason;
  }

  // args holds one pointer per kernel parameter, range mode's chunk bounds included (the
  // generated code fills those per chunk): a shorter array would be read past its end.
  template <std::size_t Count>
  overlap::Status run(const overlap::KernelDescriptor& kernel,
                      const void* const (&args)[Count]) const {
    if (kernel.param_count != static_cast<int>(Count)) {
      ADD_FAILURE() << kernel.name << " takes " << kernel.param_count
                    << " arguments, the test passed " << Count;
      return {cudaErrorInvalidValue, "argument count differs from the kernel's parameters",
              __FILE__, __LINE__};
    }
    overlap::RunConfig config;
    config.variant = GetParam().variant;
    config.streams.streams = GetParam().streams;
    config.streams.order = GetParam().order;
    return kernel.run(args, config);
  }
};

#define EXPECT_RUN_OK(expr)                                                                        \
  do {                                                                                             \
    const overlap::Status status_ = (expr);                                                        \
    ASSERT_TRUE(status_.ok()) << status_.message();                                                \
  } while (0)

TEST_P(BenchAppTest, ScalarAddMatchesCpu) {
  const int n = 1009;
  for (const int iterations : {1, 7}) {
    SCOPED_TRACE("iterations " + std::to_string(iterations));
    std::vector<unsigned int> values = randomIntegers<unsigned int>(n);
    std::vector<unsigned int> expected = values;
    bench::scalar_add(iterations, expected);
    unsigned int* data = values.data();
    const void* args[] = {&n, &iterations, &data};
    EXPECT_RUN_OK(run(scalar_add_descriptor, args));
    EXPECT_TRUE(sameBits(values, expected));
  }
}

TEST_P(BenchAppTest, FrameHistogramMatchesCpu) {
  const int frames = 7, pixels = 1009;
  const std::vector<unsigned char> video = randomIntegers<unsigned char>(1LL * frames * pixels);
  std::vector<unsigned int> histograms = unwritten<unsigned int>(frames * 256);
  const unsigned char* in = video.data();
  unsigned int* out = histograms.data();
  const void* args[] = {&frames, &pixels, &in, &out};
  EXPECT_RUN_OK(run(frame_histogram_descriptor, args));
  EXPECT_TRUE(sameBits(histograms, bench::frame_histograms(frames, pixels, video)));
}

TEST_P(BenchAppTest, GrayHistogramMatchesCpu) {
  const int frames = 5, pixels = 1013;
  const std::vector<unsigned char> rgb = randomIntegers<unsigned char>(3LL * frames * pixels);
  std::vector<unsigned char> gray = unwritten<unsigned char>(1LL * frames * pixels);
  std::vector<unsigned int> histograms = unwritten<unsigned int>(frames * 256);
  const unsigned char* in = rgb.data();
  unsigned char* gray_out = gray.data();
  unsigned int* histograms_out = histograms.data();
  const void* args[] = {&frames, &pixels, &in, &gray_out, &histograms_out};
  EXPECT_RUN_OK(run(gray_histogram_descriptor, args));
  const std::vector<unsigned char> expected_gray = bench::grayscale(rgb);
  EXPECT_TRUE(sameBits(gray, expected_gray));
  EXPECT_TRUE(sameBits(histograms, bench::frame_histograms(frames, pixels, expected_gray)));
}

TEST_P(BenchAppTest, SepiaMatchesCpu) {
  const int pixels = 1009;
  const std::vector<unsigned char> rgb = randomIntegers<unsigned char>(3LL * pixels);
  std::vector<unsigned char> toned = unwritten<unsigned char>(3LL * pixels);
  const unsigned char* in = rgb.data();
  unsigned char* out = toned.data();
  const void* args[] = {&pixels, &in, &out};
  EXPECT_RUN_OK(run(sepia_descriptor, args));
  EXPECT_TRUE(sameBits(toned, bench::sepia(rgb)));
}

TEST_P(BenchAppTest, PopStateMatchesCpu) {
  const int levels = 5;
  const long long plane = 1009;
  const std::vector<float> temperature = randomFloats(levels * plane, -2.0f, 30.0f);
  const std::vector<float> salinity = randomFloats(levels * plane, 30.0f, 40.0f);
  std::vector<float> density = unwritten<float>(levels * plane);
  const float* t = temperature.data();
  const float* s = salinity.data();
  float* out = density.data();
  const int chunk_bound_slot = 0; // k_begin and k_end: set per chunk by the generated code
  const void* args[] = {&levels, &plane, &chunk_bound_slot, &chunk_bound_slot, &t, &s, &out};
  EXPECT_RUN_OK(run(pop_state_descriptor, args));
  EXPECT_TRUE(sameBits(density, bench::pop_state(levels, plane, temperature, salinity)));
}

INSTANTIATE_TEST_SUITE_P(EveryVariant, BenchAppTest, testing::ValuesIn(allCases()),
                         [](const testing::TestParamInfo<Case>& info) {
                           return describe(info.param);
                         });

} // namespace
