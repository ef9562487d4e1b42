// What the dispatch behind K_tuned(...) keeps and what a call costs (overlap/Dispatch.h): the
// choice computed once per (kernel, device, size class) -- counted through a model chooser that
// counts its evaluations --, the stream count limited to the call's chunks, a new generation
// after a registration, the baked sizes per device, the fallback to Explicit of a choice that
// fails before doing any work (to Streams out of core of an Explicit over its memory budget), and
// the log of each distinct choice. Over a hand-written descriptor whose run() records its
// configuration, so no GPU is needed.
#include "overlap/Dispatch.h"
#include "DispatchEnvironment.h"
#include "overlap/CallMemory.h"
#include "overlap/SizeClass.h"

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

namespace {

using overlap::ChoiceSource;
using overlap::IssueOrder;
using overlap::RunConfig;
using overlap::Variant;
using overlap::tune::testing::ScopedDispatchEnvironment;

// A call: n elements of one float array, chunk boundaries at multiples of `granule`.
struct Call {
  long long n = 1000;
  long long granule = 1;
  float* y = nullptr;
  const void* args[3] = {&n, &granule, &y};
};

long long extentOf(overlap::ArgPointers args) {
  return *static_cast<const long long*>(args[0]);
}
long long granuleOf(overlap::ArgPointers args) {
  return *static_cast<const long long*>(args[1]);
}
long long arrayExtentOf(overlap::ArgPointers args, int) {
  return extentOf(args);
}

// What run() was given and what it answers.
std::vector<RunConfig> gRuns;
overlap::Status gFailure{}; // returned for any variant but Explicit
overlap::Status recordRun(overlap::ArgPointers, const RunConfig& config) {
  gRuns.push_back(config);
  return config.variant == Variant::Explicit ? overlap::Status{} : gFailure;
}

const overlap::ParamDescriptor kParams[] = {
    {"n", "long long", false, overlap::ElementKind::I64, 8, -1, overlap::ParamRole::Scalar},
    {"granule", "long long", false, overlap::ElementKind::I64, 8, -1, overlap::ParamRole::Scalar},
    {"y", "float *", true, overlap::ElementKind::F32, 4, 0, overlap::ParamRole::Array}};

overlap::KernelDescriptor descriptor(const char* name, const overlap::ArrayDescriptor* arrays) {
  overlap::KernelDescriptor kernel{};
  kernel.name = name;
  kernel.sourceFile = "DispatchTest.cpp";
  kernel.paramCount = 3;
  kernel.params = kParams;
  kernel.arrayCount = 1;
  kernel.arrays = arrays;
  kernel.partitionExtent = &extentOf;
  kernel.arrayExtent = &arrayExtentOf;
  kernel.run = &recordRun;
  kernel.granule = &granuleOf;
  return kernel;
}

const overlap::ArrayDescriptor kInOut[] = {
    {2, "y", overlap::Direction::InOut, overlap::ElementKind::F32, 4}};
const overlap::ArrayDescriptor kOut[] = {
    {2, "y", overlap::Direction::Out, overlap::ElementKind::F32, 4}};

// A page-locked call is registered memory where an array starts off a 128-byte line (Mapped's
// and Hybrid's kernels then straddle two lines per warp); absent and empty arrays do not count.
TEST(CallMemory, TellsArraysThatStartOffAHostLine) {
  const overlap::KernelDescriptor kernel = descriptor("lines", kInOut);
  alignas(overlap::kHostLineBytes) static float data[64];
  Call call;
  call.n = 32;
  call.y = data;
  EXPECT_TRUE(overlap::arraysStartOnHostLines(kernel, call.args));
  call.y = data + 4; // 16 bytes in, as malloc puts a large array past its page
  EXPECT_FALSE(overlap::arraysStartOnHostLines(kernel, call.args));
  call.y = data + overlap::kHostLineBytes / sizeof(float);
  EXPECT_TRUE(overlap::arraysStartOnHostLines(kernel, call.args));
  call.y = data + 4;
  call.n = 0;
  EXPECT_TRUE(overlap::arraysStartOnHostLines(kernel, call.args));
  call.n = 32;
  call.y = nullptr;
  EXPECT_TRUE(overlap::arraysStartOnHostLines(kernel, call.args));
}

// The model: Streams(8), counting its evaluations.
std::atomic<int> gModelCalls{0};
bool countingModel(const overlap::KernelDescriptor&, overlap::ArgPointers, const std::string&,
                   RunConfig* config, std::string* why) {
  ++gModelCalls;
  config->variant = Variant::Streams;
  config->streams = {8, IssueOrder::DepthFirst};
  *why = "the counting model";
  return true;
}

class Dispatch : public ::testing::Test {
protected:
  void SetUp() override {
    overlap::setModelChooser(&countingModel);
    overlap::setModelPredictor(nullptr);
    gModelCalls = 0;
    gRuns.clear();
    gFailure = overlap::Status{};
  }
  void TearDown() override { overlap::setModelChooser(nullptr); }

