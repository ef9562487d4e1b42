// Paper 000 §3.2, eqs. (1)-(8), on inputs worked out by hand.
#include "model/paper000_model.h"

#include "model_test_profiles.h"

#include <gtest/gtest.h>

#include <cmath>

namespace overlap::model::paper000 {
namespace {

// t_Thd = 3, t_Tdh = 2 (t_T = 5), t_E = 4, t_sc = 0.1: transfers dominate slightly.
Call example() {
  Call call;
  call.h2d_seconds = 3;
  call.d2h_seconds = 2;
  call.kernel_seconds = 4;
  call.stream_creation_seconds = 0.1;
  return call;
}

TEST(Paper000, StreamOverheadGrowsLinearlyWithStreams) {
  EXPECT_DOUBLE_EQ(stream_overhead_seconds(example(), 4), 0.4);
  EXPECT_DOUBLE_EQ(stream_overhead_seconds(example(), 16), 1.6);
}

TEST(Paper000, EquationsOnHandComputedInputs) {
  const Call call = example();
  EXPECT_DOUBLE_EQ(eq1_dominant_transfers(call, 4), 5 + 0.4);
  EXPECT_DOUBLE_EQ(eq2_optimal_streams_dominant_transfers(call), 5.0 / (5 - 4));
  EXPECT_DOUBLE_EQ(eq3_dominant_kernel(call, 4), 4 + 5.0 / 4 + 0.4);
  EXPECT_DOUBLE_EQ(eq4_optimal_streams_dominant_kernel(call), std::sqrt(5 / 0.1));
  EXPECT_DOUBLE_EQ(eq5_implicit_sync_dominant_transfers(call, 4), 3 + 4.0 / 4 + 2 + 0.4);
  EXPECT_DOUBLE_EQ(eq6_optimal_streams_implicit_sync_dominant_transfers(call), std::sqrt(4 / 0.1));
  EXPECT_DOUBLE_EQ(eq7_implicit_sync_dominant_kernel(call, 4), 3.0 / 4 + 4 + 2 + 0.4);
  EXPECT_DOUBLE_EQ(eq8_optimal_streams_implicit_sync_dominant_kernel(call), std::sqrt(3 / 0.1));
}

TEST(Paper000, ConditionsPickTheEquation) {
  const Call call = example();
  // n = 4: t_T = 5 < t_E + t_T/n = 5.25, the kernel dominates: eq. (3).
  EXPECT_DOUBLE_EQ(streamed_seconds(call, 4, false), eq3_dominant_kernel(call, 4));
  // n = 8: 5 > 4.625, transfers dominate: eq. (1).
  EXPECT_DOUBLE_EQ(streamed_seconds(call, 8, false), eq1_dominant_transfers(call, 8));
  // Implicit synchronization: t_Thd = 3 < t_E = 4: eq. (7); with t_E = 2: eq. (5).
  EXPECT_DOUBLE_EQ(streamed_seconds(call, 4, true), eq7_implicit_sync_dominant_kernel(call, 4));
  Call transfer_bound = call;
  transfer_bound.kernel_seconds = 2;
  EXPECT_DOUBLE_EQ(streamed_seconds(transfer_bound, 4, true),
                   eq5_implicit_sync_dominant_transfers(transfer_bound, 4));
}

// The optimum the formulas give is where the piecewise model is smallest.
double best_integer_streams(const Call& call, bool implicit_synchronization) {
  int best = 1;
  for (int n = 2; n <= 256; ++n)
    if (streamed_seconds(call, n, implicit_synchronization) <
        streamed_seconds(call, best, implicit_synchronization))
      best = n;
  return best;
}

TEST(Paper000, OptimalStreamsIsTheMinimumOfTheModel) {
  // Dominant transfers: the crossing point of eq. (2), 5 streams, comes before eq. (4)'s 7.07.
  EXPECT_DOUBLE_EQ(optimal_streams(example(), false), 5);
  EXPECT_EQ(best_integer_streams(example(), false), 5);

  // Dominant kernel: t_T = 5 < t_E = 20, eq. (4): sqrt(5 / 0.01) = 22.4.
  Call kernel_bound = example();
  kernel_bound.kernel_seconds = 20;
  kernel_bound.stream_creation_seconds = 0.01;
  EXPECT_DOUBLE_EQ(optimal_streams(kernel_bound, false), std::sqrt(500.0));
  EXPECT_NEAR(best_integer_streams(kernel_bound, false), std::sqrt(500.0), 1);

  // Implicit synchronization, dominant kernel: eq. (8) sqrt(3 / 0.1) = 5.48.
  EXPECT_DOUBLE_EQ(optimal_streams(example(), true), std::sqrt(30.0));
  EXPECT_NEAR(best_integer_streams(example(), true), std::sqrt(30.0), 1);
  // Implicit synchronization, dominant transfers (t_E = 2): eq. (6) sqrt(2 / 0.1) = 4.47.
  Call transfer_bound = example();
  transfer_bound.kernel_seconds = 2;
  EXPECT_DOUBLE_EQ(optimal_streams(transfer_bound, true), std::sqrt(20.0));
  EXPECT_NEAR(best_integer_streams(transfer_bound, true), std::sqrt(20.0), 1);
}

TEST(Paper000, OneStreamIsTheNonStreamedTimePlusOneStreamOverhead) {
  const Call call = example();
  const double non_streamed = call.kernel_seconds + call.transfer_seconds();
  EXPECT_DOUBLE_EQ(streamed_seconds(call, 1, false), non_streamed + 0.1);
  EXPECT_DOUBLE_EQ(streamed_seconds(call, 1, true), non_streamed + 0.1);
}

TEST(Paper000, LimitCases) {
  // t_E -> 0: streams cannot hide anything on one DMA engine; the time is the transfers plus
  // the overhead and the best stream count is 1.
  Call no_kernel = example();
  no_kernel.kernel_seconds = 0;
  EXPECT_DOUBLE_EQ(streamed_seconds(no_kernel, 8, false), 5 + 0.8);
  EXPECT_DOUBLE_EQ(optimal_streams(no_kernel, false), 1);
  // Transfers -> 0: the kernel plus the overhead, whatever the category.
  Call no_transfers = example();
  no_transfers.h2d_seconds = 0;
  no_transfers.d2h_seconds = 0;
  EXPECT_DOUBLE_EQ(streamed_seconds(no_transfers, 8, false), 4 + 0.8);
  EXPECT_DOUBLE_EQ(streamed_seconds(no_transfers, 8, true), 4 + 0.8);
}

TEST(Paper000, ModelUsesTheProfilesSingleTransferTimes) {
  const HardwareProfile profile = testing::table1_gtx_titan();
  Workload workload;
  workload.h2d_bytes = 16 << 20;
  workload.d2h_bytes = 8 << 20;
  workload.kernel_seconds = 1e-3;
  const Call call = call_of(profile, workload);
  // L+o + k·G of each direction, once.
  EXPECT_NEAR(call.h2d_seconds, 9.42e-6 + 16777216 * 8.318392e-11, 1e-12);
  EXPECT_NEAR(call.d2h_seconds, 9.023e-6 + 8388608 * 7.924734e-11, 1e-12);

  const Model model;
  EXPECT_DOUBLE_EQ(*model.predict_seconds(profile, workload, {Variant::Explicit, 1, {}}),
                   call.kernel_seconds + call.transfer_seconds());
  EXPECT_DOUBLE_EQ(*model.predict_seconds(profile, workload, {Variant::Streams, 4, {}}),
                   streamed_seconds(call, 4, false));
  EXPECT_FALSE(model.predict_seconds(profile, workload, {Variant::Mapped, 1, {}}));
  EXPECT_FALSE(model.predict_seconds(profile, workload, {Variant::Hybrid, 4, {}}));
}

} // namespace
} // namespace overlap::model::paper000
