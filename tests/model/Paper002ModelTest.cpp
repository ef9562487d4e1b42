// Paper 002 ch. 4: the bidirectional factor, the data-bound and compute-bound partition models
// and their optimal subtask counts, on inputs worked out by hand.
#include "model/Paper002Model.h"

#include "ModelTestProfiles.h"

#include <gtest/gtest.h>

#include <cmath>

namespace overlap::model::paper002 {
namespace {

Overheads exampleOverheads() {
  Overheads overheads;
  overheads.syncS = 0.1;
  overheads.kernelLaunchS = 0.2;
  overheads.bidirectionalS = 0.3;
  overheads.sendS = 0.05;
  overheads.receiveS = 0.06;
  return overheads;
}

TEST(Paper002, BidirectionalTransferTime) {
  // (4.4) with the thesis' f = 1.67: 3 · 1.67 + |3 − 5|.
  EXPECT_DOUBLE_EQ(eq44BidirectionalSeconds(3, 5, 1.67), 3 * 1.67 + 2);
  EXPECT_DOUBLE_EQ(eq44BidirectionalSeconds(5, 3, 1.67), 3 * 1.67 + 2);
  // f = 1: full duplex for free, the longer direction alone.
  EXPECT_DOUBLE_EQ(eq44BidirectionalSeconds(3, 5, 1), 5);
}

TEST(Paper002, DataBoundModel) {
  // Ts = 8, Tr = 4, f = 1.5, n = 4: t_s = 2, t_r = 1, t_p = 1 · 1.5 + 1 = 2.5;
  // T = 2 + 3 · 2.5 + 1 + 6 · 0.1 + 4 · 0.2 + 2 · 0.3 + 2 · (0.05 + 0.06).
  EXPECT_NEAR(eq49DataBoundSeconds(8, 4, 1.5, 4, exampleOverheads()), 12.72, 1e-12);
}

TEST(Paper002, DataBoundOptimumIsTheMinimumOfEquationFourNine) {
  const Overheads overheads = exampleOverheads();
  // (4.11): sqrt((12 − 1.5 · 4 − 4) / (0.1 + 0.3 + 0.2)).
  const double n = eq411DataBoundOptimalSubtasks(8, 4, 1.5, overheads);
  EXPECT_DOUBLE_EQ(n, std::sqrt(2 / 0.6));
  const double h = 1e-4;
  EXPECT_NEAR(eq49DataBoundSeconds(8, 4, 1.5, n + h, overheads) -
                  eq49DataBoundSeconds(8, 4, 1.5, n - h, overheads),
              0, 1e-8);
  // Larger transfers move the optimum up: Ts = 800, Tr = 400.
  const double large = eq411DataBoundOptimalSubtasks(800, 400, 1.5, overheads);
  EXPECT_DOUBLE_EQ(large, std::sqrt(200 / 0.6));
  EXPECT_LT(eq49DataBoundSeconds(800, 400, 1.5, std::round(large), overheads),
            eq49DataBoundSeconds(800, 400, 1.5, std::round(large) / 2, overheads));
}

TEST(Paper002, GrowingScheduleSumsToTheKernelTime) {
  // (4.12): subtasks 1, 2, ..., n/2, n/2, ..., 1 times t add up to Tk.
  for (int n : {2, 4, 8, 16, 42}) {
    const double t = eq413FirstSubtaskKernelSeconds(10, n);
    double total = 0;
    for (int k = 1; k <= n / 2; ++k)
      total += 2 * k * t;
    EXPECT_NEAR(total, 10, 1e-12) << "n = " << n;
  }
  EXPECT_DOUBLE_EQ(eq413FirstSubtaskKernelSeconds(10, 4), 40.0 / 24);
}

TEST(Paper002, ComputeBoundModel) {
  // (4.14): 0.5 + 10 + 0.25 + 6 · 0.1 + 4 · (0.2 + 0.3) + 0.1.
  EXPECT_NEAR(eq414ComputeBoundSeconds(0.5, 10, 0.25, 4, exampleOverheads(), 0.1), 13.45, 1e-12);
  // (4.15) as published: sqrt(8 · (8 + 4) / 0.6).
  EXPECT_DOUBLE_EQ(eq415ComputeBoundOptimalSubtasks(8, 4, exampleOverheads()), std::sqrt(160.0));
}

TEST(Paper002, ClassificationFollowsTheBidirectionalTransferTime) {
  EXPECT_TRUE(isDataBound(3, 5, 6, 1.67));  // 7.01 > 6
  EXPECT_FALSE(isDataBound(3, 5, 8, 1.67)); // 7.01 < 8
}

TEST(Paper002, ProfileGivesFactorAndOverheads) {
  HardwareProfile profile = testing::h100Like();
  // 55 GB/s alone, 46.5 GB/s each way together: f = 55 / 46.5.
  EXPECT_NEAR(bidirectionalFactor(profile), 55 / 46.5, 1e-12);
  profile.hostToDevice.bidirectionalSecondsPerByte = 0;
  EXPECT_DOUBLE_EQ(bidirectionalFactor(profile), 1);
  const Overheads overheads = overheadsOf(testing::h100Like());
  EXPECT_DOUBLE_EQ(overheads.kernelLaunchS, 3e-6);
  EXPECT_DOUBLE_EQ(overheads.sendS, 10e-6);
  EXPECT_DOUBLE_EQ(overheads.bidirectionalS, 20e-6);
}

TEST(Paper002, ModelAppliesTheClassification) {
  const HardwareProfile profile = testing::h100Like();
  const Model model;
  Workload workload;
  workload.transfers.h2dBytes = 55e6; // 1 ms one way
  workload.transfers.d2hBytes = 55e6; // 1 ms
  const double f = bidirectionalFactor(profile);
  const Overheads overheads = overheadsOf(profile);
  const Candidate streams{Variant::Streams, 8, IssueOrder::DepthFirst};

  workload.launch.kernelSeconds = 0.5e-3; // data bound: 1.18 ms both ways > 0.5 ms
  EXPECT_NEAR(*model.predictSeconds(profile, workload, streams),
              eq49DataBoundSeconds(1e-3, 1e-3, f, 8, overheads), 1e-15);
  workload.launch.kernelSeconds = 5e-3; // compute bound, equal chunks
  EXPECT_NEAR(*model.predictSeconds(profile, workload, streams),
              eq414ComputeBoundSeconds(1e-3 / 8, 5e-3, 1e-3 / 8, 8, overheads, 0), 1e-15);
  EXPECT_FALSE(model.predictSeconds(profile, workload, {Variant::Mapped, 1, {}}));
}

TEST(Paper002, LargePiecesTakeTheirOwnFactor) {
  // Against a busy link the H100's host-to-device pieces from 96 MiB up ran at 44 GB/s, smaller
  // ones at 50: f is 55/44 from that size up, 55/50 below, and 55/50 without a piece size.
  using testing::kMiB;
  const HardwareProfile profile = testing::h100BusyLinkByPieceSize();
  EXPECT_NEAR(bidirectionalFactor(profile), 55 / 50.0, 1e-12);
  EXPECT_NEAR(bidirectionalFactor(profile, 96 * kMiB), 55 / 44.0, 1e-12);
  EXPECT_NEAR(bidirectionalFactor(profile, 96 * kMiB - 1), 55 / 50.0, 1e-12);
  EXPECT_NEAR(bidirectionalFactor(testing::withoutLargePieceG(profile), 1024 * kMiB), 55 / 50.0,
              1e-12);

  // A piece is the chunk's share of the chunked input cut into its sections; broadcast inputs
  // are not pieces of a chunk.
  Workload workload;
  workload.transfers.h2dBytes = 1024 * kMiB;
  workload.transfers.broadcastBytes = 512 * kMiB;
  workload.transfers.h2dCopiesPerChunk = 2;
  EXPECT_DOUBLE_EQ(inputPieceBytes(workload, 4), 128 * kMiB);
}

TEST(Paper002, StreamsTakeTheFactorOfTheirChunksPieces) {
  using testing::kMiB;
  const HardwareProfile bySize = testing::h100BusyLinkByPieceSize();
  const HardwareProfile oneG = testing::withoutLargePieceG(bySize);
  const Model model;
  Workload workload;
  workload.transfers.h2dBytes = 1024 * kMiB;
  workload.transfers.d2hBytes = 1024 * kMiB;
  workload.launch.kernelSeconds = 1e-3; // data bound at either factor
  const double send = workload.transfers.h2dBytes / 55e9;
  const Overheads overheads = overheadsOf(bySize);
  // 4 chunks: pieces of 256 MiB, f = 55/44.
  const Candidate four{Variant::Streams, 4, IssueOrder::DepthFirst};
  EXPECT_NEAR(*model.predictSeconds(bySize, workload, four),
              eq49DataBoundSeconds(send, send, 55 / 44.0, 4, overheads), 1e-15);
  EXPECT_GT(*model.predictSeconds(bySize, workload, four),
            *model.predictSeconds(oneG, workload, four));
  // 16 chunks: pieces of 64 MiB, the small pieces' f, as with one G.
  const Candidate sixteen{Variant::Streams, 16, IssueOrder::DepthFirst};
  EXPECT_EQ(*model.predictSeconds(bySize, workload, sixteen),
            *model.predictSeconds(oneG, workload, sixteen));
  EXPECT_NEAR(*model.predictSeconds(bySize, workload, sixteen),
              eq49DataBoundSeconds(send, send, 55 / 50.0, 16, overheads), 1e-15);
}

} // namespace
} // namespace overlap::model::paper002
