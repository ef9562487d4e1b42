// What a call does with pageable arrays (PageableMode: registered per call, through the
// registration cache, or staged) on the examples' generated code: every variant in every mode on
// pageable, user-registered and pinned arrays equals Explicit bit for bit, at the odd sizes (one
// element, fewer elements than streams, a prime) and one that fills the staging ring many times
// over, and a staged call large enough for the automatic ring's many host threads; a buffer
// freed and allocated again between cached calls gets correct results;
// classifyHostRange tells the kinds apart; and a tuned call runs what was tuned on the memory
// of its arrays. OVERLAP_TEST_MAX_EXTENT=<n> drops the larger sizes.
#include "GpuTestSupport.h"
#include "buoydiff.overlap.h"
#include "matmul.overlap.h"
#include "saxpy.overlap.h"

#include "overlap/CallMemory.h"
#include "overlap/Descriptor.h"
#include "overlap/Dispatch.h"
#include "overlap/HostRangeKind.h"
#include "overlap/PinCache.h"

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace {

using overlap::PageableMode;
using overlap::test::Random;

enum class Memory : unsigned char { Pageable, Registered, Pinned, Managed };

const char* to_string(Memory memory) {
  switch (memory) {
  case Memory::Pageable:
    return "pageable";
  case Memory::Registered:
    return "registered by the user";
  case Memory::Pinned:
    return "pinned";
  case Memory::Managed:
    return "managed";
  }
  return "?";
}

// Host memory of one kind, page-aligned (cudaHostRegister of the user's own wants whole pages).
class HostBytes {
public:
  HostBytes(std::size_t bytes, Memory memory) : memory_(memory) {
    const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    bytes_ = (std::max<std::size_t>(bytes, 1) + page - 1) / page * page;
    if (memory == Memory::Pinned) {
      status_ = overlap::PinnedBuffer::allocate(bytes_, &pinned_);
      data_ = static_cast<unsigned char*>(pinned_.data());
      return;
    }
    if (memory == Memory::Managed) {
      void* managed = nullptr;
      if (cudaMallocManaged(&managed, bytes_) != cudaSuccess)
        status_ = {cudaGetLastError(), "cudaMallocManaged", __FILE__, __LINE__};
      data_ = static_cast<unsigned char*>(managed);
      return;
    }
    data_ = static_cast<unsigned char*>(std::aligned_alloc(page, bytes_));
    if (memory == Memory::Registered &&
        cudaHostRegister(data_, bytes_, cudaHostRegisterMapped | cudaHostRegisterPortable) !=
            cudaSuccess)
      status_ = {cudaGetLastError(), "cudaHostRegister", __FILE__, __LINE__};
  }
  HostBytes(const HostBytes&) = delete;
  HostBytes& operator=(const HostBytes&) = delete;
  ~HostBytes() {
    if (memory_ == Memory::Pinned)
      return;
    if (memory_ == Memory::Managed) {
      (void)cudaFree(data_);
      return;
    }
    (void)overlap::unpin(data_, bytes_); // the cache's contract: unpinned before it is freed
    if (memory_ == Memory::Registered && status_.ok())
      (void)cudaHostUnregister(data_);
    std::free(data_);
  }

  unsigned char* data() const { return data_; }
  const overlap::Status& status() const { return status_; }

private:
  Memory memory_;
  std::size_t bytes_ = 0;
  unsigned char* data_ = nullptr;
  overlap::PinnedBuffer pinned_;
  overlap::Status status_;
};

// The scalar arguments of one example's call over a partition of `extent`, by parameter name
// (the chunk bounds the generated code sets are left 0).
struct Example {
  const char* name;
  const overlap::KernelDescriptor* descriptor;
  std::map<std::string, double> (*scalars)(long long extent);
};

const Example kExamples[] = {
    {"saxpy", &saxpy_descriptor,
     [](long long extent) {
       return std::map<std::string, double>{{"n", extent}, {"a", 1.75}};
     }},
    {"matmul", &matmul_descriptor,
     [](long long extent) {
       return std::map<std::string, double>{{"m", extent}, {"n", 7}, {"k", 5}};
     }},
    {"buoydiff", &buoydiff_descriptor, [](long long extent) {
       return std::map<std::string, double>{{"levels", extent}, {"plane", 3}};
     }}};

// One call's arguments with its arrays in one kind of memory.
class Call {
public:
  Call(const Example& example, long long extent, Memory memory)
      : descriptor_(*example.descriptor), values_(descriptor_.paramCount, 0) {
    const std::map<std::string, double> scalars = example.scalars(extent);
    for (int p = 0; p < descriptor_.paramCount; ++p) {
      const overlap::ParamDescriptor& param = descriptor_.params[p];
      args_.push_back(&values_[static_cast<std::size_t>(p)]);
      if (param.isPointer)
        continue;
      const auto found = scalars.find(param.name);
      const double value = found == scalars.end() ? 0 : found->second;
      void* const slot = &values_[static_cast<std::size_t>(p)];
      if (param.kind == overlap::ElementKind::F32)
        *static_cast<float*>(slot) = static_cast<float>(value);
      else if (param.size == sizeof(int))
        *static_cast<int*>(slot) = static_cast<int>(value);
      else
        *static_cast<long long*>(slot) = static_cast<long long>(value);
    }
    for (int i = 0; i < descriptor_.arrayCount; ++i) {
      const overlap::ArrayDescriptor& array = descriptor_.arrays[i];
      const std::size_t bytes =
          static_cast<std::size_t>(descriptor_.arrayExtent(args_.data(), i)) * array.elementSize;
      sizes_.push_back(bytes);
      buffers_.push_back(std::make_unique<HostBytes>(bytes, memory));
      *reinterpret_cast<void**>(&values_[static_cast<std::size_t>(array.param)]) =
          buffers_.back()->data();
    }
  }

  overlap::Status ready() const {
    for (const auto& buffer : buffers_)
      if (!buffer->status().ok())
        return buffer->status();
    return {};
  }
  overlap::Status run(const overlap::RunConfig& config) const {
    return descriptor_.run(args_.data(), config);
  }
  // Every array's bytes, in array order.
  std::vector<std::vector<unsigned char>> bytes() const {
    std::vector<std::vector<unsigned char>> all;
    for (std::size_t i = 0; i < buffers_.size(); ++i)
      all.emplace_back(buffers_[i]->data(), buffers_[i]->data() + sizes_[i]);
    return all;
  }
  void set(const std::vector<std::vector<unsigned char>>& bytes) const {
    for (std::size_t i = 0; i < buffers_.size(); ++i)
      std::memcpy(buffers_[i]->data(), bytes[i].data(), sizes_[i]);
  }
  void fill(Random& random) const {
    for (std::size_t i = 0; i < buffers_.size(); ++i)
      random.fill(reinterpret_cast<float*>(buffers_[i]->data()), sizes_[i] / sizeof(float));
  }
  const unsigned char* array(int i) const { return buffers_[static_cast<std::size_t>(i)]->data(); }
  std::size_t arrayBytes(int i) const { return sizes_[static_cast<std::size_t>(i)]; }

private:
  const overlap::KernelDescriptor& descriptor_;
  std::vector<long long> values_; // one 8-byte slot per parameter
  std::vector<const void*> args_;
  std::vector<std::size_t> sizes_;
  std::vector<std::unique_ptr<HostBytes>> buffers_;
};

struct Config {
  overlap::RunConfig run;
  std::string name;
};

std::string modeName(PageableMode mode) {
  switch (mode) {
  case PageableMode::Default:
    return "default";
  case PageableMode::Register:
    return "register";
  case PageableMode::CachedRegister:
    return "cached";
  case PageableMode::Stage:
    return "staged";
  }
  return "?";
}

// Mapped in every mode; Streams and Hybrid on 4 streams, both orders, every mode, and staged
// through a ring of three 4 KiB slots, so that even the small sizes cut into pieces and the ring
// wraps around many times.
std::vector<Config> configs() {
  std::vector<Config> all;
  const PageableMode modes[] = {PageableMode::Default, PageableMode::Register,
                                PageableMode::CachedRegister, PageableMode::Stage};
  for (PageableMode mode : modes) {
    Config c;
    c.run.variant = overlap::Variant::Mapped;
    c.run.streams.pageable = mode;
    c.name = "Mapped " + modeName(mode);
    all.push_back(c);
  }
  for (overlap::Variant variant : {overlap::Variant::Streams, overlap::Variant::Hybrid})
    for (overlap::IssueOrder order :
         {overlap::IssueOrder::DepthFirst, overlap::IssueOrder::BreadthFirst}) {
      const std::string base =
          std::string(variant == overlap::Variant::Streams ? "Streams" : "Hybrid") +
          (order == overlap::IssueOrder::DepthFirst ? " depth " : " breadth ");
      for (PageableMode mode : modes) {
        Config c;
        c.run.variant = variant;
        c.run.streams = overlap::StreamsConfig{4, order, mode};
        c.name = base + modeName(mode);
        all.push_back(c);
      }
      Config tight;
      tight.run.variant = variant;
      tight.run.streams = overlap::StreamsConfig{4, order, PageableMode::Stage, {2, 4096, 3}};
      tight.name = base + "staged, 3 slots of 4 KiB";
      all.push_back(tight);
    }
  return all;
}

class PageableModes : public testing::TestWithParam<int> {
protected:
  void SetUp() override { OVERLAP_SKIP_WITHOUT_GPU(); }
};

TEST_P(PageableModes, EveryVariantInEveryModeOnEveryMemoryEqualsExplicit) {
  const Example& example = kExamples[GetParam()];
  Random random;
  SCOPED_TRACE(random.trace());
  for (long long extent : {1LL, 3LL, 1009LL, (1LL << 18) + 3}) {
    if (extent > overlap::test::maxTestExtent())
      continue;
    SCOPED_TRACE(std::string(example.name) + ", extent " + std::to_string(extent));
    const Call reference(example, extent, Memory::Pageable);
    OVERLAP_ASSERT_OK(reference.ready());
    reference.fill(random);
    const std::vector<std::vector<unsigned char>> initial = reference.bytes();
    OVERLAP_ASSERT_OK(reference.run(overlap::RunConfig{}));
    const std::vector<std::vector<unsigned char>> expected = reference.bytes();
    for (Memory memory : {Memory::Pageable, Memory::Registered, Memory::Pinned, Memory::Managed}) {
      const Call call(example, extent, memory);
      OVERLAP_ASSERT_OK(call.ready());
      for (const Config& config : configs()) {
        SCOPED_TRACE(config.name + " on " + to_string(memory) + " memory");
        call.set(initial);
        OVERLAP_ASSERT_OK(call.run(config.run));
        const std::vector<std::vector<unsigned char>> got = call.bytes();
        for (std::size_t i = 0; i < got.size(); ++i)
          ASSERT_EQ(got[i], expected[i])
              << "array " << example.descriptor->arrays[i].name << " differs from Explicit's";
        if (memory == Memory::Pageable &&
            config.run.streams.pageable == PageableMode::CachedRegister) {
          EXPECT_EQ(overlap::classifyHostRange(call.array(0), call.arrayBytes(0)),
                    overlap::HostRangeKind::Cached);
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Examples, PageableModes, testing::Range(0, 3),
                         [](const testing::TestParamInfo<int>& info) {
                           return std::string(kExamples[info.param].name);
                         });

// A staged call large enough for the automatic ring's many host threads (resolvedStaging: one
// per 8 MiB staged beyond 32 MiB, up to 16), every one filling and draining slots: Streams and
// Hybrid, both orders, equal to Explicit.
TEST(StagingRing, ALargeCallOnTheAutomaticRingEqualsExplicit) {
  OVERLAP_SKIP_WITHOUT_GPU();
  const long long extent = (24LL << 20) + 11; // x and y of 96 MiB
  if (extent > overlap::test::maxTestExtent())
    GTEST_SKIP() << "OVERLAP_TEST_MAX_EXTENT leaves out " << extent << " elements";
  const Example& saxpy = kExamples[0];
  Random random;
  SCOPED_TRACE(random.trace());
  const Call call(saxpy, extent, Memory::Pageable);
  OVERLAP_ASSERT_OK(call.ready());
  call.fill(random);
  const std::vector<std::vector<unsigned char>> initial = call.bytes();
  OVERLAP_ASSERT_OK(call.run(overlap::RunConfig{}));
  const std::vector<std::vector<unsigned char>> expected = call.bytes();
  const long long staged = 3 * static_cast<long long>(call.arrayBytes(0)); // x, y in; y out
  const int threads =
      overlap::resolvedStaging({}, staged, static_cast<int>(std::thread::hardware_concurrency()))
          .threads;
  if (std::thread::hardware_concurrency() > 8) {
    EXPECT_GT(threads, 4) << "the call should run more threads than a small one";
  }
  for (overlap::Variant variant : {overlap::Variant::Streams, overlap::Variant::Hybrid})
    for (overlap::IssueOrder order :
         {overlap::IssueOrder::DepthFirst, overlap::IssueOrder::BreadthFirst}) {
      overlap::RunConfig config;
      config.variant = variant;
      config.streams = overlap::StreamsConfig{8, order, PageableMode::Stage};
      SCOPED_TRACE(overlap::describe(config) + ", " + std::to_string(threads) + " threads");
      call.set(initial);
      OVERLAP_ASSERT_OK(call.run(config));
      const std::vector<std::vector<unsigned char>> got = call.bytes();
      for (std::size_t i = 0; i < got.size(); ++i)
        ASSERT_TRUE(got[i] == expected[i]) << "array " << i << " differs from Explicit's";
    }
}

overlap::RunConfig cachedStreams() {
  overlap::RunConfig config;
  config.variant = overlap::Variant::Streams;
  config.streams =
      overlap::StreamsConfig{8, overlap::IssueOrder::DepthFirst, PageableMode::CachedRegister};
  return config;
}

// The contract: unpinned, then freed; the next buffers, wherever the allocator puts them (often
// at the same address), are registered anew and the results are right.
TEST(RegistrationCache, BuffersFreedAfterUnpinAndAllocatedAgainGiveCorrectResults) {
  OVERLAP_SKIP_WITHOUT_GPU();
  Random random;
  SCOPED_TRACE(random.trace());
  const int n = 8 << 20; // 32 MiB arrays: mmap'ed by malloc, unmapped when freed
  for (int round = 0; round < 3; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    std::vector<float> x(static_cast<std::size_t>(n)), y(static_cast<std::size_t>(n));
    const overlap::UnpinGuard unpinX(x.data(), x.size() * sizeof(float));
    const overlap::UnpinGuard unpinY(y.data(), y.size() * sizeof(float));
    random.fill(x.data(), x.size());
    random.fill(y.data(), y.size());
    std::vector<float> expected = y;
    const float a = 1.25f;
    for (std::size_t i = 0; i < expected.size(); ++i)
      expected[i] = std::fmaf(a, x[i], expected[i]);
    int count = n;
    float alpha = a;
    const float* xData = x.data();
    float* yData = y.data();
    const void* args[] = {&count, &alpha, &xData, &yData}; // each points at an argument
    OVERLAP_ASSERT_OK(saxpy_descriptor.run(args, cachedStreams()));
    EXPECT_TRUE(overlap::test::bitwiseEqual(expected.data(), y.data(), y.size()));
    EXPECT_EQ(overlap::classifyHostRange(y.data(), y.size() * sizeof(float)),
              overlap::HostRangeKind::Cached);
  }
  EXPECT_EQ(overlap::registrationCacheStats().bytes, 0u) << "every buffer was unpinned";
}

// What the cache detects without the contract: an output buffer unmapped and mapped again at
// the same address, not yet written, is registered again before it is reused (its pages are not
// resident), and receives the results.
TEST(RegistrationCache, AnOutputUnmappedAndMappedAgainIsRegisteredAgain) {
  OVERLAP_SKIP_WITHOUT_GPU();
  Random random;
  SCOPED_TRACE(random.trace());
  const int m = 1 << 16, n = 7, k = 5;
  std::vector<float> a(static_cast<std::size_t>(m) * k), b(static_cast<std::size_t>(k) * n);
  const overlap::UnpinGuard unpinA(a.data(), a.size() * sizeof(float));
  const overlap::UnpinGuard unpinB(b.data(), b.size() * sizeof(float));
  random.fill(a.data(), a.size());
  random.fill(b.data(), b.size());
  const std::size_t cBytes = static_cast<std::size_t>(m) * n * sizeof(float);
  std::vector<float> expected(static_cast<std::size_t>(m) * n);
  OVERLAP_ASSERT_OK(matmul_explicit(m, n, k, a.data(), b.data(), expected.data()));

  void* c = mmap(nullptr, cBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(c, MAP_FAILED);
  int rows = m, cols = n, inner = k;
  const float* aData = a.data();
  const float* bData = b.data();
  float* cData = static_cast<float*>(c);
  const void* args[] = {&rows, &cols, &inner, &aData, &bData, &cData};
  OVERLAP_ASSERT_OK(matmul_descriptor.run(args, cachedStreams()));
  ASSERT_TRUE(
      overlap::test::bitwiseEqual(expected.data(), static_cast<float*>(c), expected.size()));
  const overlap::RegistrationCacheStats before = overlap::registrationCacheStats();

  // Freed without unpin, and mapped again where it was (never clobbering another mapping).
  ASSERT_EQ(munmap(c, cBytes), 0);
  void* again = mmap(c, cBytes, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
  if (again == MAP_FAILED) {
    (void)overlap::unpin(c, cBytes);
    GTEST_SKIP() << "the address was taken meanwhile; nothing to detect";
  }
  ASSERT_EQ(again, c);
  OVERLAP_ASSERT_OK(matmul_descriptor.run(args, cachedStreams()));
  const overlap::RegistrationCacheStats after = overlap::registrationCacheStats();
  EXPECT_GT(after.invalidations, before.invalidations);
  EXPECT_GE(after.hits, before.hits + 2) << "a and b were still cached";
  EXPECT_TRUE(
      overlap::test::bitwiseEqual(expected.data(), static_cast<float*>(c), expected.size()));
  OVERLAP_ASSERT_OK(overlap::unpin(c, cBytes));
  EXPECT_EQ(munmap(c, cBytes), 0);
}

TEST(HostRangeKind, TellsTheKindsOfMemoryApart) {
  OVERLAP_SKIP_WITHOUT_GPU();
  std::vector<float> pageable(1024);
  EXPECT_EQ(overlap::classifyHostRange(pageable.data(), 4096), overlap::HostRangeKind::Pageable);
  overlap::PinnedBuffer pinned;
  OVERLAP_ASSERT_OK(overlap::PinnedBuffer::allocate(4096, &pinned));
  EXPECT_EQ(overlap::classifyHostRange(pinned.data(), 4096), overlap::HostRangeKind::Pinned);
  void* device = nullptr;
  ASSERT_EQ(cudaMalloc(&device, 4096), cudaSuccess);
  EXPECT_EQ(overlap::classifyHostRange(device, 4096), overlap::HostRangeKind::Device);
  EXPECT_EQ(cudaFree(device), cudaSuccess);
  void* managed = nullptr;
  if (cudaMallocManaged(&managed, 4096) == cudaSuccess) {
    EXPECT_EQ(overlap::classifyHostRange(managed, 4096), overlap::HostRangeKind::Managed);
    EXPECT_EQ(cudaFree(managed), cudaSuccess);
  }
  (void)cudaGetLastError();
}

// saxpy_tuned(n, a, xs, ys) computes fmaf(a, x, y) bit for bit.
void tunedSaxpyEqualsTheReference(int n, float a, const float* xs, float* ys) {
  std::vector<float> expected(ys, ys + n);
  for (int i = 0; i < n; ++i)
    expected[static_cast<std::size_t>(i)] =
        std::fmaf(a, xs[i], expected[static_cast<std::size_t>(i)]);
  OVERLAP_ASSERT_OK(saxpy_tuned(n, a, xs, ys));
  EXPECT_TRUE(overlap::test::bitwiseEqual(expected.data(), ys, expected.size()));
}

// K_tuned on the same kernel and size: pinned arrays run the pinned tuning's winner (Mapped),
// pageable ones the pageable tuning's (Streams(4), staged), managed ones (untuned) the pinned
// one's, all equal to the reference.
TEST(TunedCall, RunsWhatWasTunedOnTheMemoryOfItsArrays) {
  OVERLAP_SKIP_WITHOUT_GPU();
  cudaDeviceProp properties{};
  ASSERT_EQ(cudaGetDeviceProperties(&properties, 0), cudaSuccess);
  static std::string deviceName;
  deviceName = properties.name;
  const int n = 1000003; // prime
  static const overlap::TunedSize pinnedSizes[] = {
      {n, overlap::Variant::Mapped, 1, overlap::IssueOrder::DepthFirst, 1e-3, 1e-3, 1e-5}};
  static const overlap::TunedSize pageableSizes[] = {{n, overlap::Variant::Streams, 4,
                                                      overlap::IssueOrder::DepthFirst, 2e-3, 2e-3,
                                                      1e-5, PageableMode::Stage}};
  static const overlap::BakedChoice baked[] = {
      {"saxpy", deviceName.c_str(), pinnedSizes, 1},
      {"saxpy", deviceName.c_str(), pageableSizes, 1, overlap::CallMemory::Pageable}};
  ASSERT_TRUE(overlap::registerBakedChoices(baked, 2));

  Random random;
  SCOPED_TRACE(random.trace());
  const float a = -0.75f;
  for (const Memory memory : {Memory::Pinned, Memory::Pageable, Memory::Managed, Memory::Pinned}) {
    SCOPED_TRACE(to_string(memory));
    HostBytes x(n * sizeof(float), memory), y(n * sizeof(float), memory);
    OVERLAP_ASSERT_OK(x.status());
    OVERLAP_ASSERT_OK(y.status());
    float* const xs = reinterpret_cast<float*>(x.data());
    float* const ys = reinterpret_cast<float*>(y.data());
    random.fill(xs, n);
    random.fill(ys, n);
    ASSERT_NO_FATAL_FAILURE(tunedSaxpyEqualsTheReference(n, a, xs, ys));
    const std::optional<overlap::VariantChoice> last =
        overlap::lastDispatchChoice(saxpy_descriptor);
    ASSERT_TRUE(last.has_value());
    EXPECT_EQ(last->source, overlap::ChoiceSource::Baked) << last->reason;
    if (memory == Memory::Pinned || memory == Memory::Managed) {
      // Managed arrays without a managed tuning run the pinned one's winner.
      EXPECT_EQ(last->memory, memory == Memory::Pinned ? overlap::CallMemory::Pinned
                                                       : overlap::CallMemory::Managed)
          << last->reason;
      EXPECT_EQ(last->config.variant, overlap::Variant::Mapped) << last->reason;
    } else {
      EXPECT_EQ(last->memory, overlap::CallMemory::Pageable) << last->reason;
      EXPECT_EQ(overlap::describe(last->config), "Streams(4, depth-first, staged)") << last->reason;
    }
  }
  // Arrays the registration cache pins are page-locked until they are unpinned: at the start of a
  // page, pinned memory (the pinned tuning's winner); 16 bytes past one, as a large std::vector's
  // are, registered memory, off a host line (without a tuning of it the pinned one's winner, with
  // one its own). The user's own registration is alike.
  static const overlap::TunedSize registeredSizes[] = {
      {n, overlap::Variant::Hybrid, 3, overlap::IssueOrder::BreadthFirst, 1e-3, 1e-3, 1e-5}};
  static const overlap::BakedChoice registered[] = {
      {"saxpy", deviceName.c_str(), registeredSizes, 1, overlap::CallMemory::Registered}};
  constexpr std::size_t kOffLine = 16;
  bool registeredTuning = false;
  for (const Memory memory : {Memory::Pageable, Memory::Registered}) {
    SCOPED_TRACE(memory == Memory::Pageable ? "registered by the cache" : "registered by the user");
    HostBytes x(n * sizeof(float) + kOffLine, memory), y(n * sizeof(float) + kOffLine, memory);
    OVERLAP_ASSERT_OK(x.status());
    OVERLAP_ASSERT_OK(y.status());
    for (const std::size_t offset : {std::size_t{0}, kOffLine}) {
      SCOPED_TRACE("arrays " + std::to_string(offset) + " bytes past a page");
      float* const xs = reinterpret_cast<float*>(x.data() + offset);
      float* const ys = reinterpret_cast<float*>(y.data() + offset);
      random.fill(xs, n);
      random.fill(ys, n);
      int count = n;
      float alpha = a;
      const void* args[] = {&count, &alpha, &xs, &ys};
      if (memory == Memory::Pageable) {
        OVERLAP_ASSERT_OK(saxpy_descriptor.run(args, cachedStreams()));
      }
      if (offset == 0) {
        ASSERT_NO_FATAL_FAILURE(tunedSaxpyEqualsTheReference(n, a, xs, ys));
        const overlap::VariantChoice held = *overlap::lastDispatchChoice(saxpy_descriptor);
        EXPECT_EQ(held.memory, overlap::CallMemory::Pinned) << held.reason;
        EXPECT_EQ(held.config.variant, overlap::Variant::Mapped) << held.reason;
      } else {
        // Baked choices stay registered: only the first off-line arrays meet no registered tuning.
        for (const bool tuned : {registeredTuning, true}) {
          SCOPED_TRACE(tuned ? "a registered tuning" : "no registered tuning");
          if (tuned && !registeredTuning) {
            ASSERT_TRUE(overlap::registerBakedChoices(registered, 1));
            registeredTuning = true;
          }
          ASSERT_NO_FATAL_FAILURE(tunedSaxpyEqualsTheReference(n, a, xs, ys));
          const overlap::VariantChoice held = *overlap::lastDispatchChoice(saxpy_descriptor);
          EXPECT_EQ(held.memory, overlap::CallMemory::Registered) << held.reason;
          EXPECT_EQ(overlap::describe(held.config), tuned ? "Hybrid(3, breadth-first)" : "Mapped")
              << held.reason;
        }
      }
      if (memory == Memory::Pageable) {
        OVERLAP_ASSERT_OK(overlap::unpin(xs, n * sizeof(float)));
        OVERLAP_ASSERT_OK(overlap::unpin(ys, n * sizeof(float)));
        OVERLAP_ASSERT_OK(saxpy_tuned(n, a, xs, ys));
        EXPECT_EQ(overlap::lastDispatchChoice(saxpy_descriptor)->memory,
                  overlap::CallMemory::Pageable)
            << "the kinds remembered before the unpin were asked again";
      }
    }
  }
}

} // namespace
