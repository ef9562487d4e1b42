// Calls split across GPUs (StreamsConfig::devices, detail/MultiDevice.cuh) through the generated
// descriptors, as the tuner and K_tuned run them: every variant of saxpy (offset mode), matmul (a
// broadcast input) and buoydiff (a halo across each device boundary, Hybrid's mapped output)
// equals single-GPU Explicit on fresh random data at odd sizes, on pageable and pinned memory.
// Cases on two devices skip with fewer visible; "all devices" runs wherever a GPU is, so that one
// GPU runs the split path too.
#include "ExampleCases.h"
#include "GpuTestSupport.h"
#include "buoydiff.overlap.h"
#include "matmul.overlap.h"
#include "saxpy.overlap.h"

#include "overlap/Descriptor.h"
#include "overlap/Device.h"
#include "overlap/Dispatch.h"
#include "overlap/TunedSizes.h"

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace {

using overlap::IssueOrder;
using overlap::RunConfig;
using overlap::Variant;
using overlap::test::HostBuffer;
using overlap::test::HostMemory;

struct SplitCase {
  overlap::test::ExampleCase variant;
  int devices; // StreamsConfig::devices: 0 all, 2 two
  HostMemory memory;
};

std::string splitCaseName(const testing::TestParamInfo<SplitCase>& info) {
  const SplitCase& c = info.param;
  return describe(c.variant) + (c.devices == 0 ? "AllDevices" : "TwoDevices") + to_string(c.memory);
}

std::vector<SplitCase> splitCases() {
  std::vector<overlap::test::ExampleCase> variants = {{Variant::Explicit}, {Variant::Mapped}};
  for (Variant variant : {Variant::Streams, Variant::Hybrid}) {
    variants.push_back({variant, 3, IssueOrder::DepthFirst});
    variants.push_back({variant, 2, IssueOrder::BreadthFirst, 5});
    variants.push_back({variant, 2, IssueOrder::DepthFirst, 6, true});
  }
  std::vector<SplitCase> cases;
  for (const auto& variant : variants)
    for (int devices : {0, 2})
      for (HostMemory memory : {HostMemory::Pageable, HostMemory::Pinned})
        cases.push_back({variant, devices, memory});
  return cases;
}

int visibleDevices() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return count;
}

overlap::test::Random& random() {
  static overlap::test::Random generator;
  return generator;
}

// `count` random floats (never zero) in the case's memory.
HostBuffer<float> randomBuffer(long long count, HostMemory memory) {
  HostBuffer<float> buffer;
  const overlap::Status status =
      HostBuffer<float>::allocate(static_cast<std::size_t>(count), memory, &buffer);
  EXPECT_TRUE(status.ok()) << status.message();
  random().fill(buffer.data(), buffer.size());
  return buffer;
}

class SplitTest : public testing::TestWithParam<SplitCase> {
protected:
  void SetUp() override {
    OVERLAP_SKIP_WITHOUT_GPU();
    if (GetParam().devices > visibleDevices())
      GTEST_SKIP() << GetParam().devices << " GPUs needed, " << visibleDevices() << " visible";
    trace_.emplace(__FILE__, __LINE__, random().trace());
  }

  RunConfig config() const {
    const SplitCase& c = GetParam();
    RunConfig run{c.variant.variant, overlap::test::configOf(c.variant)};
    if (c.variant.variant == Variant::Explicit || c.variant.variant == Variant::Mapped)
      run.streams = overlap::StreamsConfig{};
    run.streams.devices = c.devices;
    return run;
  }

  // Runs `descriptor` split as the case says into `output`, and Explicit on one GPU into a copy
  // of its starting values, over the same inputs; both results must have the same bits. The
  // caller's current device is left as it was.
  void expectSameAsExplicit(const overlap::KernelDescriptor& descriptor,
                            const std::function<const void* const*(float* output)>& args,
                            HostBuffer<float>& output) {
    std::vector<float> expected(output.data(), output.data() + output.size());
    const overlap::Status single = descriptor.run(args(expected.data()), RunConfig{});
    ASSERT_TRUE(single.ok()) << single.message();
    int before = -1;
    ASSERT_EQ(cudaGetDevice(&before), cudaSuccess);
    const overlap::Status split = descriptor.run(args(output.data()), config());
    ASSERT_TRUE(split.ok()) << split.message();
    int after = -1;
    ASSERT_EQ(cudaGetDevice(&after), cudaSuccess);
    EXPECT_EQ(after, before);
    EXPECT_TRUE(overlap::test::bitwiseEqual(expected.data(), output.data(), output.size()));
  }

  static std::vector<long long> extents() {
    std::vector<long long> kept;
    for (long long e : {1LL, 2LL, 1009LL, (1LL << 20) + 3})
      if (e <= overlap::test::maxTestExtent())
        kept.push_back(e);
    return kept;
  }

private:
  std::optional<testing::ScopedTrace> trace_;
};

TEST_P(SplitTest, SaxpyEqualsExplicit) {
  for (long long extent : extents()) {
    SCOPED_TRACE("n = " + std::to_string(extent));
    int n = static_cast<int>(extent);
    float a = 1.75f;
    HostBuffer<float> x = randomBuffer(n, GetParam().memory);
    HostBuffer<float> y = randomBuffer(n, GetParam().memory);
    const float* xp = x.data();
    float* yp = nullptr;
    const void* argv[] = {&n, &a, &xp, &yp};
    expectSameAsExplicit(
        saxpy_descriptor,
        [&](float* output) -> const void* const* {
          yp = output;
          return argv;
        },
        y);
  }
}

