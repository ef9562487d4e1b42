// The order in which a generated K_tuned(...) entry point picks its variant (overlap/Dispatch.h):
// OVERLAP_VARIANT, then the tuning results baked into the build for the call's size, then the
// model, then Explicit. This test's target bakes dispatch_fixture_results.json (overlap-bake,
// through overlap_add_kernels(... TUNING_RESULTS)), whose only kernel is saxpy on a device named
// "Overlap Test Device", tuned on pinned memory at n = 4096 (Mapped), 2^20 (Hybrid(3,
// breadth-first)) and 2^26 (Streams(16, depth-first)), on registered memory at 4096 (Explicit) and
// 2^26 (Streams(16, breadth-first)), and on pageable memory at 4096 (Explicit)
// and 2^26 (Streams(8, depth-first, staged)). chooseVariant() and chooseForCall() take the
// device name and the memory as arguments, so none of this needs a GPU.
#include "DispatchEnvironment.h"
#include "buoydiff.overlap.h"
#include "saxpy.overlap.h"
#include "tune/ModelChoice.h"

#include "overlap/Dispatch.h"

#include <gtest/gtest.h>

#include <string>

namespace {

using overlap::ChoiceSource;
using overlap::IssueOrder;
using overlap::Variant;
using overlap::tune::testing::ScopedDispatchEnvironment;

const char* const kFixtureDevice = "Overlap Test Device";

// Arguments as K_tuned passes them to the dispatch: pointers to each parameter's value.
struct SaxpyCall {
  int n = 1 << 20;
  float a = 2.0f;
  const float* x = nullptr;
  float* y = nullptr;
  const void* args[4] = {&n, &a, &x, &y};
};

struct BuoydiffCall {
  int levels = 8;
  long long plane = 1 << 16;
  int k_begin = 0;
  int k_end = 0;
  const float* rho = nullptr;
  float* dbloc = nullptr;
  const void* args[6] = {&levels, &plane, &k_begin, &k_end, &rho, &dbloc};
};

class DispatchOrder : public ::testing::Test {
protected:
  ScopedDispatchEnvironment noOverride_{"OVERLAP_VARIANT", std::nullopt};
  SaxpyCall saxpy_;
  BuoydiffCall buoydiff_;
};

TEST_F(DispatchOrder, TheBakedEntryOfTheCurrentDeviceIsChosen) {
  const overlap::VariantChoice choice =
      overlap::chooseVariant(saxpy_descriptor, saxpy_.args, kFixtureDevice);
  EXPECT_EQ(choice.source, ChoiceSource::Baked) << choice.reason;
  EXPECT_EQ(choice.config.variant, Variant::Hybrid);
  EXPECT_EQ(choice.config.streams.streams, 3);
  EXPECT_EQ(choice.config.streams.order, IssueOrder::BreadthFirst);
  EXPECT_NE(choice.reason.find(kFixtureDevice), std::string::npos) << choice.reason;
}

TEST_F(DispatchOrder, TheBakedSizeNearestTheCallsWins) {
  for (const auto& [n, variant] : {std::pair<int, Variant>{4096, Variant::Mapped},
                                   {4000, Variant::Mapped},
                                   {1 << 20, Variant::Hybrid},
                                   {1 << 26, Variant::Streams}}) {
    saxpy_.n = n;
    const overlap::VariantChoice& choice =
        overlap::chooseForCall(saxpy_descriptor, saxpy_.args, kFixtureDevice);
    EXPECT_EQ(choice.source, ChoiceSource::Baked) << n << ": " << choice.reason;
    EXPECT_EQ(choice.config.variant, variant) << n << ": " << choice.reason;
  }
}

TEST_F(DispatchOrder, BetweenAndBeyondTheBakedSizesTheModelHelps) {
  // Between Mapped at 4096 and Hybrid(3) at 2^20 the linked model's scaled predictions decide.
  saxpy_.n = 60000;
  const overlap::VariantChoice between =
      overlap::chooseVariant(saxpy_descriptor, saxpy_.args, kFixtureDevice);
  EXPECT_EQ(between.source, ChoiceSource::Baked);
  EXPECT_TRUE(between.config.variant == Variant::Mapped ||
              between.config.variant == Variant::Hybrid);
  EXPECT_NE(between.reason.find("measured/predicted"), std::string::npos) << between.reason;
  // Beyond 2^26: Streams depth-first, at the model's stream count for 2^28 (no fewer than 16).
  saxpy_.n = 1 << 28;
  const overlap::VariantChoice beyond =
      overlap::chooseVariant(saxpy_descriptor, saxpy_.args, kFixtureDevice);
  EXPECT_EQ(beyond.config.variant, Variant::Streams);
  EXPECT_EQ(beyond.config.streams.order, IssueOrder::DepthFirst);
  EXPECT_GE(beyond.config.streams.streams, 16);
  EXPECT_NE(beyond.reason.find("fewest streams the model predicts"), std::string::npos)
      << beyond.reason;
}

TEST_F(DispatchOrder, PageableCallsRunThePageableTuning) {
  for (const auto& [n, variant] :
       {std::pair<int, Variant>{4096, Variant::Explicit}, {1 << 26, Variant::Streams}}) {
    saxpy_.n = n;
    const overlap::VariantChoice& choice = overlap::chooseForCall(
        saxpy_descriptor, saxpy_.args, kFixtureDevice, overlap::CallMemory::Pageable);
    EXPECT_EQ(choice.source, ChoiceSource::Baked) << n << ": " << choice.reason;
    EXPECT_EQ(choice.config.variant, variant) << n << ": " << choice.reason;
    EXPECT_NE(choice.reason.find("on pageable memory"), std::string::npos) << choice.reason;
  }
  EXPECT_EQ(overlap::chooseForCall(saxpy_descriptor, saxpy_.args, kFixtureDevice,
                                   overlap::CallMemory::Pageable)
                .config.streams.pageable,
            overlap::PageableMode::Stage);
  // The pinned call of the same size still runs the pinned tuning's winner.
  EXPECT_EQ(
      overlap::chooseForCall(saxpy_descriptor, saxpy_.args, kFixtureDevice).config.streams.pageable,
      overlap::PageableMode::Default);
}

// Arrays the registration cache holds: the registered tuning (Explicit at 4096, where the pinned
// one runs Mapped: kernels addressing registered malloc pages run slower).
TEST_F(DispatchOrder, RegisteredCallsRunTheRegisteredTuning) {
  for (const auto& [n, variant] :
       {std::pair<int, Variant>{4096, Variant::Explicit}, {1 << 26, Variant::Streams}}) {
    saxpy_.n = n;
    const overlap::VariantChoice& choice = overlap::chooseForCall(
        saxpy_descriptor, saxpy_.args, kFixtureDevice, overlap::CallMemory::Registered);
    EXPECT_EQ(choice.source, ChoiceSource::Baked) << n << ": " << choice.reason;
    EXPECT_EQ(choice.config.variant, variant) << n << ": " << choice.reason;
    EXPECT_NE(choice.reason.find("on registered memory"), std::string::npos) << choice.reason;
  }
  EXPECT_EQ(overlap::chooseForCall(saxpy_descriptor, saxpy_.args, kFixtureDevice,
                                   overlap::CallMemory::Registered)
                .config.streams.order,
            overlap::IssueOrder::BreadthFirst);
}

TEST_F(DispatchOrder, WithoutAPageableTuningPageableCallsRunExplicitEvenWithAModel) {
  const overlap::VariantChoice choice = overlap::chooseVariant(
      saxpy_descriptor, saxpy_.args, "Another Device", overlap::CallMemory::Pageable);
  EXPECT_EQ(choice.source, ChoiceSource::Default) << choice.reason;
  EXPECT_EQ(choice.config.variant, Variant::Explicit);
  EXPECT_NE(choice.reason.find("pageable arrays"), std::string::npos) << choice.reason;
}

TEST_F(DispatchOrder, ABakedEntryServesOnlyItsKernelAndDevice) {
  EXPECT_NE(overlap::chooseVariant(buoydiff_descriptor, buoydiff_.args, kFixtureDevice).source,
            ChoiceSource::Baked);
  EXPECT_NE(overlap::chooseVariant(saxpy_descriptor, saxpy_.args, "Another Device").source,
            ChoiceSource::Baked);
}

TEST_F(DispatchOrder, TheEnvironmentOverridesTheBakedEntry) {
  noOverride_.set("streams:5");
  const overlap::VariantChoice choice =
      overlap::chooseVariant(saxpy_descriptor, saxpy_.args, kFixtureDevice);
  EXPECT_EQ(choice.source, ChoiceSource::Environment);
  EXPECT_EQ(choice.config.variant, Variant::Streams);
  EXPECT_EQ(choice.config.streams.streams, 5);
  EXPECT_EQ(choice.config.streams.order, IssueOrder::DepthFirst);
}

TEST_F(DispatchOrder, APerKernelOverrideLeavesOtherKernelsToTheirResults) {
  noOverride_.set("buoydiff=mapped");
  const overlap::VariantChoice buoydiff =
      overlap::chooseVariant(buoydiff_descriptor, buoydiff_.args, kFixtureDevice);
  EXPECT_EQ(buoydiff.source, ChoiceSource::Environment);
  EXPECT_EQ(buoydiff.config.variant, Variant::Mapped);
  const overlap::VariantChoice saxpy =
      overlap::chooseVariant(saxpy_descriptor, saxpy_.args, kFixtureDevice);
  EXPECT_EQ(saxpy.source, ChoiceSource::Baked) << saxpy.reason;
}

TEST_F(DispatchOrder, AMalformedOverrideIsIgnoredAndSaysWhy) {
  noOverride_.set("streams:0");
  const overlap::VariantChoice choice =
      overlap::chooseVariant(saxpy_descriptor, saxpy_.args, kFixtureDevice);
  EXPECT_EQ(choice.source, ChoiceSource::Baked);
  EXPECT_NE(choice.reason.find("OVERLAP_VARIANT ignored"), std::string::npos) << choice.reason;
}

TEST_F(DispatchOrder, WithoutResultsForTheDeviceTheModelChooses) {
  const overlap::VariantChoice choice =
      overlap::chooseVariant(saxpy_descriptor, saxpy_.args, "Another Device");
  ASSERT_EQ(choice.source, ChoiceSource::Model) << choice.reason;
  EXPECT_NE(choice.reason.find("model's predicted best"), std::string::npos) << choice.reason;
  EXPECT_GE(choice.config.streams.streams, 1);
}

TEST_F(DispatchOrder, WithoutResultsOrModelItIsExplicit) {
  ASSERT_TRUE(overlap::setModelChooser(nullptr));
  const overlap::VariantChoice choice =
      overlap::chooseVariant(saxpy_descriptor, saxpy_.args, "Another Device");
  overlap::tune::installModelDispatch();
  EXPECT_EQ(choice.source, ChoiceSource::Default);
  EXPECT_EQ(choice.config.variant, Variant::Explicit);
}

// A copy of saxpy's descriptor whose run only records the configuration it was given: dispatch()
// then runs on any machine.
overlap::RunConfig gReceived;
int gRuns = 0;
overlap::Status recordConfig(overlap::ArgPointers, const overlap::RunConfig& config) {
  gReceived = config;
  ++gRuns;
  return overlap::Status{};
}

TEST(DispatchIntrospection, TheLastChoiceIsWhatTheKernelWasRunWith) {
  overlap::KernelDescriptor recorder = saxpy_descriptor;
  recorder.run = &recordConfig;
  EXPECT_FALSE(overlap::lastDispatchChoice(recorder).has_value()) << "never dispatched yet";

  SaxpyCall call;
  ScopedDispatchEnvironment overrideVariant("OVERLAP_VARIANT", "hybrid:6:breadth-first");
  gRuns = 0;
  ASSERT_TRUE(overlap::dispatch(recorder, call.args).ok());
  ASSERT_EQ(gRuns, 1);
  std::optional<overlap::VariantChoice> last = overlap::lastDispatchChoice(recorder);
  ASSERT_TRUE(last.has_value());
  EXPECT_EQ(last->source, ChoiceSource::Environment);
  EXPECT_EQ(last->config.variant, Variant::Hybrid);
  EXPECT_EQ(gReceived.variant, Variant::Hybrid);
  EXPECT_EQ(gReceived.streams.streams, 6);
  EXPECT_EQ(gReceived.streams.order, IssueOrder::BreadthFirst);

  overrideVariant.set("mapped");
  ASSERT_TRUE(overlap::dispatch(recorder, call.args).ok());
  last = overlap::lastDispatchChoice(recorder);
  ASSERT_TRUE(last.has_value());
  EXPECT_EQ(last->config.variant, Variant::Mapped);
  EXPECT_EQ(gReceived.variant, Variant::Mapped);
}

} // namespace
