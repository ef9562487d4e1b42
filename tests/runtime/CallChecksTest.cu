// What every strategy checks before it touches the device (detail::beginCall): the partition's
// origin, extent and granule, the binding's own checkCall(), null and optional arrays, and the
// shape of reduction arrays. No GPU needed: each failing call returns before the first CUDA call.
#include "overlap/Explicit.cuh"
#include "overlap/Hybrid.cuh"
#include "overlap/Mapped.cuh"
#include "overlap/Streams.cuh"
#include "overlap/detail/CallArrays.cuh"

#include <gtest/gtest.h>

#include <climits>
#include <string>
#include <vector>

namespace overlap {
namespace {

// A binding whose every answer a test sets; it counts how often its arrays were asked for.
struct ProbeBinding {
  static constexpr int kArrays = 2;

  long long begin = 0;
  long long extent = 8;
  long long granuleValue = 1;
  Status callStatus;
  HostArray arrays[kArrays] = {{nullptr, 4, 8, Direction::In, "x"},
                               {nullptr, 4, 8, Direction::Out, "y"}};
  int sections[kArrays] = {1, 1};
  int* arrayReads = nullptr;
  int* callChecks = nullptr;

  long long partitionExtent() const { return extent; }
  long long partitionBegin() const { return begin; }
  long long granule() const { return granuleValue; }
  Status checkCall() const {
    if (callChecks != nullptr)
      ++*callChecks;
    return callStatus;
  }
  HostArray array(int i) const {
    if (arrayReads != nullptr)
      ++*arrayReads;
    return arrays[i];
  }
  int sectionCount(int i) const { return sections[i]; }
  static bool sectionIsChunked(int, int) { return true; }
  Section section(int, int, long long lo, long long hi) const { return {lo, hi}; }
  Status launch(void* const*, long long, long long, cudaStream_t) const {
    return Status{cudaErrorUnknown, "launch must not be reached", __FILE__, __LINE__};
  }
};

// Every strategy, as the generated entry points call them.
std::vector<Status> runEveryStrategy(const ProbeBinding& binding) {
  const StreamsConfig config{3, IssueOrder::BreadthFirst};
  return {runExplicit(binding), runMapped(binding), runStreams(binding, config),
          runHybrid(binding, config)};
}

bool mentions(const Status& status, const std::string& text) {
  return status.message().find(text) != std::string::npos;
}

void expectRefusedByAll(const ProbeBinding& binding, const std::string& text) {
  for (const Status& status : runEveryStrategy(binding)) {
    EXPECT_EQ(status.code, cudaErrorInvalidValue) << status.message();
    EXPECT_TRUE(mentions(status, text)) << status.message();
  }
}

TEST(BeginCall, ReadsThePartition) {
  float x[8] = {}, y[8] = {};
  ProbeBinding binding;
  binding.begin = -3;
  binding.granuleValue = 4;
  binding.arrays[0].host = x;
  binding.arrays[1].host = y;
  Partition partition;
  std::vector<HostArray> arrays;
  ASSERT_TRUE(detail::beginCall(binding, &partition, &arrays).ok());
  EXPECT_EQ(partition.begin, -3);
  EXPECT_EQ(partition.extent, 8);
  EXPECT_EQ(partition.granule, 4);
  ASSERT_EQ(arrays.size(), 2u);
  EXPECT_EQ(arrays[0].host, x);
}

TEST(BeginCall, AGranuleBelowOneIsAnError) {
  for (long long granule : {0LL, -4LL}) {
    ProbeBinding binding;
    binding.granuleValue = granule;
    expectRefusedByAll(binding, "Binding::granule() < 1");
    binding.extent = 0; // even with nothing to do
    expectRefusedByAll(binding, "Binding::granule() < 1");
  }
}

TEST(BeginCall, AnEndPastLongLongIsAnError) {
  ProbeBinding binding;
  binding.begin = LLONG_MAX - 7;
  expectRefusedByAll(binding, "overflows");
  binding.begin = LLONG_MAX - 8; // ends exactly at LLONG_MAX: fine up to the arrays (null here)
  expectRefusedByAll(binding, "array 'x' is null");
}

TEST(BeginCall, CheckCallRunsForEveryCallWithAValidPartition) {
  ProbeBinding binding;
  int checks = 0;
  int reads = 0;
  binding.callChecks = &checks;
  binding.arrayReads = &reads;
  binding.callStatus = Status{cudaErrorInvalidValue, "saxpy: n must be 2 * len", __FILE__, 1};
  expectRefusedByAll(binding, "saxpy: n must be 2 * len");
  EXPECT_EQ(checks, 4);
  // For P == 0 too (cheap, and the arguments are wrong whatever P), still before the arrays.
  binding.extent = 0;
  expectRefusedByAll(binding, "saxpy: n must be 2 * len");
  EXPECT_EQ(checks, 8);
  EXPECT_EQ(reads, 0);
  // Not for a negative P: that error comes first.
  binding.extent = -1;
  expectRefusedByAll(binding, "partitionExtent");
  EXPECT_EQ(checks, 8);
}

TEST(BeginCall, ZeroPartitionSucceedsWithoutReadingTheArrays) {
  ProbeBinding binding;
  int reads = 0;
  binding.arrayReads = &reads;
  binding.extent = 0;
  for (const Status& status : runEveryStrategy(binding))
    EXPECT_TRUE(status.ok()) << status.message();
  EXPECT_EQ(reads, 0);
}

TEST(BeginCall, ANullArrayIsAnErrorNamingIt) {
  float x[8] = {};
  ProbeBinding binding;
  binding.arrays[0].host = x;
  expectRefusedByAll(binding, "array 'y' is null");
  // An empty array may be null (an empty vector's data()).
  binding.arrays[1].extent = 0;
  Partition partition;
  std::vector<HostArray> arrays;
  EXPECT_TRUE(detail::beginCall(binding, &partition, &arrays).ok());
}

TEST(BeginCall, ANullOptionalArrayIsAbsentAndCountsAsEmpty) {
  float x[8] = {};
  float y[8] = {};
  ProbeBinding binding;
  binding.arrays[0].host = x;
  binding.arrays[1].optional = true;
  Partition partition;
  std::vector<HostArray> arrays;
  ASSERT_TRUE(detail::beginCall(binding, &partition, &arrays).ok());
  EXPECT_TRUE(detail::absent(arrays[1]));
  EXPECT_EQ(arrays[1].extent, 0) << "nothing of it is sized, copied or registered";
  EXPECT_EQ(detail::arrayBytes(arrays[1]), 0u);
  // Passed, it is an array like any other.
  binding.arrays[1].host = y;
  ASSERT_TRUE(detail::beginCall(binding, &partition, &arrays).ok());
  EXPECT_FALSE(detail::absent(arrays[1]));
  EXPECT_EQ(arrays[1].extent, 8);
}

TEST(BeginCall, AReductionArrayIsInOutAndWhole) {
  float x[8] = {};
  float sum[1] = {};
  ProbeBinding binding;
  binding.arrays[0].host = x;
  binding.arrays[1] = {sum, sizeof(float), 1, Direction::InOut, "sum", false, true};
  binding.sections[1] = 0;
  Partition partition;
  std::vector<HostArray> arrays;
  EXPECT_TRUE(detail::beginCall(binding, &partition, &arrays).ok());
  binding.arrays[1].direction = Direction::Out;
  expectRefusedByAll(binding, "reduction array must be InOut and without sections");
  binding.arrays[1].direction = Direction::InOut;
  binding.sections[1] = 1;
  expectRefusedByAll(binding, "reduction array must be InOut and without sections");
  // An operator names a reduction; on an array that is none it is a binding's mistake.
  binding.arrays[1].reduction = false;
  binding.arrays[1].reduce = ReduceOp::Sum;
  expectRefusedByAll(binding, "an operator (reduce) for an array that is no reduction");
}

TEST(PersistentText, EqualTextsShareOneCopyThatOutlivesTheString) {
  const char* first = nullptr;
  {
    const std::string text = std::string("array '") + "q" + "' is null";
    first = persistentText(text);
  }
  EXPECT_STREQ(first, "array 'q' is null");
  EXPECT_EQ(persistentText("array 'q' is null"), first);
  EXPECT_NE(persistentText("array 'r' is null"), first);
}

// A binding whose kernel file declares __constant__ or __device__ variables.
struct GlobalsBinding : ProbeBinding {
  static constexpr bool kDeviceGlobals = true;
};

StreamsConfig onTwoDevices() {
  StreamsConfig config{3, IssueOrder::DepthFirst};
  config.devices = 2;
  return config;
}

// Multi-GPU calls that cannot be split are refused before any device is asked (no GPU here).
TEST(MultiDeviceCall, RefusesOutputsEveryChunkWrites) {
  float x[8] = {}, y[8] = {};
  ProbeBinding binding;
  binding.arrays[0].host = x;
  binding.arrays[1] = {y, 4, 8, Direction::InOut, "whole", false, false};
  binding.sections[1] = 0;
  for (const Status& status :
       {runStreams(binding, onTwoDevices()), runHybrid(binding, onTwoDevices())}) {
    EXPECT_EQ(status.code, cudaErrorNotSupported) << status.message();
    EXPECT_TRUE(mentions(status, "cannot split array 'whole': every chunk writes it"))
        << status.message();
  }
}

// A reduction splits when the host can combine its partials (the GPU tests run those); not of
// half-precision floats, nor without an operator (a hand-written binding that names none).
TEST(MultiDeviceCall, RefusesReductionsTheHostCannotCombine) {
  float x[8] = {}, y[8] = {};
  ProbeBinding binding;
  binding.arrays[0].host = x;
  binding.sections[1] = 0;
  const HostArray halves{
      y, 2, 8, Direction::InOut, "histogram", false, true, ReduceOp::Sum, ElementKind::F16};
  const HostArray unnamed{y, 4, 8, Direction::InOut, "histogram", false, true};
  for (const HostArray& array : {halves, unnamed}) {
    binding.arrays[1] = array;
    const Status status = runStreams(binding, onTwoDevices());
    EXPECT_EQ(status.code, cudaErrorNotSupported) << status.message();
    EXPECT_TRUE(mentions(status, "cannot split reduction 'histogram': the host cannot combine"))
        << status.message();
  }
}

TEST(MultiDeviceCall, RefusesKernelsWithDeviceVariables) {
  float x[8] = {}, y[8] = {};
  GlobalsBinding binding;
  binding.arrays[0].host = x;
  binding.arrays[1].host = y;
  const Status status = runStreams(binding, onTwoDevices());
  EXPECT_EQ(status.code, cudaErrorNotSupported) << status.message();
  EXPECT_TRUE(mentions(status, "__constant__ or __device__ variables")) << status.message();
}

TEST(MultiDeviceCall, AsynchronousCallsStayOnOneDevice) {
  float x[8] = {}, y[8] = {};
  ProbeBinding binding;
  binding.arrays[0].host = x;
  binding.arrays[1].host = y;
  for (const Status& status : {runStreamsAsync(binding, onTwoDevices(), nullptr),
                               runHybridAsync(binding, onTwoDevices(), nullptr)}) {
    EXPECT_EQ(status.code, cudaErrorNotSupported) << status.message();
    EXPECT_TRUE(mentions(status, "is synchronous")) << status.message();
  }
}

TEST(MultiDeviceCall, ASliceIsTheBindingOverPartOfItsPartition) {
  int checks = 0;
  ProbeBinding binding;
  binding.begin = 5;
  binding.extent = 100;
  binding.granuleValue = 4;
  binding.callChecks = &checks;
  const detail::PartitionSlice<ProbeBinding> slice(binding, 45, 105);
  EXPECT_EQ(slice.partitionBegin(), 45);
  EXPECT_EQ(slice.partitionExtent(), 60);
  EXPECT_EQ(slice.granule(), 4);
  EXPECT_TRUE(slice.checkCall().ok());
  EXPECT_EQ(checks, 1);
  EXPECT_EQ(slice.section(0, 0, 45, 49).begin, 45);
  EXPECT_TRUE(detail::IsPartitionSlice<decltype(slice)>::value == false); // const-qualified
  EXPECT_TRUE((detail::IsPartitionSlice<detail::PartitionSlice<ProbeBinding>>::value));
  EXPECT_TRUE(detail::HasDeviceGlobals<GlobalsBinding>::value);
  EXPECT_FALSE(detail::HasDeviceGlobals<ProbeBinding>::value);
}

} // namespace
} // namespace overlap
