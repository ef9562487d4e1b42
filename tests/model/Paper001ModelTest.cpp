// Paper 001: the LogGP transfer model with Table I's parameters, Fig. 7's equations, the stream
// bounds of §VI and the roofline bounds of §III, on inputs worked out by hand.
#include "model/paper001_model.h"

#include "model_test_profiles.h"

#include <gtest/gtest.h>

#include <cmath>

namespace overlap::model::paper001 {
namespace {

constexpr double kMiB = 1024.0 * 1024.0;

TEST(Paper001, TableOneTransferTimes) {
  const HardwareProfile titan = testing::table1_gtx_titan();
  // 16 MiB host to device in one piece: 0.009420 ms + 16777216 B · 8.318392e-8 ms/B.
  EXPECT_NEAR(transfer_seconds(titan.host_to_device, 16 * kMiB, 1), 1.405015e-3, 1e-9);
  // ... in 16 pieces over 16 streams: + 15 · 0.002503 ms.
  EXPECT_NEAR(transfer_seconds(titan.host_to_device, 16 * kMiB, 16), 1.442560e-3, 1e-9);
  // Device to host: 0.009023 ms + 16777216 · 7.924734e-8 ms, and + 15 · 0.002674 ms.
  EXPECT_NEAR(transfer_seconds(titan.device_to_host, 16 * kMiB, 1), 1.338573e-3, 1e-9);
  EXPECT_NEAR(transfer_seconds(titan.device_to_host, 16 * kMiB, 16), 1.378683e-3, 1e-9);
  // 1 GiB in 256 pieces: 0.009420 + 1073741824 · 8.318392e-8 + 255 · 0.002503 ms.
  EXPECT_NEAR(transfer_seconds(titan.host_to_device, 1024 * kMiB, 256), 89.965739e-3, 1e-8);
}

// Directions with different parameters, so that a mix-up of hd and dh shows:
//   hd: L+o = 1, G = 0.01, g = 0.5      dh: L+o = 2, G = 0.02, g = 0.25
//   Bhd = 1000, Bdh = 500, tE = 20, n = 4, so per term:
//   hd whole in pieces 1 + 10 + 1.5 = 12.5, hd chunk 1 + 2.5 = 3.5,
//   dh whole in pieces 2 + 10 + 0.75 = 12.75, dh chunk 2 + 2.5 = 4.5, tE/n = 5.
StreamedCall example() {
  StreamedCall call;
  call.host_to_device.latency_s = 1;
  call.host_to_device.seconds_per_byte = 0.01;
  call.host_to_device.gap_s = 0.5;
  call.device_to_host.latency_s = 2;
  call.device_to_host.seconds_per_byte = 0.02;
  call.device_to_host.gap_s = 0.25;
  call.h2d_bytes = 1000;
  call.d2h_bytes = 500;
  call.kernel_seconds = 20;
  return call;
}

TEST(Paper001, FigureSevenEquationsOnHandComputedInputs) {
  const StreamedCall call = example();
  EXPECT_DOUBLE_EQ(eq1_implicit_sync_dominant_kernel(call, 4), 3.5 + 20 + 12.75);
  EXPECT_DOUBLE_EQ(eq2_implicit_sync_dominant_transfers(call, 4), 12.5 + 5 + 12.75);
  EXPECT_DOUBLE_EQ(eq3_one_engine_dominant_kernel(call, 4), 3.5 + 20 + 4.5);
  // max(12.5 + 12.75, 12.5 + 5 + 4.5, 3.5 + 5 + 12.75)
  EXPECT_DOUBLE_EQ(eq4_one_engine_dominant_transfers(call, 4), 25.25);
  // max(12.5 + 5 + 4.5, 3.5 + 20 + 4.5, 3.5 + 5 + 12.75)
  EXPECT_DOUBLE_EQ(eq5_two_engines(call, 4), 28);
  // max(1 + 10 + 2, 1 + 20 + 2, 1 + 2 + 10)
  EXPECT_DOUBLE_EQ(eq6_mapped(call), 23);
}

TEST(Paper001, OneStreamIsTheNonStreamedTime) {
  const StreamedCall call = example();
  const double non_streamed = 1 + 10 + 20 + 2 + 10;
  EXPECT_DOUBLE_EQ(eq1_implicit_sync_dominant_kernel(call, 1), non_streamed);
  EXPECT_DOUBLE_EQ(eq2_implicit_sync_dominant_transfers(call, 1), non_streamed);
  EXPECT_DOUBLE_EQ(eq3_one_engine_dominant_kernel(call, 1), non_streamed);
  EXPECT_DOUBLE_EQ(eq4_one_engine_dominant_transfers(call, 1), non_streamed);
  EXPECT_DOUBLE_EQ(eq5_two_engines(call, 1), non_streamed);
}

TEST(Paper001, LimitCases) {
  // No transfers and no latencies: every streamed estimate is the kernel time (the largest
  // component; with n streams nothing is left to overlap).
  StreamedCall compute_only = example();
  compute_only.h2d_bytes = compute_only.d2h_bytes = 0;
  compute_only.host_to_device = compute_only.device_to_host = LinkDirection{};
  EXPECT_DOUBLE_EQ(eq3_one_engine_dominant_kernel(compute_only, 8), 20);
  EXPECT_DOUBLE_EQ(eq5_two_engines(compute_only, 8), 20);
  EXPECT_DOUBLE_EQ(eq6_mapped(compute_only), 20);
  // No kernel: with two engines the larger direction, sent in pieces, plus one chunk of the
  // other; mapped memory overlaps both directions completely.
  StreamedCall transfer_only = example();
  transfer_only.kernel_seconds = 0;
  EXPECT_DOUBLE_EQ(eq5_two_engines(transfer_only, 4), std::max(12.5 + 4.5, 3.5 + 12.75));
  EXPECT_DOUBLE_EQ(eq6_mapped(transfer_only), 1 + 10 + 2);
}

TEST(Paper001, SectionSixBoundsSolveTheirEquations) {
  const StreamedCall call = example();

  // Implicit synchronization, dominant kernel: sqrt(Bhd·Ghd / g) = sqrt(10 / 0.25).
  const double kernel_bound = max_streams_implicit_sync_dominant_kernel(call);
  EXPECT_DOUBLE_EQ(kernel_bound, std::sqrt(40.0));
  // ... the stationary point of eq. (1).
  const double h = 1e-4;
  EXPECT_NEAR(eq1_implicit_sync_dominant_kernel(call, kernel_bound + h) -
                  eq1_implicit_sync_dominant_kernel(call, kernel_bound - h),
              0, 1e-8);

  // Dominant transfers: sqrt(tE / (g_hd + g_dh)) = sqrt(20 / 0.75), the stationary point of (2).
  const double transfer_bound = max_streams_implicit_sync_dominant_transfers(call);
  EXPECT_DOUBLE_EQ(transfer_bound, std::sqrt(20 / 0.75));
  EXPECT_NEAR(eq2_implicit_sync_dominant_transfers(call, transfer_bound + h) -
                  eq2_implicit_sync_dominant_transfers(call, transfer_bound - h),
              0, 1e-8);

  // One copy engine, Bhd > Bdh: Bdh·Gdh + g·(n−1) = tE/n + Bdh/n·Gdh, i.e.
  // 10 + 0.25·(n − 1) = 30 / n, whose positive root is 2.8662.
  const double n_min = min_streams_one_engine(call);
  EXPECT_NEAR(n_min, (-9.75 + std::sqrt(9.75 * 9.75 + 4 * 0.25 * 30)) / (2 * 0.25), 1e-12);
  EXPECT_NEAR(10 + 0.25 * (n_min - 1), 30 / n_min, 1e-12);
  // Bdh > Bhd uses the host-to-device side: Bhd·Ghd + g·(n−1) = Bhd/n·Ghd + tE/n.
  StreamedCall reversed = call;
  reversed.h2d_bytes = 200; // Bhd·Ghd = 2
  const double n_min_reversed = min_streams_one_engine(reversed);
  EXPECT_NEAR(2 + 0.5 * (n_min_reversed - 1), (2 + 20) / n_min_reversed, 1e-12);

  // Two copy engines, Bhd > Bdh: sqrt((Bdh·Gdh + tE) / g_hd) = sqrt(30 / 0.5), where the first
  // term of eq. (5) is smallest.
  const double two_engine_bound = max_streams_two_engines(call);
  EXPECT_DOUBLE_EQ(two_engine_bound, std::sqrt(60.0));
  auto first_term = [&](double n) {
    return transfer_seconds(call.host_to_device, call.h2d_bytes, n) + call.kernel_seconds / n +
           call.device_to_host.latency_s +
           call.d2h_bytes / n * call.device_to_host.seconds_per_byte;
  };
  EXPECT_NEAR(first_term(two_engine_bound + h) - first_term(two_engine_bound - h), 0, 1e-8);
  // Bdh > Bhd: sqrt((Bhd·Ghd + tE) / g_dh).
  EXPECT_DOUBLE_EQ(max_streams_two_engines(reversed), std::sqrt((2 + 20) / 0.25));
}

TEST(Paper001, RooflineBounds) {
  Roofline roofline;
  roofline.peak_flops = 1000;
  roofline.memory_bandwidth = 200;
  roofline.operational_intensity = 2;
  roofline.pcie_bandwidth = 10;
  roofline.data_intensity = 8;
  EXPECT_DOUBLE_EQ(roofline_bound(roofline), 400);     // min(1000, 200 · 2)
  EXPECT_DOUBLE_EQ(full_overlap_bound(roofline), 80);  // min(1000, 400, 10 · 8)
  EXPECT_DOUBLE_EQ(mapped_memory_bound(roofline), 20); // min(1000, 10 · 2)
  // 800 flops, 100 bytes: 800 / (100 / 10 + 800 / 400)
  EXPECT_DOUBLE_EQ(zero_overlap_bound(roofline, 800, 100), 800.0 / 12);
  // Overlap can only help: zero overlap never beats full overlap.
  EXPECT_LE(zero_overlap_bound(roofline, 800, 100), full_overlap_bound(roofline));
}

Workload workload_of(const StreamedCall& call) {
  Workload workload;
  workload.h2d_bytes = call.h2d_bytes;
  workload.d2h_bytes = call.d2h_bytes;
  workload.kernel_seconds = call.kernel_seconds;
  return workload;
}

HardwareProfile profile_of(const StreamedCall& call, int copy_engines, bool implicit_sync) {
  HardwareProfile profile;
  profile.host_to_device = call.host_to_device;
  profile.device_to_host = call.device_to_host;
  profile.copy_engines = copy_engines;
  profile.implicit_synchronization = implicit_sync;
  return profile;
}

TEST(Paper001, ModelPicksTheCategoryAndTheLargerScenario) {
  const StreamedCall call = example();
  const Workload workload = workload_of(call);
  const Model model;
  const Candidate streams{Variant::Streams, 4, IssueOrder::DepthFirst};
  EXPECT_DOUBLE_EQ(*model.predict_seconds(profile_of(call, 1, true), workload, streams),
                   std::max(36.25, 30.25));
  EXPECT_DOUBLE_EQ(*model.predict_seconds(profile_of(call, 1, false), workload, streams),
                   std::max(28.0, 25.25));
  EXPECT_DOUBLE_EQ(*model.predict_seconds(profile_of(call, 2, false), workload, streams), 28);
  EXPECT_DOUBLE_EQ(
      *model.predict_seconds(profile_of(call, 2, false), workload, {Variant::Explicit, 1, {}}),
      1 + 10 + 20 + 2 + 10);
}

TEST(Paper001, MappedUsesTheReadFactorAndMappedBandwidth) {
  const StreamedCall call = example();
  Workload workload = workload_of(call);
  HardwareProfile profile = profile_of(call, 2, false);
  const Model model;
  const Candidate mapped{Variant::Mapped, 1, IssueOrder::DepthFirst};
  EXPECT_DOUBLE_EQ(*model.predict_seconds(profile, workload, mapped), 23);
  // Inputs read three times over a link of 0.02 s/B: max(1 + 60 + 2, 23, 13).
  workload.mapped_read_factor = 3;
  profile.mapped_read_seconds_per_byte = 0.02;
  EXPECT_DOUBLE_EQ(*model.predict_seconds(profile, workload, mapped), 63);
}

TEST(Paper001, HybridIsEquationFiveWithTheBidirectionalParameters) {
  const StreamedCall call = example();
  HardwareProfile profile = profile_of(call, 1, true);
  profile.host_to_device.bidirectional_seconds_per_byte = 0.02;
  profile.device_to_host.bidirectional_seconds_per_byte = 0.04;
  StreamedCall slowed = call;
  slowed.host_to_device.seconds_per_byte = 0.02;
  slowed.device_to_host.seconds_per_byte = 0.04;
  const Model model;
  EXPECT_DOUBLE_EQ(
      *model.predict_seconds(profile, workload_of(call), {Variant::Hybrid, 4, IssueOrder{}}),
      eq5_two_engines(slowed, 4));
}

TEST(Paper001, HybridPrefersTheExplicitMappedParameters) {
  const StreamedCall call = example();
  HardwareProfile profile = profile_of(call, 1, false);
  profile.host_to_device.bidirectional_seconds_per_byte = 0.02;
  profile.host_to_device.with_mapped_seconds_per_byte = 0.03;
  profile.device_to_host.with_mapped_seconds_per_byte = 0.05;
  StreamedCall slowed = call;
  slowed.host_to_device.seconds_per_byte = 0.03;
  slowed.device_to_host.seconds_per_byte = 0.05;
  const Model model;
  EXPECT_DOUBLE_EQ(
      *model.predict_seconds(profile, workload_of(call), {Variant::Hybrid, 4, IssueOrder{}}),
      eq5_two_engines(slowed, 4));
}

} // namespace
} // namespace overlap::model::paper001