TEST_P(SplitTest, MatmulEqualsExplicit) {
  for (long long extent : extents()) {
    SCOPED_TRACE("m = " + std::to_string(extent));
    int m = static_cast<int>(extent), n = 7, k = 5;
    HostBuffer<float> a = randomBuffer(extent * k, GetParam().memory);
    HostBuffer<float> b = randomBuffer(k * n, GetParam().memory);
    HostBuffer<float> c = randomBuffer(extent * n, GetParam().memory);
    const float* ap = a.data();
    const float* bp = b.data();
    float* cp = nullptr;
    const void* argv[] = {&m, &n, &k, &ap, &bp, &cp};
    expectSameAsExplicit(
        matmul_descriptor,
        [&](float* output) -> const void* const* {
          cp = output;
          return argv;
        },
        c);
  }
}

TEST_P(SplitTest, BuoydiffEqualsExplicit) {
  for (long long extent : extents()) {
    SCOPED_TRACE("levels = " + std::to_string(extent));
    int levels = static_cast<int>(extent);
    long long plane = 3;
    HostBuffer<float> rho = randomBuffer(extent * plane, GetParam().memory);
    HostBuffer<float> out = randomBuffer(extent * plane, GetParam().memory);
    const float* rhop = rho.data();
    float* outp = nullptr;
    int chunkBounds = 0; // k_begin, k_end: the strategies set them per chunk
    const void* argv[] = {&levels, &plane, &chunkBounds, &chunkBounds, &rhop, &outp};
    expectSameAsExplicit(
        buoydiff_descriptor,
        [&](float* output) -> const void* const* {
          outp = output;
          return argv;
        },
        out);
  }
}

INSTANTIATE_TEST_SUITE_P(SplitVariants, SplitTest, testing::ValuesIn(splitCases()), splitCaseName);

// The generated entry point a user calls, with a device list: the last visible device alone
// (not the current one) computes what Explicit does, and asking for more devices than exist is
// an error naming both counts.
TEST(SplitCall, DeviceMaskAndTooManyDevices) {
  OVERLAP_SKIP_WITHOUT_GPU();
  const int visible = visibleDevices();
  const int n = 4099;
  std::vector<float> x(n), y(n);
  random().fill(x.data(), x.size());
  random().fill(y.data(), y.size());
  std::vector<float> expected = y;
  ASSERT_TRUE(saxpy_explicit(n, 0.5f, x.data(), expected.data()).ok());
  overlap::StreamsConfig config{3, IssueOrder::DepthFirst};
  config.devices = 0;
  config.deviceMask = std::uint64_t{1} << (visible - 1);
  const overlap::Status status = saxpy_streams(n, 0.5f, x.data(), y.data(), config);
  ASSERT_TRUE(status.ok()) << status.message();
  EXPECT_TRUE(overlap::test::bitwiseEqual(expected.data(), y.data(), y.size()));

  config.deviceMask = 0;
  config.devices = visible + 1;
  const overlap::Status tooMany = saxpy_streams(n, 0.5f, x.data(), y.data(), config);
  EXPECT_EQ(tooMany.code, cudaErrorInvalidDevice);
  EXPECT_NE(tooMany.message().find("StreamsConfig::devices = " + std::to_string(visible + 1)),
            std::string::npos)
      << tooMany.message();
}

// K_tuned with a split baked in (what overlap-tune --devices 2 writes): it runs across two GPUs
// where there are two, on the one there is otherwise (saying so), and computes what Explicit does.
TEST(SplitCall, TheTunedCallRunsABakedSplit) {
  OVERLAP_SKIP_WITHOUT_GPU();
  static std::string deviceName;
  deviceName = overlap::currentDeviceName();
  const int n = 1000003; // prime
  static overlap::TunedSize sizes[] = {
      {n, Variant::Streams, 4, IssueOrder::DepthFirst, 1e-3, 1e-3, 1e-5}};
  sizes[0].devices = 2;
  static const overlap::BakedChoice baked[] = {{"saxpy", deviceName.c_str(), sizes, 1}};
  ASSERT_TRUE(overlap::registerBakedChoices(baked, 1));

  HostBuffer<float> x = randomBuffer(n, HostMemory::Pinned);
  HostBuffer<float> y = randomBuffer(n, HostMemory::Pinned);
  std::vector<float> expected(y.data(), y.data() + n);
  ASSERT_TRUE(saxpy_explicit(n, 0.25f, x.data(), expected.data()).ok());
  const overlap::Status status = saxpy_tuned(n, 0.25f, x.data(), y.data());
  ASSERT_TRUE(status.ok()) << status.message();
  EXPECT_TRUE(overlap::test::bitwiseEqual(expected.data(), y.data(), y.size()));
  const std::optional<overlap::VariantChoice> last = overlap::lastDispatchChoice(saxpy_descriptor);
  ASSERT_TRUE(last.has_value());
  EXPECT_EQ(last->source, overlap::ChoiceSource::Baked) << last->reason;
  EXPECT_EQ(last->config.streams.devices, std::min(2, visibleDevices())) << last->reason;
  if (visibleDevices() < 2) {
    EXPECT_NE(last->reason.find("no more are visible"), std::string::npos) << last->reason;
  }
}

} // namespace
