// Every case of the corpus (tests/corpus/README.md) on the GPU: for each of its calls, the
// arrays are allocated from the annotation's extents and filled with fresh random data (then
// prepared where the kernel needs valid inputs), Explicit is compared with the CPU reference, and
// every other variant (Mapped; Streams and Hybrid with 1, 2, 3, 4, 7 and 16 streams, both issue
// orders; each of the four split across every visible GPU) with Explicit. Small calls use pageable
// host memory, the large call pinned memory. Skips without a GPU.
#include "CorpusCase.h"
#include "GpuTestSupport.h"

#include "overlap/Descriptor.h"
#include "overlap/HostReduction.h"
#include "tune/HostData.h"

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cctype>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <ostream>
#include <random>
#include <string>
#include <vector>

namespace overlap::corpus {

// Test names and failure messages show the kernel, not the Case's bytes.
void PrintTo(const Case& c, std::ostream* out) {
  *out << c.kernel;
}

namespace {

std::vector<Case>& registry() {
  static std::vector<Case> all;
  return all;
}

} // namespace

bool registerCase(const Case& c) {
  registry().push_back(c);
  return true;
}

const std::vector<Case>& cases() {
  return registry();
}

namespace {

// Host memory of one array: pageable (new) or pinned (cudaMallocHost).
class HostBuffer {
public:
  HostBuffer(std::size_t bytes, bool pinned) : bytes_(bytes), pinned_(pinned) {
    if (bytes_ == 0)
      return;
    if (pinned_) {
      if (cudaMallocHost(&data_, bytes_) != cudaSuccess)
        data_ = nullptr;
    } else {
      data_ = ::operator new(bytes_);
    }
  }
  HostBuffer(const HostBuffer&) = delete;
  HostBuffer& operator=(const HostBuffer&) = delete;
  ~HostBuffer() {
    if (data_ == nullptr)
      return;
    if (pinned_)
      (void)cudaFreeHost(data_);
    else
      ::operator delete(data_);
  }
  void* data() const { return data_; }
  std::size_t bytes() const { return bytes_; }

private:
  void* data_ = nullptr;
  std::size_t bytes_;
  bool pinned_;
};

// A scalar argument of the given descriptor parameter from a case's value.
void storeScalar(const ParamDescriptor& param, double value, void* slot) {
  if (std::string(param.type) == "bool") {
    *static_cast<bool*>(slot) = value != 0;
    return;
  }
  switch (param.kind) {
  case ElementKind::F32:
    *static_cast<float*>(slot) = static_cast<float>(value);
    return;
  case ElementKind::F64:
    *static_cast<double*>(slot) = value;
    return;
  default:
    break;
  }
  const long long integer = static_cast<long long>(value);
  std::memcpy(slot, &integer, param.size); // little-endian: the low bytes
}

// One call of a case, set up from the descriptor: the arguments, the arrays, their initial
// contents.
class Call {
public:
  Call(const KernelDescriptor& kernel, const Case& c, const Scalars& scalars, bool pinned,
       std::uint64_t seed)
      : kernel_(kernel), slots_(static_cast<std::size_t>(kernel.paramCount) * 2),
        pointers_(static_cast<std::size_t>(kernel.paramCount), nullptr),
        slotsAt_(static_cast<std::size_t>(kernel.paramCount), nullptr) {
    tune::RandomBits bits(seed);
    std::map<std::string, double> given(scalars.begin(), scalars.end());
    for (int t = 0; t < kernel.tuneDefaultCount; ++t) {
      const TuneDefault& d = kernel.tuneDefaults[t];
      given.emplace(kernel.params[d.param].name, static_cast<double>(d.value));
    }
    for (int i = 0; i < kernel.paramCount; ++i) {
      const ParamDescriptor& param = kernel.params[i];
      void* slot = &slots_[static_cast<std::size_t>(i) * 2];
      pointers_[static_cast<std::size_t>(i)] = slot;
      slotsAt_[static_cast<std::size_t>(i)] = slot;
      if (param.role == ParamRole::ChunkBegin || param.role == ParamRole::ChunkEnd)
        continue; // set per chunk by the generated code
      caller_.push_back(slot);
      if (param.isPointer)
        continue;
      const auto value = given.find(param.name);
      if (value != given.end()) {
        storeScalar(param, value->second, slot);
        continue;
      }
      // A number the case must give; a scalar of several lanes (a float2 parameter) or a struct
      // gets random contents.
      const bool number =
          std::string(param.type) == "bool" ||
          (param.kind != ElementKind::Other && laneCount(param.kind, param.size) == 1);
      if (number)
        missing_ += std::string(param.name) + " ";
      else
        tune::fill_random(param.kind, param.size, slot, 1, bits);
    }
    for (int a = 0; a < kernel.arrayCount; ++a) {
      const ArrayDescriptor& array = kernel.arrays[a];
      const long long extent = kernel.arrayExtent(pointers_.data(), a);
      buffers_.push_back(std::make_unique<HostBuffer>(
          static_cast<std::size_t>(extent > 0 ? extent : 0) * array.elementSize, pinned));
      void* host = buffers_.back()->data();
      *static_cast<void**>(slotsAt_[static_cast<std::size_t>(array.param)]) = host;
      if (host == nullptr)
        continue;
      if (reads(array.direction))
        tune::fill_random(array.kind, array.elementSize, host, extent, bits);
      else
        std::memset(host, 0xA5, buffers_.back()->bytes()); // poisoned: every element is written
    }
    if (c.prepare != nullptr)
      c.prepare(caller_.data(), seed);
    for (const auto& buffer : buffers_)
      initial_.emplace_back(static_cast<const char*>(buffer->data()),
                            static_cast<const char*>(buffer->data()) + buffer->bytes());
  }