  ScopedDispatchEnvironment noOverride_{"OVERLAP_VARIANT", std::nullopt};
  ScopedDispatchEnvironment noLog_{"OVERLAP_DISPATCH_LOG", std::nullopt};
};

const overlap::VariantChoice& choose(const overlap::KernelDescriptor& kernel, long long n,
                                     const std::string& device = "Dispatch Test Device",
                                     long long granule = 1,
                                     overlap::CallMemory memory = overlap::CallMemory::Pinned) {
  Call call;
  call.n = n;
  call.granule = granule;
  return overlap::chooseForCall(kernel, call.args, device, memory);
}

TEST(SizeClass, QuarterOctavesAscendAndTheirFloorsBelongToThem) {
  EXPECT_EQ(overlap::sizeClass(0), 0);
  EXPECT_EQ(overlap::sizeClass(1), 1);
  EXPECT_EQ(overlap::sizeClass(1000), overlap::sizeClass(1001));
  EXPECT_NE(overlap::sizeClass(1000), overlap::sizeClass(2000));
  int previous = 0;
  for (unsigned long long v = 1; v < 5000; ++v) {
    const int index = overlap::sizeClass(v);
    EXPECT_GE(index, previous) << v;
    EXPECT_LE(overlap::sizeClassFloor(index), v) << v;
    EXPECT_EQ(overlap::sizeClass(overlap::sizeClassFloor(index)), index) << v;
    previous = index;
  }
  // At most 25 % wide: 1024 and 1280 are in different classes.
  EXPECT_NE(overlap::sizeClass(1024), overlap::sizeClass(1280));
  EXPECT_EQ(overlap::sizeClass(1024), overlap::sizeClass(1279));
  EXPECT_EQ(overlap::sizeClass(~0ull), 256);
}

TEST_F(Dispatch, TheModelIsEvaluatedOncePerSizeClass) {
  static const overlap::KernelDescriptor kernel = descriptor("dispatch_once_per_class", kInOut);
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(choose(kernel, 1000).source, ChoiceSource::Model);
  choose(kernel, 1001); // the same class of P and of bytes
  EXPECT_EQ(gModelCalls, 1);
  choose(kernel, 2000);
  EXPECT_EQ(gModelCalls, 2);
  choose(kernel, 1000);
  choose(kernel, 2001);
  EXPECT_EQ(gModelCalls, 2);
  choose(kernel, 1000, "Another Dispatch Test Device");
  EXPECT_EQ(gModelCalls, 3) << "another device is another key";
  // The kept choice is one object: the reference stays the same.
  EXPECT_EQ(&choose(kernel, 1000), &choose(kernel, 1001));
}

TEST_F(Dispatch, TheCallsMemoryIsPartOfTheKeyAndPageableCallsAreNotLeftToTheModel) {
  static const overlap::KernelDescriptor kernel = descriptor("dispatch_memory_key", kInOut);
  const overlap::VariantChoice& pinned = choose(kernel, 1000);
  EXPECT_EQ(pinned.memory, overlap::CallMemory::Pinned);
  EXPECT_EQ(pinned.source, ChoiceSource::Model);
  const overlap::VariantChoice& pageable =
      choose(kernel, 1000, "Dispatch Test Device", 1, overlap::CallMemory::Pageable);
  EXPECT_NE(&pinned, &pageable) << "pageable memory is another key";
  EXPECT_EQ(gModelCalls, 1) << "the model does not price pageable calls";
  EXPECT_EQ(pageable.memory, overlap::CallMemory::Pageable);
  EXPECT_EQ(pageable.source, ChoiceSource::Default);
  EXPECT_EQ(pageable.config.variant, Variant::Explicit);
  EXPECT_NE(pageable.reason.find("pageable arrays"), std::string::npos) << pageable.reason;
  EXPECT_NE(pageable.reason.find("on pageable memory"), std::string::npos) << pageable.reason;
}

TEST_F(Dispatch, ManyThreadsStillEvaluateOncePerClass) {
  static const overlap::KernelDescriptor kernel = descriptor("dispatch_threads", kInOut);
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([] {
      for (int i = 0; i < 2000; ++i)
        choose(kernel, 1000 << (i % 4));
    });
  for (std::thread& thread : threads)
    thread.join();
  EXPECT_EQ(gModelCalls, 4);
}

TEST_F(Dispatch, ANewRegistrationOrModelForgetsTheKeptChoices) {
  static const overlap::KernelDescriptor kernel = descriptor("dispatch_generation", kInOut);
  choose(kernel, 1000);
  choose(kernel, 1000);
  overlap::setModelChooser(&countingModel);
  choose(kernel, 1000);
  EXPECT_EQ(gModelCalls, 2);
  overlap::setModelChooser(nullptr);
  EXPECT_EQ(choose(kernel, 1000).source, ChoiceSource::Default);
}

TEST_F(Dispatch, NeverMoreStreamsThanTheCallHasChunks) {
  static const overlap::KernelDescriptor kernel = descriptor("dispatch_chunks", kInOut);
  EXPECT_EQ(choose(kernel, 5).config.streams.streams, 5);
  // 1000 elements in granules of 200: 5 chunks; of 500: 2; both in the class of 1000.
  const overlap::VariantChoice& five = choose(kernel, 1000, "Dispatch Test Device", 200);
  EXPECT_EQ(five.config.streams.streams, 5);
  EXPECT_NE(five.reason.find("5 streams"), std::string::npos) << five.reason;
  EXPECT_EQ(choose(kernel, 1000, "Dispatch Test Device", 500).config.streams.streams, 2);
  EXPECT_EQ(choose(kernel, 1000).config.streams.streams, 8);
  EXPECT_EQ(gModelCalls, 2) << "the chunk count refines a kept choice, it is no new class";
}

TEST_F(Dispatch, TheOverrideIsReadOncePerProcessAndAgainOnReload) {
  static const overlap::KernelDescriptor kernel = descriptor("dispatch_override", kInOut);
  setenv("OVERLAP_VARIANT", "dispatch_override=mapped", 1); // the fixture restores it
  EXPECT_EQ(choose(kernel, 1000).source, ChoiceSource::Model) << "read once, not per call";
  overlap::reloadDispatchSettings();
  const overlap::VariantChoice& choice = choose(kernel, 1000);
  EXPECT_EQ(choice.source, ChoiceSource::Environment);
  EXPECT_EQ(choice.config.variant, Variant::Mapped);
  // Even an override runs with no more streams than chunks.
  noOverride_.set("streams:64");
  EXPECT_EQ(choose(kernel, 10).config.streams.streams, 10);
  EXPECT_FALSE(choose(kernel, 10).config.streams.graph);
  // The graph forms, by their names.
  noOverride_.set("graph-hybrid:4:breadth-first");
  const overlap::VariantChoice& graph = choose(kernel, 1000);
  EXPECT_EQ(graph.config.variant, Variant::Hybrid);
  EXPECT_TRUE(graph.config.streams.graph);
  EXPECT_EQ(graph.config.streams.order, IssueOrder::BreadthFirst);
  noOverride_.set("graph-mapped");
  EXPECT_EQ(choose(kernel, 1000).source, ChoiceSource::Model) << "no such variant";
}

TEST_F(Dispatch, BakedSizesServeTheirKernelAndDeviceOnly) {
  static const overlap::KernelDescriptor kernel = descriptor("dispatch_baked", kInOut);
  static const overlap::TunedSize sizes[] = {
      {1000, Variant::Mapped, 1, IssueOrder::DepthFirst, 1e-4, 1e-4, 1e-5},
      {1000000, Variant::Streams, 16, IssueOrder::BreadthFirst, 1e-2, 1e-2, 1e-3}};
  static const overlap::BakedChoice baked[] = {{"dispatch_baked", "Baked Device", sizes, 2}};
  ASSERT_TRUE(overlap::registerBakedChoices(baked, 1));
  const overlap::VariantChoice& small = choose(kernel, 1000, "Baked Device");
  EXPECT_EQ(small.source, ChoiceSource::Baked);
  EXPECT_EQ(small.config.variant, Variant::Mapped);
  EXPECT_NE(small.reason.find("tuned on Baked Device"), std::string::npos) << small.reason;
  const overlap::VariantChoice& large = choose(kernel, 2000000, "Baked Device");
  EXPECT_EQ(large.config.variant, Variant::Streams);
  EXPECT_EQ(large.config.streams.order, IssueOrder::BreadthFirst);
  EXPECT_EQ(choose(kernel, 1000, "Unbaked Device").source, ChoiceSource::Model);
  EXPECT_EQ(gModelCalls, 1);
}

TEST_F(Dispatch, BakedSizesServeTheCallsOfTheirMemory) {
  static const overlap::KernelDescriptor kernel = descriptor("dispatch_baked_memory", kInOut);
  static const overlap::KernelDescriptor pinnedOnly =
      descriptor("dispatch_baked_pinned_only", kInOut);
  static const overlap::TunedSize pinned[] = {
      {1000, Variant::Mapped, 1, IssueOrder::DepthFirst, 1e-4, 1e-4, 1e-5}};
  static const overlap::TunedSize pageable[] = {{1000, Variant::Streams, 4, IssueOrder::DepthFirst,
                                                 3e-4, 3e-4, 1e-5, overlap::PageableMode::Stage}};
  static const overlap::BakedChoice baked[] = {
      {"dispatch_baked_memory", "Baked Device", pinned, 1},
      {"dispatch_baked_memory", "Baked Device", pageable, 1, overlap::CallMemory::Pageable},
      {"dispatch_baked_pinned_only", "Baked Device", pinned, 1}};
  ASSERT_TRUE(overlap::registerBakedChoices(baked, 3));
  EXPECT_EQ(choose(kernel, 1000, "Baked Device").config.variant, Variant::Mapped);
  const overlap::VariantChoice& staged =
      choose(kernel, 1000, "Baked Device", 1, overlap::CallMemory::Pageable);
  EXPECT_EQ(staged.source, ChoiceSource::Baked);
  EXPECT_EQ(staged.config.variant, Variant::Streams);
  EXPECT_EQ(staged.config.streams.pageable, overlap::PageableMode::Stage);
  EXPECT_EQ(overlap::describe(staged.config), "Streams(4, depth-first, staged)");
  overlap::RunConfig ownRing = staged.config;
  ownRing.streams.staging.threads = 8;
  EXPECT_EQ(overlap::describe(ownRing), "Streams(4, depth-first, staged, 8 staging threads)");
  EXPECT_NE(staged.reason.find("on pageable memory"), std::string::npos) << staged.reason;
  // Tuned on pinned memory only, no model: a pageable call runs Explicit and says why.
  overlap::setModelChooser(nullptr);
  const overlap::VariantChoice& untuned =
      choose(pinnedOnly, 1000, "Baked Device", 1, overlap::CallMemory::Pageable);
  EXPECT_EQ(untuned.source, ChoiceSource::Default);
  EXPECT_EQ(untuned.config.variant, Variant::Explicit);
  EXPECT_NE(untuned.reason.find("only on pinned memory: tune with --memory pageable"),
            std::string::npos)
      << untuned.reason;
}

TEST_F(Dispatch, RegisteredCallsRunTheirOwnTuningElseThePinnedOne) {
  static const overlap::KernelDescriptor kernel = descriptor("dispatch_registered", kInOut);
  static const overlap::KernelDescriptor pinnedOnly =
      descriptor("dispatch_registered_pinned_only", kInOut);
  static const overlap::KernelDescriptor pageableOnly =
      descriptor("dispatch_registered_pageable_only", kInOut);
  static const overlap::TunedSize pinned[] = {
      {1000, Variant::Mapped, 1, IssueOrder::DepthFirst, 1e-4, 1e-4, 1e-5}};
  static const overlap::TunedSize registered[] = {
      {1000, Variant::Streams, 8, IssueOrder::BreadthFirst, 2e-4, 2e-4, 1e-5}};
  static const overlap::BakedChoice baked[] = {
      {"dispatch_registered", "Baked Device", pinned, 1},
      {"dispatch_registered", "Baked Device", registered, 1, overlap::CallMemory::Registered},
      {"dispatch_registered_pinned_only", "Baked Device", pinned, 1},
      {"dispatch_registered_pageable_only", "Baked Device", registered, 1,
       overlap::CallMemory::Pageable}};
  ASSERT_TRUE(overlap::registerBakedChoices(baked, 4));
  const overlap::VariantChoice& onPinned = choose(kernel, 1000, "Baked Device");
  const overlap::VariantChoice& onRegistered =
      choose(kernel, 1000, "Baked Device", 1, overlap::CallMemory::Registered);
  EXPECT_NE(&onPinned, &onRegistered) << "registered memory is another key";
  EXPECT_EQ(onPinned.config.variant, Variant::Mapped);
  EXPECT_EQ(onRegistered.memory, overlap::CallMemory::Registered);
  EXPECT_EQ(onRegistered.source, ChoiceSource::Baked);
  EXPECT_EQ(overlap::describe(onRegistered.config), "Streams(8, breadth-first)");
  EXPECT_NE(onRegistered.reason.find("on registered memory"), std::string::npos)
      << onRegistered.reason;
  // Without a tuning of its own, the pinned one: its copies run at pinned speed.
  const overlap::VariantChoice& borrowed =
      choose(pinnedOnly, 1000, "Baked Device", 1, overlap::CallMemory::Registered);
  EXPECT_EQ(borrowed.source, ChoiceSource::Baked);
  EXPECT_EQ(borrowed.config.variant, Variant::Mapped);
  EXPECT_NE(borrowed.reason.find("no tuning results for this device on registered memory, tuned "
                                 "on Baked Device on pinned memory"),
            std::string::npos)
      << borrowed.reason;
  // Never the pageable one, whose strategies pin or stage what is pinned already; the model then.
  const int modelCalls = gModelCalls;
  const overlap::VariantChoice& modelled =
      choose(pageableOnly, 1000, "Baked Device", 1, overlap::CallMemory::Registered);
  EXPECT_EQ(modelled.source, ChoiceSource::Model);
  EXPECT_EQ(gModelCalls, modelCalls + 1);
  EXPECT_NE(modelled.reason.find("on registered or pinned memory (only on pageable memory: tune "
                                 "with --memory registered)"),
            std::string::npos)
      << modelled.reason;
}

TEST_F(Dispatch, ManagedCallsRunTheirOwnTuningElseThePinnedOne) {
  static const overlap::KernelDescriptor kernel = descriptor("dispatch_managed", kInOut);
  static const overlap::TunedSize pinned[] = {
      {1000, Variant::Mapped, 1, IssueOrder::DepthFirst, 1e-4, 1e-4, 1e-5}};
  static const overlap::TunedSize managed[] = {
      {1000, Variant::Explicit, 1, IssueOrder::DepthFirst, 2e-4, 2e-4, 1e-5}};
  static const overlap::BakedChoice pinnedOnly[] = {
      {"dispatch_managed", "Baked Device", pinned, 1}};
  ASSERT_TRUE(overlap::registerBakedChoices(pinnedOnly, 1));
  const Call call;
  const overlap::VariantChoice borrowed =
      overlap::chooseVariant(kernel, call.args, "Baked Device", overlap::CallMemory::Managed);
  EXPECT_EQ(borrowed.memory, overlap::CallMemory::Managed);
  EXPECT_EQ(borrowed.config.variant, Variant::Mapped) << borrowed.reason;
  EXPECT_NE(borrowed.reason.find("managed arrays: no tuning results for this device on managed "
                                 "memory, tuned on Baked Device on pinned memory"),
            std::string::npos)
      << borrowed.reason;
  static const overlap::BakedChoice own[] = {
      {"dispatch_managed", "Baked Device", managed, 1, overlap::CallMemory::Managed}};
  ASSERT_TRUE(overlap::registerBakedChoices(own, 1));
  const overlap::VariantChoice& tuned =
      choose(kernel, 1000, "Baked Device", 1, overlap::CallMemory::Managed);
  EXPECT_EQ(tuned.source, ChoiceSource::Baked);
  EXPECT_EQ(tuned.config.variant, Variant::Explicit) << tuned.reason;
  EXPECT_NE(tuned.reason.find("on managed memory"), std::string::npos) << tuned.reason;
}

TEST_F(Dispatch, RunsTheChoiceAndRecordsIt) {
  static const overlap::KernelDescriptor kernel = descriptor("dispatch_runs", kInOut);
  EXPECT_FALSE(overlap::lastDispatchChoice(kernel).has_value());
  Call call;
  ASSERT_TRUE(overlap::dispatch(kernel, call.args).ok());
  ASSERT_EQ(gRuns.size(), 1u);
  EXPECT_EQ(gRuns[0].variant, Variant::Streams);
  const std::optional<overlap::VariantChoice> last = overlap::lastDispatchChoice(kernel);
  ASSERT_TRUE(last.has_value());
  EXPECT_EQ(last->source, ChoiceSource::Model);
  EXPECT_EQ(last->config.streams.streams, 8);
}

TEST_F(Dispatch, OutOfMemoryBeforeAnyWorkFallsBackToExplicit) {
  static const overlap::KernelDescriptor kernel = descriptor("dispatch_oom", kInOut);
  gFailure = {cudaErrorMemoryAllocation, "cudaMalloc(&block, bytes)", "cache.cpp", 7};
  Call call;
  for (int i = 0; i < 2; ++i) {
    gRuns.clear();
    ASSERT_TRUE(overlap::dispatch(kernel, call.args).ok());
    ASSERT_EQ(gRuns.size(), 2u);
    EXPECT_EQ(gRuns[0].variant, Variant::Streams);
    EXPECT_EQ(gRuns[1].variant, Variant::Explicit);
    const std::optional<overlap::VariantChoice> last = overlap::lastDispatchChoice(kernel);
    ASSERT_TRUE(last.has_value());
    EXPECT_EQ(last->source, ChoiceSource::Fallback);
    EXPECT_EQ(last->config.variant, Variant::Explicit);
    EXPECT_NE(last->reason.find("Streams(8, depth-first)"), std::string::npos) << last->reason;
    EXPECT_NE(last->reason.find("cudaMalloc(&block, bytes)"), std::string::npos) << last->reason;
  }
}

// Explicit over the device-memory budget: Streams runs the call out of core instead.
overlap::Status explicitOverBudget(overlap::ArgPointers, const RunConfig& config) {
  gRuns.push_back(config);
  return config.variant == Variant::Explicit
             ? overlap::Status{cudaErrorMemoryAllocation, "Explicit needs 16.0 GiB", "f.cuh", 1}
             : overlap::Status{};
}

bool explicitModel(const overlap::KernelDescriptor&, overlap::ArgPointers, const std::string&,
                   RunConfig* config, std::string* why) {
  *config = RunConfig{};
  *why = "a model that says Explicit";
  return true;
}

TEST_F(Dispatch, ExplicitOverTheBudgetRunsAsStreamsOutOfCore) {
  overlap::setModelChooser(&explicitModel);
  static overlap::KernelDescriptor kernel = descriptor("dispatch_explicit_over_budget", kInOut);
  kernel.run = &explicitOverBudget;
  Call call;
  ASSERT_TRUE(overlap::dispatch(kernel, call.args).ok());
  ASSERT_EQ(gRuns.size(), 2u);
  EXPECT_EQ(gRuns[0].variant, Variant::Explicit);
  EXPECT_EQ(gRuns[1].variant, Variant::Streams);
  EXPECT_EQ(gRuns[1].streams.buffers, overlap::DeviceBuffers::Auto);
  const std::optional<overlap::VariantChoice> last = overlap::lastDispatchChoice(kernel);
  ASSERT_TRUE(last.has_value());
  EXPECT_EQ(last->source, ChoiceSource::Fallback);
  EXPECT_NE(last->reason.find("Explicit needs 16.0 GiB"), std::string::npos) << last->reason;
  EXPECT_NE(last->reason.find("run as Streams(4, depth-first)"), std::string::npos) << last->reason;
}

TEST_F(Dispatch, ALaunchErrorFallsBackOnlyWhereNothingWrittenCanBeReadAgain) {
  gFailure = {cudaErrorInvalidConfiguration, "kernel<<<...>>>", "Launch.cuh", 3};
  Call call;
  static const overlap::KernelDescriptor inout = descriptor("dispatch_launch_inout", kInOut);
  const overlap::Status status = overlap::dispatch(inout, call.args);
  EXPECT_EQ(status.code, cudaErrorInvalidConfiguration);
  EXPECT_EQ(gRuns.size(), 1u) << "an in-out array may hold a chunk's result already";
  const std::string message = status.message();
  EXPECT_NE(message.find("dispatch_launch_inout_tuned chose Streams(8, depth-first) (model, P in "
                         "[896, 1024)): kernel<<<...>>>"),
            std::string::npos)
      << message;

  gRuns.clear();
  static const overlap::KernelDescriptor out = descriptor("dispatch_launch_out", kOut);
  EXPECT_TRUE(overlap::dispatch(out, call.args).ok());
  EXPECT_EQ(gRuns.size(), 2u);
  EXPECT_EQ(overlap::lastDispatchChoice(out)->source, ChoiceSource::Fallback);
}

TEST_F(Dispatch, AnOverridesFailureIsTheAnswer) {
  static const overlap::KernelDescriptor kernel = descriptor("dispatch_override_fails", kOut);
  noOverride_.set("streams:4");
  gFailure = {cudaErrorMemoryAllocation, "cudaMalloc(&block, bytes)", "cache.cpp", 7};
  Call call;
  const overlap::Status status = overlap::dispatch(kernel, call.args);
  EXPECT_EQ(status.code, cudaErrorMemoryAllocation);
  EXPECT_EQ(gRuns.size(), 1u);
  EXPECT_NE(status.message().find("chose Streams(4, depth-first) (environment"), std::string::npos)
      << status.message();
}

TEST_F(Dispatch, TheLogNamesEachDistinctChoiceOnce) {
  static const overlap::KernelDescriptor kernel = descriptor("dispatch_logged", kInOut);
  noLog_.set("1");
  ::testing::internal::CaptureStderr();
  for (int i = 0; i < 5; ++i)
    choose(kernel, 1000);
  choose(kernel, 4000);
  const std::string log = ::testing::internal::GetCapturedStderr();
  std::size_t lines = 0;
  for (std::size_t at = log.find("overlap: dispatch_logged"); at != std::string::npos;
       at = log.find("overlap: dispatch_logged", at + 1))
    ++lines;
  EXPECT_EQ(lines, 2u) << log;
  EXPECT_NE(log.find("P in [896, 1024)"), std::string::npos) << log;
  EXPECT_NE(log.find("Streams(8, depth-first) (model: "), std::string::npos) << log;
}

} // namespace
