// Paper 000 §3.2, eqs. (1)-(8), on inputs worked out by hand.
#include "model/Paper000Model.h"

#include "ModelTestProfiles.h"

#include <gtest/gtest.h>

#include <cmath>

namespace overlap::model::paper000 {
namespace {

// t_Thd = 3, t_Tdh = 2 (t_T = 5), t_E = 4, t_sc = 0.1: transfers dominate slightly.
Call example() {
  Call call;
  call.h2dSeconds = 3;
  call.d2hSeconds = 2;
  call.kernelSeconds = 4;
  call.streamCreationSeconds = 0.1;
  return call;
}

TEST(Paper000, StreamOverheadGrowsLinearlyWithStreams) {
  EXPECT_DOUBLE_EQ(streamOverheadSeconds(example(), 4), 0.4);
  EXPECT_DOUBLE_EQ(streamOverheadSeconds(example(), 16), 1.6);
}

TEST(Paper000, EquationsOnHandComputedInputs) {
  const Call call = example();
  EXPECT_DOUBLE_EQ(eq1DominantTransfers(call, 4), 5 + 0.4);
  EXPECT_DOUBLE_EQ(eq2OptimalStreamsDominantTransfers(call), 5.0 / (5 - 4));
  EXPECT_DOUBLE_EQ(eq3DominantKernel(call, 4), 4 + 5.0 / 4 + 0.4);
  EXPECT_DOUBLE_EQ(eq4OptimalStreamsDominantKernel(call), std::sqrt(5 / 0.1));
  EXPECT_DOUBLE_EQ(eq5ImplicitSyncDominantTransfers(call, 4), 3 + 4.0 / 4 + 2 + 0.4);
  EXPECT_DOUBLE_EQ(eq6OptimalStreamsImplicitSyncDominantTransfers(call), std::sqrt(4 / 0.1));
  EXPECT_DOUBLE_EQ(eq7ImplicitSyncDominantKernel(call, 4), 3.0 / 4 + 4 + 2 + 0.4);
  EXPECT_DOUBLE_EQ(eq8OptimalStreamsImplicitSyncDominantKernel(call), std::sqrt(3 / 0.1));
}

TEST(Paper000, ConditionsPickTheEquation) {
  const Call call = example();
  // n = 4: t_T = 5 < t_E + t_T/n = 5.25, the kernel dominates: eq. (3).
  EXPECT_DOUBLE_EQ(streamedSeconds(call, 4, false), eq3DominantKernel(call, 4));
  // n = 8: 5 > 4.625, transfers dominate: eq. (1).
  EXPECT_DOUBLE_EQ(streamedSeconds(call, 8, false), eq1DominantTransfers(call, 8));
  // Implicit synchronization: t_Thd = 3 < t_E = 4: eq. (7); with t_E = 2: eq. (5).
  EXPECT_DOUBLE_EQ(streamedSeconds(call, 4, true), eq7ImplicitSyncDominantKernel(call, 4));
  Call transferBound = call;
  transferBound.kernelSeconds = 2;
  EXPECT_DOUBLE_EQ(streamedSeconds(transferBound, 4, true),
                   eq5ImplicitSyncDominantTransfers(transferBound, 4));
}

// The optimum the formulas give is where the piecewise model is smallest.
double bestIntegerStreams(const Call& call, bool implicitSynchronization) {
  int best = 1;
  for (int n = 2; n <= 256; ++n)
    if (streamedSeconds(call, n, implicitSynchronization) <
        streamedSeconds(call, best, implicitSynchronization))
      best = n;
  return best;
}

TEST(Paper000, OptimalStreamsIsTheMinimumOfTheModel) {
  // Dominant transfers: the crossing point of eq. (2), 5 streams, comes before eq. (4)'s 7.07.
  EXPECT_DOUBLE_EQ(optimalStreams(example(), false), 5);
  EXPECT_EQ(bestIntegerStreams(example(), false), 5);

  // Dominant kernel: t_T = 5 < t_E = 20, eq. (4): sqrt(5 / 0.01) = 22.4.
  Call kernelBound = example();
  kernelBound.kernelSeconds = 20;
  kernelBound.streamCreationSeconds = 0.01;
  EXPECT_DOUBLE_EQ(optimalStreams(kernelBound, false), std::sqrt(500.0));
  EXPECT_NEAR(bestIntegerStreams(kernelBound, false), std::sqrt(500.0), 1);

  // Implicit synchronization, dominant kernel: eq. (8) sqrt(3 / 0.1) = 5.48.
  EXPECT_DOUBLE_EQ(optimalStreams(example(), true), std::sqrt(30.0));
  EXPECT_NEAR(bestIntegerStreams(example(), true), std::sqrt(30.0), 1);
  // Implicit synchronization, dominant transfers (t_E = 2): eq. (6) sqrt(2 / 0.1) = 4.47.
  Call transferBound = example();
  transferBound.kernelSeconds = 2;
  EXPECT_DOUBLE_EQ(optimalStreams(transferBound, true), std::sqrt(20.0));
  EXPECT_NEAR(bestIntegerStreams(transferBound, true), std::sqrt(20.0), 1);
}

TEST(Paper000, OneStreamIsTheNonStreamedTimePlusOneStreamOverhead) {
  const Call call = example();
  const double nonStreamed = call.kernelSeconds + call.transferSeconds();
  EXPECT_DOUBLE_EQ(streamedSeconds(call, 1, false), nonStreamed + 0.1);
  EXPECT_DOUBLE_EQ(streamedSeconds(call, 1, true), nonStreamed + 0.1);
}

TEST(Paper000, LimitCases) {
  // t_E -> 0: streams cannot hide anything on one DMA engine; the time is the transfers plus
  // the overhead and the best stream count is 1.
  Call noKernel = example();
  noKernel.kernelSeconds = 0;
  EXPECT_DOUBLE_EQ(streamedSeconds(noKernel, 8, false), 5 + 0.8);
  EXPECT_DOUBLE_EQ(optimalStreams(noKernel, false), 1);
  // Transfers -> 0: the kernel plus the overhead, whatever the category.
  Call noTransfers = example();
  noTransfers.h2dSeconds = 0;
  noTransfers.d2hSeconds = 0;
  EXPECT_DOUBLE_EQ(streamedSeconds(noTransfers, 8, false), 4 + 0.8);
  EXPECT_DOUBLE_EQ(streamedSeconds(noTransfers, 8, true), 4 + 0.8);
}

TEST(Paper000, ModelUsesTheProfilesSingleTransferTimes) {
  const HardwareProfile profile = testing::table1GtxTitan();
  Workload workload;
  workload.transfers.h2dBytes = 16 << 20;
  workload.transfers.d2hBytes = 8 << 20;
  workload.launch.kernelSeconds = 1e-3;
  const Call call = callOf(profile, workload);
  // L+o + k·G of each direction, once.
  EXPECT_NEAR(call.h2dSeconds, 9.42e-6 + 16777216 * 8.318392e-11, 1e-12);
  EXPECT_NEAR(call.d2hSeconds, 9.023e-6 + 8388608 * 7.924734e-11, 1e-12);

  const Model model;
  EXPECT_DOUBLE_EQ(*model.predictSeconds(profile, workload, {Variant::Explicit, 1, {}}),
                   call.kernelSeconds + call.transferSeconds());
  EXPECT_DOUBLE_EQ(*model.predictSeconds(profile, workload, {Variant::Streams, 4, {}}),
                   streamedSeconds(call, 4, false));
  EXPECT_FALSE(model.predictSeconds(profile, workload, {Variant::Mapped, 1, {}}));
  EXPECT_FALSE(model.predictSeconds(profile, workload, {Variant::Hybrid, 4, {}}));
}

} // namespace
} // namespace overlap::model::paper000
