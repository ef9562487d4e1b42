// Paper 001: the LogGP transfer model with Table I's parameters, Fig. 7's equations, the stream
// bounds of §VI and the roofline bounds of §III, on inputs worked out by hand.
#include "model/Paper001Model.h"

#include "ModelTestProfiles.h"

#include <gtest/gtest.h>

#include <cmath>

namespace overlap::model::paper001 {
namespace {

constexpr double kMiB = 1024.0 * 1024.0;

TEST(Paper001, TableOneTransferTimes) {
  const HardwareProfile titan = testing::table1GtxTitan();
  // 16 MiB host to device in one piece: 0.009420 ms + 16777216 B · 8.318392e-8 ms/B.
  EXPECT_NEAR(transferSeconds(titan.hostToDevice, 16 * kMiB, 1), 1.405015e-3, 1e-9);
  // ... in 16 pieces over 16 streams: + 15 · 0.002503 ms.
  EXPECT_NEAR(transferSeconds(titan.hostToDevice, 16 * kMiB, 16), 1.442560e-3, 1e-9);
  // Device to host: 0.009023 ms + 16777216 · 7.924734e-8 ms, and + 15 · 0.002674 ms.
  EXPECT_NEAR(transferSeconds(titan.deviceToHost, 16 * kMiB, 1), 1.338573e-3, 1e-9);
  EXPECT_NEAR(transferSeconds(titan.deviceToHost, 16 * kMiB, 16), 1.378683e-3, 1e-9);
  // 1 GiB in 256 pieces: 0.009420 + 1073741824 · 8.318392e-8 + 255 · 0.002503 ms.
  EXPECT_NEAR(transferSeconds(titan.hostToDevice, 1024 * kMiB, 256), 89.965739e-3, 1e-8);
}

// Directions with different parameters, so that a mix-up of hd and dh shows:
//   hd: L+o = 1, G = 0.01, g = 0.5      dh: L+o = 2, G = 0.02, g = 0.25
//   Bhd = 1000, Bdh = 500, tE = 20, n = 4, so per term:
//   hd whole in pieces 1 + 10 + 1.5 = 12.5, hd chunk 1 + 2.5 = 3.5,
//   dh whole in pieces 2 + 10 + 0.75 = 12.75, dh chunk 2 + 2.5 = 4.5, tE/n = 5.
StreamedCall example() {
  StreamedCall call;
  call.hostToDevice.latencyS = 1;
  call.hostToDevice.secondsPerByte = 0.01;
  call.hostToDevice.gapS = 0.5;
  call.deviceToHost.latencyS = 2;
  call.deviceToHost.secondsPerByte = 0.02;
  call.deviceToHost.gapS = 0.25;
  call.h2dBytes = 1000;
  call.d2hBytes = 500;
  call.kernelSeconds = 20;
  return call;
}

TEST(Paper001, FigureSevenEquationsOnHandComputedInputs) {
  const StreamedCall call = example();
  EXPECT_DOUBLE_EQ(eq1ImplicitSyncDominantKernel(call, 4), 3.5 + 20 + 12.75);
  EXPECT_DOUBLE_EQ(eq2ImplicitSyncDominantTransfers(call, 4), 12.5 + 5 + 12.75);
  EXPECT_DOUBLE_EQ(eq3OneEngineDominantKernel(call, 4), 3.5 + 20 + 4.5);
  // max(12.5 + 12.75, 12.5 + 5 + 4.5, 3.5 + 5 + 12.75)
  EXPECT_DOUBLE_EQ(eq4OneEngineDominantTransfers(call, 4), 25.25);
  // max(12.5 + 5 + 4.5, 3.5 + 20 + 4.5, 3.5 + 5 + 12.75)
  EXPECT_DOUBLE_EQ(eq5TwoEngines(call, 4), 28);
  // max(1 + 10 + 2, 1 + 20 + 2, 1 + 2 + 10)
  EXPECT_DOUBLE_EQ(eq6Mapped(call), 23);
}

TEST(Paper001, OneStreamIsTheNonStreamedTime) {
  const StreamedCall call = example();
  const double nonStreamed = 1 + 10 + 20 + 2 + 10;
  EXPECT_DOUBLE_EQ(eq1ImplicitSyncDominantKernel(call, 1), nonStreamed);
  EXPECT_DOUBLE_EQ(eq2ImplicitSyncDominantTransfers(call, 1), nonStreamed);
  EXPECT_DOUBLE_EQ(eq3OneEngineDominantKernel(call, 1), nonStreamed);
  EXPECT_DOUBLE_EQ(eq4OneEngineDominantTransfers(call, 1), nonStreamed);
  EXPECT_DOUBLE_EQ(eq5TwoEngines(call, 1), nonStreamed);
}

TEST(Paper001, LimitCases) {
  // No transfers and no latencies: every streamed estimate is the kernel time (the largest
  // component; with n streams nothing is left to overlap).
  StreamedCall computeOnly = example();
  computeOnly.h2dBytes = computeOnly.d2hBytes = 0;
  computeOnly.hostToDevice = computeOnly.deviceToHost = LinkDirection{};
  EXPECT_DOUBLE_EQ(eq3OneEngineDominantKernel(computeOnly, 8), 20);
  EXPECT_DOUBLE_EQ(eq5TwoEngines(computeOnly, 8), 20);
  EXPECT_DOUBLE_EQ(eq6Mapped(computeOnly), 20);
  // No kernel: with two engines the larger direction, sent in pieces, plus one chunk of the
  // other; mapped memory overlaps both directions completely.
  StreamedCall transferOnly = example();
  transferOnly.kernelSeconds = 0;
  EXPECT_DOUBLE_EQ(eq5TwoEngines(transferOnly, 4), std::max(12.5 + 4.5, 3.5 + 12.75));
  EXPECT_DOUBLE_EQ(eq6Mapped(transferOnly), 1 + 10 + 2);
}

TEST(Paper001, SectionSixBoundsSolveTheirEquations) {
  const StreamedCall call = example();

  // Implicit synchronization, dominant kernel: sqrt(Bhd·Ghd / g) = sqrt(10 / 0.25).
  const double kernelBound = maxStreamsImplicitSyncDominantKernel(call);
  EXPECT_DOUBLE_EQ(kernelBound, std::sqrt(40.0));
  // ... the stationary point of eq. (1).
  const double h = 1e-4;
  EXPECT_NEAR(eq1ImplicitSyncDominantKernel(call, kernelBound + h) -
                  eq1ImplicitSyncDominantKernel(call, kernelBound - h),
              0, 1e-8);

  // Dominant transfers: sqrt(tE / (g_hd + g_dh)) = sqrt(20 / 0.75), the stationary point of (2).
  const double transferBound = maxStreamsImplicitSyncDominantTransfers(call);
  EXPECT_DOUBLE_EQ(transferBound, std::sqrt(20 / 0.75));
  EXPECT_NEAR(eq2ImplicitSyncDominantTransfers(call, transferBound + h) -
                  eq2ImplicitSyncDominantTransfers(call, transferBound - h),
              0, 1e-8);

  // One copy engine, Bhd > Bdh: Bdh·Gdh + g·(n−1) = tE/n + Bdh/n·Gdh, i.e.
  // 10 + 0.25·(n − 1) = 30 / n, whose positive root is 2.8662.
  const double nMin = minStreamsOneEngine(call);
  EXPECT_NEAR(nMin, (-9.75 + std::sqrt(9.75 * 9.75 + 4 * 0.25 * 30)) / (2 * 0.25), 1e-12);
  EXPECT_NEAR(10 + 0.25 * (nMin - 1), 30 / nMin, 1e-12);
  // Bdh > Bhd uses the host-to-device side: Bhd·Ghd + g·(n−1) = Bhd/n·Ghd + tE/n.
  StreamedCall reversed = call;
  reversed.h2dBytes = 200; // Bhd·Ghd = 2
  const double nMinReversed = minStreamsOneEngine(reversed);
  EXPECT_NEAR(2 + 0.5 * (nMinReversed - 1), (2 + 20) / nMinReversed, 1e-12);

  // Two copy engines, Bhd > Bdh: sqrt((Bdh·Gdh + tE) / g_hd) = sqrt(30 / 0.5), where the first
  // term of eq. (5) is smallest.
  const double twoEngineBound = maxStreamsTwoEngines(call);
  EXPECT_DOUBLE_EQ(twoEngineBound, std::sqrt(60.0));
  auto firstTerm = [&](double n) {
    return transferSeconds(call.hostToDevice, call.h2dBytes, n) + call.kernelSeconds / n +
           call.deviceToHost.latencyS + call.d2hBytes / n * call.deviceToHost.secondsPerByte;
  };
  EXPECT_NEAR(firstTerm(twoEngineBound + h) - firstTerm(twoEngineBound - h), 0, 1e-8);
  // Bdh > Bhd: sqrt((Bhd·Ghd + tE) / g_dh).
  EXPECT_DOUBLE_EQ(maxStreamsTwoEngines(reversed), std::sqrt((2 + 20) / 0.25));
}

TEST(Paper001, RooflineBounds) {
  Roofline roofline;
  roofline.peakFlops = 1000;
  roofline.memoryBandwidth = 200;
  roofline.operationalIntensity = 2;
  roofline.pcieBandwidth = 10;
  roofline.dataIntensity = 8;
  EXPECT_DOUBLE_EQ(rooflineBound(roofline), 400);    // min(1000, 200 · 2)
  EXPECT_DOUBLE_EQ(fullOverlapBound(roofline), 80);  // min(1000, 400, 10 · 8)
  EXPECT_DOUBLE_EQ(mappedMemoryBound(roofline), 20); // min(1000, 10 · 2)
  // 800 flops, 100 bytes: 800 / (100 / 10 + 800 / 400)
  EXPECT_DOUBLE_EQ(zeroOverlapBound(roofline, 800, 100), 800.0 / 12);
  // Overlap can only help: zero overlap never beats full overlap.
  EXPECT_LE(zeroOverlapBound(roofline, 800, 100), fullOverlapBound(roofline));
}

Workload workloadOf(const StreamedCall& call) {
  Workload workload;
  workload.transfers.h2dBytes = call.h2dBytes;
  workload.transfers.d2hBytes = call.d2hBytes;
  workload.launch.kernelSeconds = call.kernelSeconds;
  return workload;
}

HardwareProfile profileOf(const StreamedCall& call, int copyEngines, bool implicitSync) {
  HardwareProfile profile;
  profile.hostToDevice = call.hostToDevice;
  profile.deviceToHost = call.deviceToHost;
  profile.copyEngines = copyEngines;
  profile.implicitSynchronization = implicitSync;
  return profile;
}

TEST(Paper001, ModelPicksTheCategoryAndTheLargerScenario) {
  const StreamedCall call = example();
  const Workload workload = workloadOf(call);
  const Model model;
  const Candidate streams{Variant::Streams, 4, IssueOrder::DepthFirst};
  EXPECT_DOUBLE_EQ(*model.predictSeconds(profileOf(call, 1, true), workload, streams),
                   std::max(36.25, 30.25));
  EXPECT_DOUBLE_EQ(*model.predictSeconds(profileOf(call, 1, false), workload, streams),
                   std::max(28.0, 25.25));
  EXPECT_DOUBLE_EQ(*model.predictSeconds(profileOf(call, 2, false), workload, streams), 28);
  EXPECT_DOUBLE_EQ(
      *model.predictSeconds(profileOf(call, 2, false), workload, {Variant::Explicit, 1, {}}),
      1 + 10 + 20 + 2 + 10);
}

TEST(Paper001, MappedUsesTheReadFactorAndMappedBandwidth) {
  const StreamedCall call = example();
  Workload workload = workloadOf(call);
  HardwareProfile profile = profileOf(call, 2, false);
  const Model model;
  const Candidate mapped{Variant::Mapped, 1, IssueOrder::DepthFirst};
  EXPECT_DOUBLE_EQ(*model.predictSeconds(profile, workload, mapped), 23);
  // Inputs read three times over a link of 0.02 s/B: max(1 + 60 + 2, 23, 13).
  workload.mapped.readFactor = 3;
  profile.mappedReadSecondsPerByte = 0.02;
  EXPECT_DOUBLE_EQ(*model.predictSeconds(profile, workload, mapped), 63);
}

TEST(Paper001, HybridIsEquationFiveWithTheBidirectionalParameters) {
  const StreamedCall call = example();
  HardwareProfile profile = profileOf(call, 1, true);
  profile.hostToDevice.bidirectionalSecondsPerByte = 0.02;
  profile.deviceToHost.bidirectionalSecondsPerByte = 0.04;
  StreamedCall slowed = call;
  slowed.hostToDevice.secondsPerByte = 0.02;
  slowed.deviceToHost.secondsPerByte = 0.04;
  const Model model;
  EXPECT_DOUBLE_EQ(
      *model.predictSeconds(profile, workloadOf(call), {Variant::Hybrid, 4, IssueOrder{}}),
      eq5TwoEngines(slowed, 4));
}

TEST(Paper001, HybridPrefersTheExplicitMappedParameters) {
  const StreamedCall call = example();
  HardwareProfile profile = profileOf(call, 1, false);
  profile.hostToDevice.bidirectionalSecondsPerByte = 0.02;
  profile.hostToDevice.withMappedSecondsPerByte = 0.03;
  profile.deviceToHost.withMappedSecondsPerByte = 0.05;
  StreamedCall slowed = call;
  slowed.hostToDevice.secondsPerByte = 0.03;
  slowed.deviceToHost.secondsPerByte = 0.05;
  const Model model;
  EXPECT_DOUBLE_EQ(
      *model.predictSeconds(profile, workloadOf(call), {Variant::Hybrid, 4, IssueOrder{}}),
      eq5TwoEngines(slowed, 4));
}

} // namespace
} // namespace overlap::model::paper001
