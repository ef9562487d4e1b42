// Mapped traffic against mapped traffic the other way, priced by the profile's both-ways cost
// (HardwareProfile::mapped_both_ways_seconds_per_byte) instead of the copies' bidirectional ratio:
// the simulator's rule, where it does not apply, its fallbacks, and what it does to the Mapped
// prediction. Synthetic profiles whose numbers make the expected times easy to work out.
#include "model/candidate_set.h"
#include "model/modern_model.h"
#include "model/pipeline_simulator.h"
#include "model/profile_completion.h"
#include "model_test_profiles.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

namespace overlap::model {
namespace {

constexpr double kBytes = 1e6;

// Copies and mapped access 1 ns/B each way alone, copies 1.1 ns/B against copies, 1.3 ns/B
// against mapped traffic; mapped both ways 1.25 ns/B each way. No latency, gap or overhead.
HardwareProfile both_ways_device() {
  HardwareProfile profile = testing::ideal_device(2, false, 90);
  for (LinkDirection* link : {&profile.host_to_device, &profile.device_to_host}) {
    link->seconds_per_byte = 1e-9;
    link->bidirectional_seconds_per_byte = 1.1e-9;
    link->with_mapped_seconds_per_byte = 1.3e-9;
  }
  profile.mapped_read_seconds_per_byte = 1e-9;
  profile.mapped_write_seconds_per_byte = 1e-9;
  profile.mapped_both_ways_seconds_per_byte = 1.25e-9;
  return profile;
}

SimOp mapped_kernel(double read_bytes, double write_bytes) {
  SimOp op;
  op.kind = OpKind::Kernel;
  op.mapped_read_bytes = read_bytes;
  op.mapped_write_bytes = write_bytes;
  return op;
}

double makespan(const std::vector<SimOp>& ops, const HardwareProfile& profile) {
  return simulate(ops, sim_device_of(profile, 8)).makespan;
}

TEST(MappedBothWays, BalancedTrafficRunsAtTheBothWaysCost) {
  HardwareProfile profile = both_ways_device();
  EXPECT_NEAR(makespan({mapped_kernel(kBytes, kBytes)}, profile), kBytes * 1.25e-9, 1e-12);
  // Unknown: today's rule, each direction slowed by its copies' bidirectional ratio.
  profile.mapped_both_ways_seconds_per_byte = 0;
  EXPECT_NEAR(makespan({mapped_kernel(kBytes, kBytes)}, profile), kBytes * 1.1e-9, 1e-12);
}

TEST(MappedBothWays, OneWayTrafficIsNotSlowed) {
  const HardwareProfile profile = both_ways_device();
  EXPECT_NEAR(makespan({mapped_kernel(kBytes, 0)}, profile), kBytes * 1e-9, 1e-12);
  EXPECT_NEAR(makespan({mapped_kernel(0, kBytes)}, profile), kBytes * 1e-9, 1e-12);
}

TEST(MappedBothWays, TheRatioScalesTheFlowsOwnPerWidthCost) {
  // 4-byte elements priced at 2 ns/B each way alone: both ways 2 * 1.25 ns/B.
  SimOp op = mapped_kernel(kBytes, kBytes);
  op.mapped_read_seconds_per_byte = 2e-9;
  op.mapped_write_seconds_per_byte = 2e-9;
  EXPECT_NEAR(makespan({op}, both_ways_device()), kBytes * 2.5e-9, 1e-12);
}

TEST(MappedBothWays, EachDirectionHasItsOwnRatio) {
  // Writes 0.8 ns/B alone: against reads 1.25 / 0.8 = 1.5625x, so both directions take 1.25 ns
  // per byte each way, as the calibration's kernel measured.
  HardwareProfile profile = both_ways_device();
  profile.mapped_write_seconds_per_byte = 0.8e-9;
  EXPECT_NEAR(makespan({mapped_kernel(kBytes, kBytes)}, profile), kBytes * 1.25e-9, 1e-12);
}

TEST(MappedBothWays, UnevenTrafficIsSlowedOnlyWhileBothDirectionsMove) {
  // Reads twice what it writes (saxpy): the writes end at 1.25 ns/B * B, the reads have then moved
  // B of their 2B and move the rest alone at 1 ns/B.
  HardwareProfile profile = both_ways_device();
  EXPECT_NEAR(makespan({mapped_kernel(2 * kBytes, kBytes)}, profile), kBytes * 2.25e-9, 1e-12);
  // The copies' ratio (1.1x) gave 2.1 ns/B * B.
  profile.mapped_both_ways_seconds_per_byte = 0;
  EXPECT_NEAR(makespan({mapped_kernel(2 * kBytes, kBytes)}, profile), kBytes * 2.1e-9, 1e-12);
}

TEST(MappedBothWays, AgainstACopyTheCopiesRatioStays) {
  // Mapped reads on stream 0 against a copy out of the same size on stream 1: the reads are
  // slowed as copies in are by copies out (1.1x), not by the both-ways cost; the copy runs at its
  // G against mapped traffic (1.3 ns/B) until the reads end, then alone at 1 ns/B.
  SimOp copy_out;
  copy_out.kind = OpKind::CopyToHost;
  copy_out.stream = 1;
  copy_out.bytes = kBytes;
  const SimResult result =
      simulate({mapped_kernel(kBytes, 0), copy_out}, sim_device_of(both_ways_device(), 8));
  EXPECT_NEAR(result.timings[0].end, kBytes * 1.1e-9, 1e-12);
  const double copied_against_reads = kBytes * 1.1e-9 / 1.3e-9;
  EXPECT_NEAR(result.timings[1].end, kBytes * 1.1e-9 + (kBytes - copied_against_reads) * 1e-9,
              1e-12);
}

TEST(MappedBothWays, AMeasuredCostBelowOneWayIsNoSpeedUp) {
  HardwareProfile profile = both_ways_device();
  profile.mapped_both_ways_seconds_per_byte = 0.9e-9;
  EXPECT_NEAR(makespan({mapped_kernel(kBytes, kBytes)}, profile), kBytes * 1e-9, 1e-12);
}

TEST(MappedBothWays, UsedOnlyBesideMeasuredOneWayMappedCosts) {
  HardwareProfile profile = both_ways_device();
  EXPECT_EQ(sim_device_of(profile, 8).mapped_both_ways_seconds_per_byte, 1.25e-9);
  profile.mapped_write_seconds_per_byte = 0;
  EXPECT_EQ(sim_device_of(profile, 8).mapped_both_ways_seconds_per_byte, 0);

  const CompletedProfile completed = complete_profile(profile);
  EXPECT_EQ(completed.profile.mapped_both_ways_seconds_per_byte, 0)
      << "the write G filled in from the copy G must not become the ratio's denominator";
  EXPECT_TRUE(std::any_of(completed.assumptions.begin(), completed.assumptions.end(),
                          [](const std::string& a) {
                            return a.find("mapped traffic both ways") != std::string::npos;
                          }));
  const CompletedProfile known = complete_profile(both_ways_device());
  EXPECT_EQ(known.profile.mapped_both_ways_seconds_per_byte, 1.25e-9);
  for (const std::string& assumption : known.assumptions)
    EXPECT_EQ(assumption.find("both ways"), std::string::npos) << assumption;
}

// Scalar addition: one in-out array, read and written through the link by one kernel.
Workload scalar_add_like() {
  Workload w;
  w.partition_extent = 1;
  w.h2d_bytes = kBytes;
  w.d2h_bytes = kBytes;
  w.inout_d2h_bytes = kBytes;
  w.kernel_seconds = 1e-6;
  return w;
}

TEST(MappedBothWays, TheMappedVariantOfScalarAdditionIsPricedBothWays) {
  HardwareProfile profile = both_ways_device();
  const Candidate mapped{Variant::Mapped};
  // The kernel's compute (1 us) hides under its 1.25 ms of traffic.
  EXPECT_NEAR(*ModernModel().predict_seconds(profile, scalar_add_like(), mapped), kBytes * 1.25e-9,
              1e-12);
  profile.mapped_both_ways_seconds_per_byte = 0;
  EXPECT_NEAR(*ModernModel().predict_seconds(profile, scalar_add_like(), mapped), kBytes * 1.1e-9,
              1e-12);
}

} // namespace
} // namespace overlap::model
