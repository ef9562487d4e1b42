// Mapped access priced per element width (schema 3 profiles): the cost of one width, the mean
// over a workload's arrays, and what it does to the Mapped and Hybrid predictions, on synthetic
// profiles whose numbers make the expected times easy to work out.
#include "model/MappedWidthCost.h"
#include "ModelTestProfiles.h"
#include "model/CandidateSet.h"
#include "model/ModernModel.h"

#include <gtest/gtest.h>

#include <cmath>

namespace overlap::model {
namespace {

// Full lines at 1 ns/B both ways; 1-byte elements 4x, 2-byte 2x; 8 and 16 bytes unmeasured.
HardwareProfile pricedByWidth() {
  HardwareProfile profile = testing::idealDevice(2, false, 90);
  profile.hostToDevice.secondsPerByte = 1e-9;
  profile.deviceToHost.secondsPerByte = 1e-9;
  profile.mappedReadSecondsPerByte = 1e-9;
  profile.mappedWriteSecondsPerByte = 1e-9;
  profile.mappedByWidth = {{1, 4e-9, 3e-9}, {2, 2e-9, 1.5e-9}, {4, 1e-9, 1e-9}};
  return profile;
}

TEST(MappedWidthCost, MeasuredWidthsAreTakenAsMeasured) {
  const HardwareProfile profile = pricedByWidth();
  EXPECT_DOUBLE_EQ(mappedWidthSecondsPerByte(profile, 1, MappedAccess::Read), 4e-9);
  EXPECT_DOUBLE_EQ(mappedWidthSecondsPerByte(profile, 1, MappedAccess::Write), 3e-9);
  EXPECT_DOUBLE_EQ(mappedWidthSecondsPerByte(profile, 2, MappedAccess::Read), 2e-9);
}

TEST(MappedWidthCost, UnmeasuredWidthsInterpolateOnLog2OrTakeTheNearest) {
  const HardwareProfile profile = pricedByWidth();
  // 3 bytes: log2(3) = 1.585 lies 0.585 of the way from 2 to 4 bytes.
  EXPECT_NEAR(mappedWidthSecondsPerByte(profile, 3, MappedAccess::Read),
              2e-9 + (std::log2(3.0) - 1) * (1e-9 - 2e-9), 1e-18);
  // Above the widest measured width: the widest (whole lines already at 4 bytes).
  EXPECT_DOUBLE_EQ(mappedWidthSecondsPerByte(profile, 16, MappedAccess::Write), 1e-9);
  HardwareProfile wideOnly = profile;
  wideOnly.mappedByWidth = {{8, 1e-9, 1e-9}};
  EXPECT_DOUBLE_EQ(mappedWidthSecondsPerByte(wideOnly, 1, MappedAccess::Read), 1e-9);
}

TEST(MappedWidthCost, NoPerWidthDataMeansNoPrice) {
  HardwareProfile profile = pricedByWidth();
  profile.mappedByWidth.clear();
  EXPECT_EQ(mappedWidthSecondsPerByte(profile, 1, MappedAccess::Read), 0);
  // A width measured for reads only does not price writes.
  profile.mappedByWidth = {{1, 4e-9, 0}};
  EXPECT_EQ(mappedWidthSecondsPerByte(profile, 1, MappedAccess::Write), 0);
  EXPECT_EQ(mappedWidthSecondsPerByte(profile, 0, MappedAccess::Read), 0);
}

Workload grayHistogramLike() {
  Workload w;
  w.partition.extent = 8;
  w.transfers.h2dBytes = 3000;        // RGB bytes
  w.transfers.d2hBytes = 1000 + 1000; // gray bytes, 4-byte bins
  w.mapped.bytesByWidth = {{1, 3000, 1000, 0}, {4, 0, 1000, 0}};
  w.mapped.narrowestElementBytes = 1;
  return w;
}

TEST(MappedWidthCost, TheMeanIsWeightedByEachWidthsBytes) {
  const HardwareProfile profile = pricedByWidth();
  const Workload w = grayHistogramLike();
  EXPECT_DOUBLE_EQ(mappedSecondsPerByte(profile, w, MappedAccess::Read), 4e-9);
  // Half the output bytes at 3 ns/B, half at 1 ns/B.
  EXPECT_DOUBLE_EQ(mappedSecondsPerByte(profile, w, MappedAccess::Write), 2e-9);
  Workload inout = w;
  inout.mapped.bytesByWidth = {{1, 3000, 0, 1000}, {4, 0, 1000, 0}};
  // Hybrid copies in-out arrays back: only the 4-byte pure output is written through the link.
  EXPECT_DOUBLE_EQ(
      mappedSecondsPerByte(profile, inout, MappedAccess::Write, MappedOutputs::PureOnly), 1e-9);
  EXPECT_DOUBLE_EQ(mappedSecondsPerByte(profile, inout, MappedAccess::Write), 2e-9);
}

TEST(MappedWidthCost, AWidthTheProfileCannotPriceFallsBackToTheSingleG) {
  HardwareProfile profile = pricedByWidth();
  profile.mappedByWidth = {{4, 1e-9, 0}}; // writes unmeasured
  const Workload w = grayHistogramLike();
  EXPECT_DOUBLE_EQ(mappedSecondsPerByte(profile, w, MappedAccess::Read), 1e-9);
  EXPECT_EQ(mappedSecondsPerByte(profile, w, MappedAccess::Write), 0);
  Workload unknown = w;
  unknown.mapped.bytesByWidth.clear();
  EXPECT_EQ(mappedSecondsPerByte(profile, unknown, MappedAccess::Read), 0);
}

TEST(MappedWidthCost, MappedIsPricedPerWidth) {
  // One kernel, no compute, no launch cost: reads 3000 B at 4 ns/B alone (12 us) while it writes
  // 2000 B at 2 ns/B (4 us); the ideal device's directions do not slow each other.
  HardwareProfile profile = pricedByWidth();
  const Workload w = grayHistogramLike();
  const double seconds = *ModernModel().predictSeconds(profile, w, Candidate{Variant::Mapped});
  EXPECT_NEAR(seconds, 12e-6, 1e-12);
  // Without per-width costs every byte costs the full-line 1 ns/B: 3 us.
  profile.mappedByWidth.clear();
  EXPECT_NEAR(*ModernModel().predictSeconds(profile, w, Candidate{Variant::Mapped}), 3e-6, 1e-12);
}

TEST(MappedWidthCost, HybridWritesItsPureOutputsAtTheirWidthsCost) {
  // One chunk: copy in 3000 B at 1 ns/B (3 us), then the kernel writes 2000 B at 2 ns/B (4 us).
  HardwareProfile profile = pricedByWidth();
  const Workload w = grayHistogramLike();
  const Candidate hybrid{Variant::Hybrid, 1, IssueOrder::DepthFirst};
  EXPECT_NEAR(*ModernModel().predictSeconds(profile, w, hybrid), 7e-6, 1e-12);
  profile.mappedByWidth.clear();
  EXPECT_NEAR(*ModernModel().predictSeconds(profile, w, hybrid), 5e-6, 1e-12);
}

TEST(MappedWidthCost, NarrowElementsAreALowerBoundOnlyWithoutPerWidthCosts) {
  HardwareProfile profile = pricedByWidth();
  const Workload w = grayHistogramLike();
  EXPECT_FALSE(mappedPredictionIsLowerBound(w, profile));
  Workload widthsUnknown = w;
  widthsUnknown.mapped.bytesByWidth.clear();
  EXPECT_TRUE(mappedPredictionIsLowerBound(widthsUnknown, profile));
  profile.mappedByWidth.clear();
  EXPECT_TRUE(mappedPredictionIsLowerBound(w, profile));
  // Unknown re-reads of a broadcast input stay a lower bound whatever the widths.
  Workload broadcast = w;
  broadcast.transfers.broadcastBytes = 100;
  EXPECT_TRUE(mappedPredictionIsLowerBound(broadcast, pricedByWidth()));
}

TEST(MappedWidthCost, APricedNarrowMappedCanBeThePredictedBest) {
  // One partition index, so no pipeline: Mapped over 1-byte arrays priced at 1.1 ns/B overlaps
  // its reads, writes and kernel, which Explicit cannot. Priced, it is the predicted best; as a
  // lower bound (no per-width costs) it never is.
  HardwareProfile profile = pricedByWidth();
  profile.mappedByWidth = {{1, 1.1e-9, 1.1e-9}, {4, 1e-9, 1e-9}};
  Workload w;
  w.partition.extent = 1;
  w.transfers.h2dBytes = 1e6;
  w.transfers.d2hBytes = 1e6;
  w.launch.kernelSeconds = 1e-3;
  w.mapped.bytesByWidth = {{1, 1e6, 1e6, 0}};
  w.mapped.narrowestElementBytes = 1;
  const Prediction priced = predict(ModernModel(), profile, w);
  ASSERT_TRUE(priced.best);
  EXPECT_EQ(priced.rows[*priced.best].candidate.variant, Variant::Mapped);
  profile.mappedByWidth.clear();
  const Prediction unpriced = predict(ModernModel(), profile, w);
  ASSERT_TRUE(unpriced.best);
  EXPECT_NE(unpriced.rows[*unpriced.best].candidate.variant, Variant::Mapped);
}

} // namespace
} // namespace overlap::model