  // Scalars the case gave no value for and that have no tune default (a test bug).
  const std::string& missing() const { return missing_; }
  bool allocated() const {
    for (const auto& buffer : buffers_)
      if (buffer->bytes() > 0 && buffer->data() == nullptr)
        return false;
    return true;
  }

  void restore() {
    for (std::size_t a = 0; a < buffers_.size(); ++a)
      std::memcpy(buffers_[a]->data(), initial_[a].data(), initial_[a].size());
  }

  Status run(const RunConfig& config) { return kernel_.run(pointers_.data(), config); }
  void runReference(const Case& c) { c.reference(caller_.data()); }

  // The outputs, as bytes, array by array (inputs are empty).
  std::vector<std::vector<char>> outputs() const {
    std::vector<std::vector<char>> out;
    for (int a = 0; a < kernel_.arrayCount; ++a) {
      const HostBuffer& buffer = *buffers_[static_cast<std::size_t>(a)];
      if (writes(kernel_.arrays[a].direction))
        out.emplace_back(static_cast<const char*>(buffer.data()),
                         static_cast<const char*>(buffer.data()) + buffer.bytes());
      else
        out.emplace_back();
    }
    return out;
  }

  // "" when every output matches within the case's tolerance, else what differs.
  std::string compare(const std::vector<std::vector<char>>& expected,
                      const std::vector<std::vector<char>>& actual, double tolerance) const {
    std::string differences;
    for (int a = 0; a < kernel_.arrayCount; ++a) {
      const ArrayDescriptor& array = kernel_.arrays[a];
      if (!writes(array.direction))
        continue;
      const std::vector<char>& e = expected[static_cast<std::size_t>(a)];
      const long long count = static_cast<long long>(e.size() / array.elementSize);
      const tune::Comparison result =
          tune::compareElements(array.kind, array.elementSize, e.data(),
                                actual[static_cast<std::size_t>(a)].data(), count, tolerance);
      if (!result.equal())
        differences += std::string(array.name) + ": " + result.describe(count) + "; ";
    }
    return differences;
  }

private:
  const KernelDescriptor& kernel_;
  std::vector<long double> slots_;    // two 16-byte-aligned words of room per parameter
  std::vector<const void*> pointers_; // what the descriptor takes: one per parameter
  std::vector<void*> slotsAt_;        // the same, writable
  std::vector<const void*> caller_;
  std::vector<std::unique_ptr<HostBuffer>> buffers_;
  std::vector<std::vector<char>> initial_;
  std::string missing_;
};

// Under compute-sanitizer (OVERLAP_CORPUS_SMALL_ONLY) fewer stream counts: one chunk, a few,
// more streams than a small call has elements.
bool sanitizerRun() {
  return std::getenv("OVERLAP_CORPUS_SMALL_ONLY") != nullptr;
}

std::vector<RunConfig> variants(bool large) {
  std::vector<RunConfig> out;
  out.push_back({Variant::Mapped, {}});
  const std::vector<int> counts = large            ? std::vector<int>{4, 16}
                                  : sanitizerRun() ? std::vector<int>{1, 3, 16}
                                                   : std::vector<int>{1, 2, 3, 4, 7, 16};
  for (Variant variant : {Variant::Streams, Variant::Hybrid})
    for (int streams : counts)
      for (IssueOrder order : {IssueOrder::DepthFirst, IssueOrder::BreadthFirst})
        out.push_back({variant, StreamsConfig{streams, order}});
  // Split across every visible GPU (one GPU runs the split path over one range).
  for (Variant variant : {Variant::Explicit, Variant::Mapped, Variant::Streams, Variant::Hybrid}) {
    RunConfig split{variant, StreamsConfig{3, IssueOrder::DepthFirst}};
    split.streams.devices = 0;
    out.push_back(split);
  }
  return out;
}

std::string describe(const RunConfig& config) {
  static const char* const kNames[] = {"Explicit", "Mapped", "Streams", "Hybrid"};
  std::string out = kNames[static_cast<int>(config.variant)];
  if (config.variant == Variant::Streams || config.variant == Variant::Hybrid)
    out += "(" + std::to_string(config.streams.streams) +
           (config.streams.order == IssueOrder::DepthFirst ? ", depth-first)" : ", breadth-first)");
  return out + describeDevices(config.streams);
}

// Whether a split of `kernel` may be refused, as `status` says it was: a kernel with __constant__
// or __device__ variables, outputs every chunk writes that are no reduction, or a reduction whose
// partials the host cannot combine (HostReduction.h). Combinable reductions split.
bool refusalExpected(const KernelDescriptor& kernel, const Status& status) {
  if (status.message().find("__constant__ or __device__") != std::string::npos ||
      status.message().find("every chunk writes it") != std::string::npos)
    return true;
  if (status.message().find("cannot split reduction") == std::string::npos)
    return false;
  for (int a = 0; a < kernel.arrayCount; ++a) {
    const ArrayDescriptor& array = kernel.arrays[a];
    if (array.reduce != ReduceOp::None &&
        !hostCombinable(array.reduce, array.kind, array.elementSize))
      return true;
  }
  return false;
}

void checkCall(const Case& c, const Scalars& scalars, bool large) {
  const KernelDescriptor* kernel = findRegisteredKernel(c.kernel);
  ASSERT_NE(kernel, nullptr) << "no registered kernel named " << c.kernel;
  const std::uint64_t seed = std::random_device{}();
  std::string call;
  for (const auto& [name, value] : scalars)
    call += name + "=" + std::to_string(value) + " ";
  SCOPED_TRACE(std::string(c.kernel) + " " + call + "seed " + std::to_string(seed));
  Call setup(*kernel, c, scalars, /*pinned=*/large, seed);
  ASSERT_EQ(setup.missing(), "") << "scalars without a value";
  ASSERT_TRUE(setup.allocated()) << "host memory";

  setup.runReference(c);
  const auto reference = setup.outputs();
  setup.restore();
  OVERLAP_ASSERT_OK(setup.run({Variant::Explicit, {}}));
  const auto explicitOutputs = setup.outputs();
  EXPECT_EQ(setup.compare(reference, explicitOutputs, c.tolerance), "")
      << "Explicit against the CPU reference";

  for (const RunConfig& config : variants(large)) {
    setup.restore();
    const Status status = setup.run(config);
    // Only what cannot be split is refused a split, saying so; nothing else may fail.
    if (config.streams.devices != 1 && status.code == cudaErrorNotSupported &&
        refusalExpected(*kernel, status))
      continue;
    ASSERT_TRUE(status.ok()) << describe(config) << ": " << status.message();
    EXPECT_EQ(setup.compare(explicitOutputs, setup.outputs(), c.tolerance), "")
        << describe(config) << " against Explicit";
  }
}

class Corpus : public ::testing::TestWithParam<Case> {};

TEST_P(Corpus, SmallCallsOfEveryVariantEqualExplicitAndTheReference) {
  OVERLAP_SKIP_WITHOUT_GPU();
  for (const Scalars& scalars : GetParam().smallCalls)
    checkCall(GetParam(), scalars, /*large=*/false);
}

TEST_P(Corpus, TheLargeCallOfEveryVariantEqualsExplicitAndTheReference) {
  OVERLAP_SKIP_WITHOUT_GPU();
  if (sanitizerRun())
    GTEST_SKIP() << "OVERLAP_CORPUS_SMALL_ONLY is set (compute-sanitizer runs)";
  checkCall(GetParam(), GetParam().largeCall, /*large=*/true);
}

std::string caseName(const ::testing::TestParamInfo<Case>& info) {
  std::string name;
  for (char ch : std::string(info.param.kernel))
    name += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Kernels, Corpus, ::testing::ValuesIn(cases()), caseName);

} // namespace
} // namespace overlap::corpus
