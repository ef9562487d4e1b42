// Mapped traffic against mapped traffic the other way, priced by the profile's both-ways cost
// (HardwareProfile::mappedBothWaysSecondsPerByte) instead of the copies' bidirectional ratio:
// the simulator's rule, where it does not apply, its fallbacks, and what it does to the Mapped
// prediction. Synthetic profiles whose numbers make the expected times easy to work out.
#include "ModelTestProfiles.h"
#include "model/CandidateSet.h"
#include "model/ModernModel.h"
#include "model/PipelineSimulator.h"
#include "model/ProfileCompletion.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

namespace overlap::model {
namespace {

constexpr double kBytes = 1e6;

// Copies and mapped access 1 ns/B each way alone, copies 1.1 ns/B against copies, 1.3 ns/B
// against mapped traffic; mapped both ways 1.25 ns/B each way. No latency, gap or overhead.
HardwareProfile bothWaysDevice() {
  HardwareProfile profile = testing::idealDevice(2, false, 90);
  for (LinkDirection* link : {&profile.hostToDevice, &profile.deviceToHost}) {
    link->secondsPerByte = 1e-9;
    link->bidirectionalSecondsPerByte = 1.1e-9;
    link->withMappedSecondsPerByte = 1.3e-9;
  }
  profile.mappedReadSecondsPerByte = 1e-9;
  profile.mappedWriteSecondsPerByte = 1e-9;
  profile.mappedBothWaysSecondsPerByte = 1.25e-9;
  return profile;
}

SimOp mappedKernel(double readBytes, double writeBytes) {
  SimOp op;
  op.kind = OpKind::Kernel;
  op.mappedReadBytes = readBytes;
  op.mappedWriteBytes = writeBytes;
  return op;
}

double makespan(const std::vector<SimOp>& ops, const HardwareProfile& profile) {
  return simulate(ops, simDeviceOf(profile, 8)).makespan;
}

TEST(MappedBothWays, BalancedTrafficRunsAtTheBothWaysCost) {
  HardwareProfile profile = bothWaysDevice();
  EXPECT_NEAR(makespan({mappedKernel(kBytes, kBytes)}, profile), kBytes * 1.25e-9, 1e-12);
  // Unknown: today's rule, each direction slowed by its copies' bidirectional ratio.
  profile.mappedBothWaysSecondsPerByte = 0;
  EXPECT_NEAR(makespan({mappedKernel(kBytes, kBytes)}, profile), kBytes * 1.1e-9, 1e-12);
}

TEST(MappedBothWays, OneWayTrafficIsNotSlowed) {
  const HardwareProfile profile = bothWaysDevice();
  EXPECT_NEAR(makespan({mappedKernel(kBytes, 0)}, profile), kBytes * 1e-9, 1e-12);
  EXPECT_NEAR(makespan({mappedKernel(0, kBytes)}, profile), kBytes * 1e-9, 1e-12);
}

TEST(MappedBothWays, TheRatioScalesTheFlowsOwnPerWidthCost) {
  // 4-byte elements priced at 2 ns/B each way alone: both ways 2 * 1.25 ns/B.
  SimOp op = mappedKernel(kBytes, kBytes);
  op.mappedReadSecondsPerByte = 2e-9;
  op.mappedWriteSecondsPerByte = 2e-9;
  EXPECT_NEAR(makespan({op}, bothWaysDevice()), kBytes * 2.5e-9, 1e-12);
}

TEST(MappedBothWays, EachDirectionHasItsOwnRatio) {
  // Writes 0.8 ns/B alone: against reads 1.25 / 0.8 = 1.5625x, so both directions take 1.25 ns
  // per byte each way, as the calibration's kernel measured.
  HardwareProfile profile = bothWaysDevice();
  profile.mappedWriteSecondsPerByte = 0.8e-9;
  EXPECT_NEAR(makespan({mappedKernel(kBytes, kBytes)}, profile), kBytes * 1.25e-9, 1e-12);
}

TEST(MappedBothWays, UnevenTrafficIsSlowedOnlyWhileBothDirectionsMove) {
  // Reads twice what it writes (saxpy): the writes end at 1.25 ns/B * B, the reads have then moved
  // B of their 2B and move the rest alone at 1 ns/B.
  HardwareProfile profile = bothWaysDevice();
  EXPECT_NEAR(makespan({mappedKernel(2 * kBytes, kBytes)}, profile), kBytes * 2.25e-9, 1e-12);
  // The copies' ratio (1.1x) gave 2.1 ns/B * B.
  profile.mappedBothWaysSecondsPerByte = 0;
  EXPECT_NEAR(makespan({mappedKernel(2 * kBytes, kBytes)}, profile), kBytes * 2.1e-9, 1e-12);
}

TEST(MappedBothWays, AgainstACopyTheCopiesRatioStays) {
  // Mapped reads on stream 0 against a copy out of the same size on stream 1: the reads are
  // slowed as copies in are by copies out (1.1x), not by the both-ways cost; the copy runs at its
  // G against mapped traffic (1.3 ns/B) until the reads end, then alone at 1 ns/B.
  SimOp copyOut;
  copyOut.kind = OpKind::CopyToHost;
  copyOut.stream = 1;
  copyOut.bytes = kBytes;
  const SimResult result =
      simulate({mappedKernel(kBytes, 0), copyOut}, simDeviceOf(bothWaysDevice(), 8));
  EXPECT_NEAR(result.timings[0].end, kBytes * 1.1e-9, 1e-12);
  const double copiedAgainstReads = kBytes * 1.1e-9 / 1.3e-9;
  EXPECT_NEAR(result.timings[1].end, kBytes * 1.1e-9 + (kBytes - copiedAgainstReads) * 1e-9, 1e-12);
}

TEST(MappedBothWays, AMeasuredCostBelowOneWayIsNoSpeedUp) {
  HardwareProfile profile = bothWaysDevice();
  profile.mappedBothWaysSecondsPerByte = 0.9e-9;
  EXPECT_NEAR(makespan({mappedKernel(kBytes, kBytes)}, profile), kBytes * 1e-9, 1e-12);
}

TEST(MappedBothWays, UsedOnlyBesideMeasuredOneWayMappedCosts) {
  HardwareProfile profile = bothWaysDevice();
  EXPECT_EQ(simDeviceOf(profile, 8).mappedBothWaysSecondsPerByte, 1.25e-9);
  profile.mappedWriteSecondsPerByte = 0;
  EXPECT_EQ(simDeviceOf(profile, 8).mappedBothWaysSecondsPerByte, 0);

  const CompletedProfile completed = completeProfile(profile);
  EXPECT_EQ(completed.profile.mappedBothWaysSecondsPerByte, 0)
      << "the write G filled in from the copy G must not become the ratio's denominator";
  EXPECT_TRUE(std::any_of(completed.assumptions.begin(), completed.assumptions.end(),
                          [](const std::string& a) {
                            return a.find("mapped traffic both ways") != std::string::npos;
                          }));
  const CompletedProfile known = completeProfile(bothWaysDevice());
  EXPECT_EQ(known.profile.mappedBothWaysSecondsPerByte, 1.25e-9);
  for (const std::string& assumption : known.assumptions)
    EXPECT_EQ(assumption.find("both ways"), std::string::npos) << assumption;
}

// Scalar addition: one in-out array, read and written through the link by one kernel.
Workload scalarAddLike() {
  Workload w;
  w.partition.extent = 1;
  w.transfers.h2dBytes = kBytes;
  w.transfers.d2hBytes = kBytes;
  w.transfers.inoutD2hBytes = kBytes;
  w.launch.kernelSeconds = 1e-6;
  return w;
}

TEST(MappedBothWays, TheMappedVariantOfScalarAdditionIsPricedBothWays) {
  HardwareProfile profile = bothWaysDevice();
  const Candidate mapped{Variant::Mapped};
  // The kernel's compute (1 us) hides under its 1.25 ms of traffic.
  EXPECT_NEAR(*ModernModel().predictSeconds(profile, scalarAddLike(), mapped), kBytes * 1.25e-9,
              1e-12);
  profile.mappedBothWaysSecondsPerByte = 0;
  EXPECT_NEAR(*ModernModel().predictSeconds(profile, scalarAddLike(), mapped), kBytes * 1.1e-9,
              1e-12);
}

} // namespace
} // namespace overlap::model
