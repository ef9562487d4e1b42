// The papers' stream-count estimates beside the table, and the table printer.
#include "model/prediction_table_printer.h"
#include "model/stream_count_estimates.h"

#include "model/paper000_model.h"
#include "model/paper001_model.h"
#include "model/paper002_model.h"
#include "model_test_profiles.h"

#include <gtest/gtest.h>

#include <sstream>

namespace overlap::model {
namespace {

Workload transfer_bound() {
  Workload workload;
  workload.h2d_bytes = 400e6;
  workload.d2h_bytes = 100e6;
  workload.kernel_seconds = 1e-3;
  return workload;
}

const StreamCountEstimate* find(const std::vector<StreamCountEstimate>& estimates,
                                const std::string& source_part) {
  for (const StreamCountEstimate& estimate : estimates)
    if (estimate.source.find(source_part) != std::string::npos)
      return &estimate;
  return nullptr;
}

TEST(StreamCountEstimates, FollowTheDeviceCategory) {
  const HardwareProfile h100 = testing::h100_like();
  const std::vector<StreamCountEstimate> two_engines =
      stream_count_estimates(h100, transfer_bound());
  ASSERT_EQ(two_engines.size(), 3u);
  const StreamCountEstimate* largest = find(two_engines, "2 copy engines");
  ASSERT_NE(largest, nullptr);
  paper001::StreamedCall call;
  call.host_to_device = h100.host_to_device;
  call.device_to_host = h100.device_to_host;
  call.h2d_bytes = 400e6;
  call.d2h_bytes = 100e6;
  call.kernel_seconds = 1e-3;
  EXPECT_DOUBLE_EQ(largest->streams, paper001::max_streams_two_engines(call));
  // Transfers of 7 ms and 1.8 ms against a 1 ms kernel: data bound, eq. 4.11.
  const StreamCountEstimate* data_bound = find(two_engines, "4.11");
  ASSERT_NE(data_bound, nullptr);
  const double send = 400e6 / 55e9;
  const double receive = 100e6 / 55e9;
  EXPECT_DOUBLE_EQ(data_bound->streams, paper002::eq4_11_data_bound_optimal_subtasks(
                                            send, receive, paper002::bidirectional_factor(h100),
                                            paper002::overheads_of(h100)));
  EXPECT_NE(find(two_engines, "paper 000 eq. (2)/(4)"), nullptr);

  const std::vector<StreamCountEstimate> one_engine =
      stream_count_estimates(testing::table1_gtx_titan(), transfer_bound());
  EXPECT_NE(find(one_engine, "smallest nStreams"), nullptr);

  HardwareProfile fermi = testing::table1_gtx_titan();
  fermi.implicit_synchronization = true;
  fermi.stream_overhead_s = 30e-6;
  Workload kernel_bound = transfer_bound();
  kernel_bound.kernel_seconds = 100e-3;
  const std::vector<StreamCountEstimate> implicit = stream_count_estimates(fermi, kernel_bound);
  EXPECT_NE(find(implicit, "dominant kernel"), nullptr);
  EXPECT_NE(find(implicit, "dominant transfers"), nullptr);
  EXPECT_NE(find(implicit, "4.15"), nullptr); // compute bound
  const StreamCountEstimate* eq8 = find(implicit, "paper 000 eq. (8)");
  ASSERT_NE(eq8, nullptr);
  EXPECT_DOUBLE_EQ(eq8->streams,
                   paper000::optimal_streams(paper000::call_of(fermi, kernel_bound), true));
}

TEST(StreamCountEstimates, TheDataBoundCountTakesTheFactorOfThePiecesItMakes) {
  using testing::kMiB;
  const HardwareProfile by_size = testing::h100_busy_link_by_piece_size();
  const HardwareProfile one_g = testing::without_large_piece_g(by_size);
  const double large_f = paper002::bidirectional_factor(by_size, 96 * kMiB);
  const auto data_bound_count = [](const HardwareProfile& profile, const Workload& workload) {
    const std::vector<StreamCountEstimate> estimates = stream_count_estimates(profile, workload);
    const StreamCountEstimate* estimate = find(estimates, "4.11");
    EXPECT_NE(estimate, nullptr);
    return estimate ? estimate->streams : 0.0;
  };
  Workload workload;
  workload.kernel_seconds = 1e-3;
  // 8 GiB each way: (4.11) cuts them into pieces of over 96 MiB, which run at the large f; at
  // that f the count is lower and its pieces larger still.
  workload.h2d_bytes = workload.d2h_bytes = 8192 * kMiB;
  const double send = workload.h2d_bytes / 55e9;
  const double count = data_bound_count(by_size, workload);
  EXPECT_DOUBLE_EQ(count, paper002::eq4_11_data_bound_optimal_subtasks(
                              send, send, large_f, paper002::overheads_of(by_size)));
  EXPECT_GE(paper002::input_piece_bytes(workload, count), 96 * kMiB);
  EXPECT_LT(count, data_bound_count(one_g, workload));
  // 1 GiB each way: small pieces, the same count as with one G.
  workload.h2d_bytes = workload.d2h_bytes = 1024 * kMiB;
  EXPECT_LT(paper002::input_piece_bytes(workload, data_bound_count(by_size, workload)), 96 * kMiB);
  EXPECT_DOUBLE_EQ(data_bound_count(by_size, workload), data_bound_count(one_g, workload));
}

TEST(PredictionTablePrinter, FormatsSizesAndCategories) {
  EXPECT_EQ(format_bytes(12), "12 B");
  EXPECT_EQ(format_bytes(2048), "2.0 KiB");
  EXPECT_EQ(format_bytes(512.0 * 1024 * 1024), "512.0 MiB");
  EXPECT_EQ(format_bytes(1.5 * 1024 * 1024 * 1024), "1.5 GiB");
  EXPECT_EQ(describe_category(testing::h100_like()),
            "3 copy engines, no implicit synchronization, Hyper-Q (compute capability 9.0)");
  EXPECT_EQ(describe_category(testing::ideal_device(1, true, 20)),
            "1 copy engine, implicit synchronization, no Hyper-Q (compute capability 2.0)");
}

TEST(PredictionTablePrinter, PrintsEveryRowTheBestAndWhatIsRun) {
  const HardwareProfile profile = testing::h100_like();
  Workload workload = transfer_bound();
  workload.partition_extent = 4;
  Prediction prediction;
  prediction.tolerance = 0.1;
  prediction.stream_tolerance = 0.03;
  prediction.assumptions = {"something assumed"};
  prediction.rows = {{{Variant::Explicit, 1, IssueOrder::DepthFirst}, 10e-3, true},
                     {{Variant::Mapped, 1, IssueOrder::DepthFirst}, std::nullopt, true},
                     {{Variant::Streams, 4, IssueOrder::BreadthFirst}, 5e-3, true},
                     {{Variant::Hybrid, 2, IssueOrder::DepthFirst}, 8e-3, false}};
  prediction.best = 2;
  prediction.explicit_row = 0;
  PredictionReport report;
  report.model_name = "test model";
  report.profile = &profile;
  report.workload = &workload;
  report.prediction = &prediction;
  report.estimates = {{"an estimate", 7.25}};
  std::ostringstream out;
  print_prediction_report(out, report);
  const std::string text = out.str();
  auto has = [&](const std::string& part) { return text.find(part) != std::string::npos; };
  EXPECT_TRUE(has("model:    test model"));
  EXPECT_TRUE(has("P = 4, H2D 381.5 MiB + broadcast 0 B, D2H 95.4 MiB, t_E 1.000 ms"));
  EXPECT_TRUE(has("assumed:  something assumed"));
  EXPECT_TRUE(has("Explicit        -  -                    10.000   +100.0%     1.00x  yes"));
  EXPECT_TRUE(has("Mapped          -  -              not modelled"));
  EXPECT_TRUE(has("Streams         4  breadth-first         5.000     +0.0%     2.00x  yes  <- "
                  "predicted best"));
  EXPECT_TRUE(has("Hybrid          2  depth-first           8.000    +60.0%     1.25x  no"));
  EXPECT_TRUE(has("predicted optimum: Streams(4, breadth-first), 5.000 ms (2.00x over Explicit)"));
  EXPECT_TRUE(has("pruned set: 3 of 4 candidates run by the tuner"));
  EXPECT_TRUE(has("an estimate"));
  EXPECT_TRUE(has("7.2")); // 7.25 printed with one decimal
}

} // namespace
} // namespace overlap::model
