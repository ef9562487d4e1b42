// Mapped access priced per element width (schema 3 profiles): the cost of one width, the mean
// over a workload's arrays, and what it does to the Mapped and Hybrid predictions, on synthetic
// profiles whose numbers make the expected times easy to work out.
#include "model/candidate_set.h"
#include "model/mapped_width_cost.h"
#include "model/modern_model.h"
#include "model_test_profiles.h"

#include <gtest/gtest.h>

#include <cmath>

namespace overlap::model {
namespace {

// Full lines at 1 ns/B both ways; 1-byte elements 4x, 2-byte 2x; 8 and 16 bytes unmeasured.
HardwareProfile priced_by_width() {
  HardwareProfile profile = testing::ideal_device(2, false, 90);
  profile.host_to_device.seconds_per_byte = 1e-9;
  profile.device_to_host.seconds_per_byte = 1e-9;
  profile.mapped_read_seconds_per_byte = 1e-9;
  profile.mapped_write_seconds_per_byte = 1e-9;
  profile.mapped_by_width = {{1, 4e-9, 3e-9}, {2, 2e-9, 1.5e-9}, {4, 1e-9, 1e-9}};
  return profile;
}

TEST(MappedWidthCost, MeasuredWidthsAreTakenAsMeasured) {
  const HardwareProfile profile = priced_by_width();
  EXPECT_DOUBLE_EQ(mapped_width_seconds_per_byte(profile, 1, MappedAccess::Read), 4e-9);
  EXPECT_DOUBLE_EQ(mapped_width_seconds_per_byte(profile, 1, MappedAccess::Write), 3e-9);
  EXPECT_DOUBLE_EQ(mapped_width_seconds_per_byte(profile, 2, MappedAccess::Read), 2e-9);
}

TEST(MappedWidthCost, UnmeasuredWidthsInterpolateOnLog2OrTakeTheNearest) {
  const HardwareProfile profile = priced_by_width();
  // 3 bytes: log2(3) = 1.585 lies 0.585 of the way from 2 to 4 bytes.
  EXPECT_NEAR(mapped_width_seconds_per_byte(profile, 3, MappedAccess::Read),
              2e-9 + (std::log2(3.0) - 1) * (1e-9 - 2e-9), 1e-18);
  // Above the widest measured width: the widest (whole lines already at 4 bytes).
  EXPECT_DOUBLE_EQ(mapped_width_seconds_per_byte(profile, 16, MappedAccess::Write), 1e-9);
  HardwareProfile wide_only = profile;
  wide_only.mapped_by_width = {{8, 1e-9, 1e-9}};
  EXPECT_DOUBLE_EQ(mapped_width_seconds_per_byte(wide_only, 1, MappedAccess::Read), 1e-9);
}

TEST(MappedWidthCost, NoPerWidthDataMeansNoPrice) {
  HardwareProfile profile = priced_by_width();
  profile.mapped_by_width.clear();
  EXPECT_EQ(mapped_width_seconds_per_byte(profile, 1, MappedAccess::Read), 0);
  // A width measured for reads only does not price writes.
  profile.mapped_by_width = {{1, 4e-9, 0}};
  EXPECT_EQ(mapped_width_seconds_per_byte(profile, 1, MappedAccess::Write), 0);
  EXPECT_EQ(mapped_width_seconds_per_byte(profile, 0, MappedAccess::Read), 0);
}

Workload gray_histogram_like() {
  Workload w;
  w.partition_extent = 8;
  w.h2d_bytes = 3000;        // RGB bytes
  w.d2h_bytes = 1000 + 1000; // gray bytes, 4-byte bins
  w.mapped_bytes_by_width = {{1, 3000, 1000, 0}, {4, 0, 1000, 0}};
  w.mapped_narrowest_element_bytes = 1;
  return w;
}

TEST(MappedWidthCost, TheMeanIsWeightedByEachWidthsBytes) {
  const HardwareProfile profile = priced_by_width();
  const Workload w = gray_histogram_like();
  EXPECT_DOUBLE_EQ(mapped_seconds_per_byte(profile, w, MappedAccess::Read), 4e-9);
  // Half the output bytes at 3 ns/B, half at 1 ns/B.
  EXPECT_DOUBLE_EQ(mapped_seconds_per_byte(profile, w, MappedAccess::Write), 2e-9);
  Workload inout = w;
  inout.mapped_bytes_by_width = {{1, 3000, 0, 1000}, {4, 0, 1000, 0}};
  // Hybrid copies in-out arrays back: only the 4-byte pure output is written through the link.
  EXPECT_DOUBLE_EQ(
      mapped_seconds_per_byte(profile, inout, MappedAccess::Write, MappedOutputs::PureOnly), 1e-9);
  EXPECT_DOUBLE_EQ(mapped_seconds_per_byte(profile, inout, MappedAccess::Write), 2e-9);
}

TEST(MappedWidthCost, AWidthTheProfileCannotPriceFallsBackToTheSingleG) {
  HardwareProfile profile = priced_by_width();
  profile.mapped_by_width = {{4, 1e-9, 0}}; // writes unmeasured
  const Workload w = gray_histogram_like();
  EXPECT_DOUBLE_EQ(mapped_seconds_per_byte(profile, w, MappedAccess::Read), 1e-9);
  EXPECT_EQ(mapped_seconds_per_byte(profile, w, MappedAccess::Write), 0);
  Workload unknown = w;
  unknown.mapped_bytes_by_width.clear();
  EXPECT_EQ(mapped_seconds_per_byte(profile, unknown, MappedAccess::Read), 0);
}

TEST(MappedWidthCost, MappedIsPricedPerWidth) {
  // One kernel, no compute, no launch cost: reads 3000 B at 4 ns/B alone (12 us) while it writes
  // 2000 B at 2 ns/B (4 us); the ideal device's directions do not slow each other.
  HardwareProfile profile = priced_by_width();
  const Workload w = gray_histogram_like();
  const double seconds = *ModernModel().predict_seconds(profile, w, Candidate{Variant::Mapped});
  EXPECT_NEAR(seconds, 12e-6, 1e-12);
  // Without per-width costs every byte costs the full-line 1 ns/B: 3 us.
  profile.mapped_by_width.clear();
  EXPECT_NEAR(*ModernModel().predict_seconds(profile, w, Candidate{Variant::Mapped}), 3e-6, 1e-12);
}

TEST(MappedWidthCost, HybridWritesItsPureOutputsAtTheirWidthsCost) {
  // One chunk: copy in 3000 B at 1 ns/B (3 us), then the kernel writes 2000 B at 2 ns/B (4 us).
  HardwareProfile profile = priced_by_width();
  const Workload w = gray_histogram_like();
  const Candidate hybrid{Variant::Hybrid, 1, IssueOrder::DepthFirst};
  EXPECT_NEAR(*ModernModel().predict_seconds(profile, w, hybrid), 7e-6, 1e-12);
  profile.mapped_by_width.clear();
  EXPECT_NEAR(*ModernModel().predict_seconds(profile, w, hybrid), 5e-6, 1e-12);
}

TEST(MappedWidthCost, NarrowElementsAreALowerBoundOnlyWithoutPerWidthCosts) {
  HardwareProfile profile = priced_by_width();
  const Workload w = gray_histogram_like();
  EXPECT_FALSE(mapped_prediction_is_lower_bound(w, profile));
  Workload widths_unknown = w;
  widths_unknown.mapped_bytes_by_width.clear();
  EXPECT_TRUE(mapped_prediction_is_lower_bound(widths_unknown, profile));
  profile.mapped_by_width.clear();
  EXPECT_TRUE(mapped_prediction_is_lower_bound(w, profile));
  // Unknown re-reads of a broadcast input stay a lower bound whatever the widths.
  Workload broadcast = w;
  broadcast.broadcast_bytes = 100;
  EXPECT_TRUE(mapped_prediction_is_lower_bound(broadcast, priced_by_width()));
}

TEST(MappedWidthCost, APricedNarrowMappedCanBeThePredictedBest) {
  // One partition index, so no pipeline: Mapped over 1-byte arrays priced at 1.1 ns/B overlaps
  // its reads, writes and kernel, which Explicit cannot. Priced, it is the predicted best; as a
  // lower bound (no per-width costs) it never is.
  HardwareProfile profile = priced_by_width();
  profile.mapped_by_width = {{1, 1.1e-9, 1.1e-9}, {4, 1e-9, 1e-9}};
  Workload w;
  w.partition_extent = 1;
  w.h2d_bytes = 1e6;
  w.d2h_bytes = 1e6;
  w.kernel_seconds = 1e-3;
  w.mapped_bytes_by_width = {{1, 1e6, 1e6, 0}};
  w.mapped_narrowest_element_bytes = 1;
  const Prediction priced = predict(ModernModel(), profile, w);
  ASSERT_TRUE(priced.best);
  EXPECT_EQ(priced.rows[*priced.best].candidate.variant, Variant::Mapped);
  profile.mapped_by_width.clear();
  const Prediction unpriced = predict(ModernModel(), profile, w);
  ASSERT_TRUE(unpriced.best);
  EXPECT_NE(unpriced.rows[*unpriced.best].candidate.variant, Variant::Mapped);
}

} // namespace
} // namespace overlap::model
