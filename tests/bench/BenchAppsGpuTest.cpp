// Every generated variant of every benchmark application (bench/apps) against its CPU reference,
// bit for bit, at small odd sizes: chunks of unequal length, more streams than frames or levels.
// Calls go through the kernels' generated descriptors, as the tuner makes them, with pageable
// std::vector memory; outputs start as a pattern no kernel writes, so an unwritten chunk shows.
// The GPU tests' shared support (skip reason, seeded random data), by path: this target lives in
// bench/CMakeLists.txt, outside tests/gpu.
#include "../gpu/GpuTestSupport.h"
#include "Reference.h"
#include "frame_histogram.overlap.h"
#include "gray_histogram.overlap.h"
#include "pop_state.overlap.h"
#include "scalar_add.overlap.h"
#include "sepia.overlap.h"

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

namespace {

// One generator for the whole run, its seed printed once and traced in every test.
overlap::test::Random& random() {
  static overlap::test::Random* const generator = [] {
    auto* made = new overlap::test::Random;
    std::printf("%s\n", made->trace().c_str());
    return made;
  }();
  return *generator;
}

template <class T> std::vector<T> randomIntegers(long long count) {
  std::vector<T> values(static_cast<size_t>(count));
  random().fillAny(values.data(), values.size());
  return values;
}

std::vector<float> randomFloats(long long count, float low, float high) {
  std::vector<float> values(static_cast<size_t>(count));
  random().fillUniform(values.data(), values.size(), low, high);
  return values;
}

// A pattern the kernels cannot produce everywhere: 0xA5 bytes.
template <class T> std::vector<T> unwritten(long long count) {
  std::vector<T> values(static_cast<size_t>(count));
  std::memset(values.data(), 0xA5, values.size() * sizeof(T));
  return values;
}

// Bit equality (overlap::test::bitwiseEqual), sizes first.
template <class T>
testing::AssertionResult sameBits(const std::vector<T>& got, const std::vector<T>& want) {
  if (got.size() != want.size())
    return testing::AssertionFailure() << "sizes " << got.size() << " vs " << want.size();
  return overlap::test::bitwiseEqual(want.data(), got.data(), got.size());
}

struct Case {
  overlap::Variant variant;
  int streams; // Streams and Hybrid only
  overlap::IssueOrder order;
  int chunks = 0;    // 0: one per stream
  bool ring = false; // out of core: DeviceBuffers::Ring, one slot per stream
};

std::string describe(const Case& c) {
  if (c.variant == overlap::Variant::Explicit)
    return "Explicit";
  if (c.variant == overlap::Variant::Mapped)
    return "Mapped";
  return std::string(c.variant == overlap::Variant::Streams ? "Streams" : "Hybrid") +
         std::to_string(c.streams) + (c.chunks > 0 ? "x" + std::to_string(c.chunks) : "") +
         (c.ring ? "Ring" : "") +
         (c.order == overlap::IssueOrder::DepthFirst ? "DepthFirst" : "BreadthFirst");
}

void PrintTo(const Case& c, std::ostream* out) {
  *out << describe(c);
}

std::vector<Case> allCases() {
  std::vector<Case> cases = {{overlap::Variant::Explicit, 0, overlap::IssueOrder::DepthFirst},
                             {overlap::Variant::Mapped, 0, overlap::IssueOrder::DepthFirst}};
  for (overlap::Variant variant : {overlap::Variant::Streams, overlap::Variant::Hybrid})
    for (overlap::IssueOrder order :
         {overlap::IssueOrder::DepthFirst, overlap::IssueOrder::BreadthFirst}) {
      for (int streams : {1, 2, 3, 16})
        cases.push_back({variant, streams, order});
      // More chunks than streams; then out of core, the ring turning 2, 3 and many times (as
      // many as the partition has granules: 5 to 7 frames or levels, 1009 pixels).
      cases.push_back({variant, 2, order, 5});
      for (const auto& [streams, chunks] : {std::pair<int, int>{2, 4}, {3, 9}, {2, 1009}})
        cases.push_back({variant, streams, order, chunks, true});
    }
  return cases;
}

class BenchAppTest : public testing::TestWithParam<Case> {
protected:
  void SetUp() override {
    OVERLAP_SKIP_WITHOUT_GPU();
    trace_.emplace(__FILE__, __LINE__, random().trace());
  }

  // args holds one pointer per kernel parameter, range mode's chunk bounds included (the
  // generated code fills those per chunk): a shorter array would be read past its end.
  template <std::size_t Count>
  overlap::Status run(const overlap::KernelDescriptor& kernel,
                      const void* const (&args)[Count]) const {
    if (kernel.paramCount != static_cast<int>(Count)) {
      ADD_FAILURE() << kernel.name << " takes " << kernel.paramCount
                    << " arguments, the test passed " << Count;
      return {cudaErrorInvalidValue, "argument count differs from the kernel's parameters",
              __FILE__, __LINE__};
    }
    overlap::RunConfig config;
    config.variant = GetParam().variant;
    config.streams.streams = GetParam().streams;
    config.streams.order = GetParam().order;
    config.streams.chunks = GetParam().chunks;
    config.streams.buffers =
        GetParam().ring ? overlap::DeviceBuffers::Ring : overlap::DeviceBuffers::Auto;
    return kernel.run(args, config);
  }

private:
  std::optional<testing::ScopedTrace> trace_; // the seed, in every failure of the test
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
  EXPECT_TRUE(sameBits(histograms, bench::frameHistograms(frames, pixels, video)));
}

TEST_P(BenchAppTest, GrayHistogramMatchesCpu) {
  const int frames = 5, pixels = 1013;
  const std::vector<unsigned char> rgb = randomIntegers<unsigned char>(3LL * frames * pixels);
  std::vector<unsigned char> gray = unwritten<unsigned char>(1LL * frames * pixels);
  std::vector<unsigned int> histograms = unwritten<unsigned int>(frames * 256);
  const unsigned char* in = rgb.data();
  unsigned char* grayOut = gray.data();
  unsigned int* histogramsOut = histograms.data();
  const void* args[] = {&frames, &pixels, &in, &grayOut, &histogramsOut};
  EXPECT_RUN_OK(run(gray_histogram_descriptor, args));
  const std::vector<unsigned char> expectedGray = bench::grayscale(rgb);
  EXPECT_TRUE(sameBits(gray, expectedGray));
  EXPECT_TRUE(sameBits(histograms, bench::frameHistograms(frames, pixels, expectedGray)));
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
  const int chunkBoundSlot = 0; // k_begin and k_end: set per chunk by the generated code
  const void* args[] = {&levels, &plane, &chunkBoundSlot, &chunkBoundSlot, &t, &s, &out};
  EXPECT_RUN_OK(run(pop_state_descriptor, args));
  EXPECT_TRUE(sameBits(density, bench::pop_state(levels, plane, temperature, salinity)));
}

INSTANTIATE_TEST_SUITE_P(EveryVariant, BenchAppTest, testing::ValuesIn(allCases()),
                         [](const testing::TestParamInfo<Case>& info) {
                           return describe(info.param);
                         });

} // namespace
