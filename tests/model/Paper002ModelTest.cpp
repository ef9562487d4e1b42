// Paper 002 ch. 4: the bidirectional factor, the data-bound and compute-bound partition models
// and their optimal subtask counts, on inputs worked out by hand.
#include "model/paper002_model.h"

#include "model_test_profiles.h"

#include <gtest/gtest.h>

#include <cmath>

namespace overlap::model::paper002 {
namespace {

Overheads example_overheads() {
  Overheads overheads;
  overheads.sync_s = 0.1;
  overheads.kernel_launch_s = 0.2;
  overheads.bidirectional_s = 0.3;
  overheads.send_s = 0.05;
  overheads.receive_s = 0.06;
  return overheads;
}

TEST(Paper002, BidirectionalTransferTime) {
  // (4.4) with the thesis' f = 1.67: 3 · 1.67 + |3 − 5|.
  EXPECT_DOUBLE_EQ(eq4_4_bidirectional_seconds(3, 5, 1.67), 3 * 1.67 + 2);
  EXPECT_DOUBLE_EQ(eq4_4_bidirectional_seconds(5, 3, 1.67), 3 * 1.67 + 2);
  // f = 1: full duplex for free, the longer direction alone.
  EXPECT_DOUBLE_EQ(eq4_4_bidirectional_seconds(3, 5, 1), 5);
}

TEST(Paper002, DataBoundModel) {
  // Ts = 8, Tr = 4, f = 1.5, n = 4: t_s = 2, t_r = 1, t_p = 1 · 1.5 + 1 = 2.5;
  // T = 2 + 3 · 2.5 + 1 + 6 · 0.1 + 4 · 0.2 + 2 · 0.3 + 2 · (0.05 + 0.06).
  EXPECT_NEAR(eq4_9_data_bound_seconds(8, 4, 1.5, 4, example_overheads()), 12.72, 1e-12);
}

TEST(Paper002, DataBoundOptimumIsTheMinimumOfEquationFourNine) {
  const Overheads overheads = example_overheads();
  // (4.11): sqrt((12 − 1.5 · 4 − 4) / (0.1 + 0.3 + 0.2)).
  const double n = eq4_11_data_bound_optimal_subtasks(8, 4, 1.5, overheads);
  EXPECT_DOUBLE_EQ(n, std::sqrt(2 / 0.6));
  const double h = 1e-4;
  EXPECT_NEAR(eq4_9_data_bound_seconds(8, 4, 1.5, n + h, overheads) -
                  eq4_9_data_bound_seconds(8, 4, 1.5, n - h, overheads),
              0, 1e-8);
  // Larger transfers move the optimum up: Ts = 800, Tr = 400.
  const double large = eq4_11_data_bound_optimal_subtasks(800, 400, 1.5, overheads);
  EXPECT_DOUBLE_EQ(large, std::sqrt(200 / 0.6));
  EXPECT_LT(eq4_9_data_bound_seconds(800, 400, 1.5, std::round(large), overheads),
            eq4_9_data_bound_seconds(800, 400, 1.5, std::round(large) / 2, overheads));
}

TEST(Paper002, GrowingScheduleSumsToTheKernelTime) {
  // (4.12): subtasks 1, 2, ..., n/2, n/2, ..., 1 times t add up to Tk.
  for (int n : {2, 4, 8, 16, 42}) {
    const double t = eq4_13_first_subtask_kernel_seconds(10, n);
    double total = 0;
    for (int k = 1; k <= n / 2; ++k)
      total += 2 * k * t;
    EXPECT_NEAR(total, 10, 1e-12) << "n = " << n;
  }
  EXPECT_DOUBLE_EQ(eq4_13_first_subtask_kernel_seconds(10, 4), 40.0 / 24);
}

TEST(Paper002, ComputeBoundModel) {
  // (4.14): 0.5 + 10 + 0.25 + 6 · 0.1 + 4 · (0.2 + 0.3) + 0.1.
  EXPECT_NEAR(eq4_14_compute_bound_seconds(0.5, 10, 0.25, 4, example_overheads(), 0.1), 13.45,
              1e-12);
  // (4.15) as published: sqrt(8 · (8 + 4) / 0.6).
  EXPECT_DOUBLE_EQ(eq4_15_compute_bound_optimal_subtasks(8, 4, example_overheads()),
                   std::sqrt(160.0));
}

TEST(Paper002, ClassificationFollowsTheBidirectionalTransferTime) {
  EXPECT_TRUE(is_data_bound(3, 5, 6, 1.67));  // 7.01 > 6
  EXPECT_FALSE(is_data_bound(3, 5, 8, 1.67)); // 7.01 < 8
}

TEST(Paper002, ProfileGivesFactorAndOverheads) {
  HardwareProfile profile = testing::h100_like();
  // 55 GB/s alone, 46.5 GB/s each way together: f = 55 / 46.5.
  EXPECT_NEAR(bidirectional_factor(profile), 55 / 46.5, 1e-12);
  profile.host_to_device.bidirectional_seconds_per_byte = 0;
  EXPECT_DOUBLE_EQ(bidirectional_factor(profile), 1);
  const Overheads overheads = overheads_of(testing::h100_like());
  EXPECT_DOUBLE_EQ(overheads.kernel_launch_s, 3e-6);
  EXPECT_DOUBLE_EQ(overheads.send_s, 10e-6);
  EXPECT_DOUBLE_EQ(overheads.bidirectional_s, 20e-6);
}

TEST(Paper002, ModelAppliesTheClassification) {
  const HardwareProfile profile = testing::h100_like();
  const Model model;
  Workload workload;
  workload.h2d_bytes = 55e6; // 1 ms one way
  workload.d2h_bytes = 55e6; // 1 ms
  const double f = bidirectional_factor(profile);
  const Overheads overheads = overheads_of(profile);
  const Candidate streams{Variant::Streams, 8, IssueOrder::DepthFirst};

  workload.kernel_seconds = 0.5e-3; // data bound: 1.18 ms both ways > 0.5 ms
  EXPECT_NEAR(*model.predict_seconds(profile, workload, streams),
              eq4_9_data_bound_seconds(1e-3, 1e-3, f, 8, overheads), 1e-15);
  workload.kernel_seconds = 5e-3; // compute bound, equal chunks
  EXPECT_NEAR(*model.predict_seconds(profile, workload, streams),
              eq4_14_compute_bound_seconds(1e-3 / 8, 5e-3, 1e-3 / 8, 8, overheads, 0), 1e-15);
  EXPECT_FALSE(model.predict_seconds(profile, workload, {Variant::Mapped, 1, {}}));
}

TEST(Paper002, LargePiecesTakeTheirOwnFactor) {
  // Against a busy link the H100's host-to-device pieces from 96 MiB up ran at 44 GB/s, smaller
  // ones at 50: f is 55/44 from that size up, 55/50 below, and 55/50 without a piece size.
  using testing::kMiB;
  const HardwareProfile profile = testing::h100_busy_link_by_piece_size();
  EXPECT_NEAR(bidirectional_factor(profile), 55 / 50.0, 1e-12);
  EXPECT_NEAR(bidirectional_factor(profile, 96 * kMiB), 55 / 44.0, 1e-12);
  EXPECT_NEAR(bidirectional_factor(profile, 96 * kMiB - 1), 55 / 50.0, 1e-12);
  EXPECT_NEAR(bidirectional_factor(testing::without_large_piece_g(profile), 1024 * kMiB), 55 / 50.0,
              1e-12);

  // A piece is the chunk's share of the chunked input cut into its sections; broadcast inputs
  // are not pieces of a chunk.
  Workload workload;
  workload.h2d_bytes = 1024 * kMiB;
  workload.broadcast_bytes = 512 * kMiB;
  workload.h2d_copies_per_chunk = 2;
  EXPECT_DOUBLE_EQ(input_piece_bytes(workload, 4), 128 * kMiB);
}

TEST(Paper002, StreamsTakeTheFactorOfTheirChunksPieces) {
  using testing::kMiB;
  const HardwareProfile by_size = testing::h100_busy_link_by_piece_size();
  const HardwareProfile one_g = testing::without_large_piece_g(by_size);
  const Model model;
  Workload workload;
  workload.h2d_bytes = 1024 * kMiB;
  workload.d2h_bytes = 1024 * kMiB;
  workload.kernel_seconds = 1e-3; // data bound at either factor
  const double send = workload.h2d_bytes / 55e9;
  const Overheads overheads = overheads_of(by_size);
  // 4 chunks: pieces of 256 MiB, f = 55/44.
  const Candidate four{Variant::Streams, 4, IssueOrder::DepthFirst};
  EXPECT_NEAR(*model.predict_seconds(by_size, workload, four),
              eq4_9_data_bound_seconds(send, send, 55 / 44.0, 4, overheads), 1e-15);
  EXPECT_GT(*model.predict_seconds(by_size, workload, four),
            *model.predict_seconds(one_g, workload, four));
  // 16 chunks: pieces of 64 MiB, the small pieces' f, as with one G.
  const Candidate sixteen{Variant::Streams, 16, IssueOrder::DepthFirst};
  EXPECT_EQ(*model.predict_seconds(by_size, workload, sixteen),
            *model.predict_seconds(one_g, workload, sixteen));
  EXPECT_NEAR(*model.predict_seconds(by_size, workload, sixteen),
              eq4_9_data_bound_seconds(send, send, 55 / 50.0, 16, overheads), 1e-15);
}

} // namespace
} // namespace overlap::model::paper002
