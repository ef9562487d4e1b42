// The papers' stream-count estimates beside the table, and the table printer.
#include "model/PredictionTablePrinter.h"
#include "model/StreamCountEstimates.h"

#include "ModelTestProfiles.h"
#include "model/Paper000Model.h"
#include "model/Paper001Model.h"
#include "model/Paper002Model.h"

#include <gtest/gtest.h>

#include <sstream>

namespace overlap::model {
namespace {

Workload transferBound() {
  Workload workload;
  workload.transfers.h2dBytes = 400e6;
  workload.transfers.d2hBytes = 100e6;
  workload.launch.kernelSeconds = 1e-3;
  return workload;
}

const StreamCountEstimate* find(const std::vector<StreamCountEstimate>& estimates,
                                const std::string& sourcePart) {
  for (const StreamCountEstimate& estimate : estimates)
    if (estimate.source.find(sourcePart) != std::string::npos)
      return &estimate;
  return nullptr;
}

TEST(StreamCountEstimates, FollowTheDeviceCategory) {
  const HardwareProfile h100 = testing::h100Like();
  const std::vector<StreamCountEstimate> twoEngines = streamCountEstimates(h100, transferBound());
  ASSERT_EQ(twoEngines.size(), 3u);
  const StreamCountEstimate* largest = find(twoEngines, "2 copy engines");
  ASSERT_NE(largest, nullptr);
  paper001::StreamedCall call;
  call.hostToDevice = h100.hostToDevice;
  call.deviceToHost = h100.deviceToHost;
  call.h2dBytes = 400e6;
  call.d2hBytes = 100e6;
  call.kernelSeconds = 1e-3;
  EXPECT_DOUBLE_EQ(largest->streams, paper001::maxStreamsTwoEngines(call));
  // Transfers of 7 ms and 1.8 ms against a 1 ms kernel: data bound, eq. 4.11.
  const StreamCountEstimate* dataBound = find(twoEngines, "4.11");
  ASSERT_NE(dataBound, nullptr);
  const double send = 400e6 / 55e9;
  const double receive = 100e6 / 55e9;
  EXPECT_DOUBLE_EQ(dataBound->streams, paper002::eq411DataBoundOptimalSubtasks(
                                           send, receive, paper002::bidirectionalFactor(h100),
                                           paper002::overheadsOf(h100)));
  EXPECT_NE(find(twoEngines, "paper 000 eq. (2)/(4)"), nullptr);

  const std::vector<StreamCountEstimate> oneEngine =
      streamCountEstimates(testing::table1GtxTitan(), transferBound());
  EXPECT_NE(find(oneEngine, "smallest nStreams"), nullptr);

  HardwareProfile fermi = testing::table1GtxTitan();
  fermi.implicitSynchronization = true;
  fermi.streamOverheadS = 30e-6;
  Workload kernelBound = transferBound();
  kernelBound.launch.kernelSeconds = 100e-3;
  const std::vector<StreamCountEstimate> implicit = streamCountEstimates(fermi, kernelBound);
  EXPECT_NE(find(implicit, "dominant kernel"), nullptr);
  EXPECT_NE(find(implicit, "dominant transfers"), nullptr);
  EXPECT_NE(find(implicit, "4.15"), nullptr); // compute bound
  const StreamCountEstimate* eq8 = find(implicit, "paper 000 eq. (8)");
  ASSERT_NE(eq8, nullptr);
  EXPECT_DOUBLE_EQ(eq8->streams,
                   paper000::optimalStreams(paper000::callOf(fermi, kernelBound), true));
}

TEST(StreamCountEstimates, TheDataBoundCountTakesTheFactorOfThePiecesItMakes) {
  using testing::kMiB;
  const HardwareProfile bySize = testing::h100BusyLinkByPieceSize();
  const HardwareProfile oneG = testing::withoutLargePieceG(bySize);
  const double largeF = paper002::bidirectionalFactor(bySize, 96 * kMiB);
  const auto dataBoundCount = [](const HardwareProfile& profile, const Workload& workload) {
    const std::vector<StreamCountEstimate> estimates = streamCountEstimates(profile, workload);
    const StreamCountEstimate* estimate = find(estimates, "4.11");
    EXPECT_NE(estimate, nullptr);
    return estimate ? estimate->streams : 0.0;
  };
  Workload workload;
  workload.launch.kernelSeconds = 1e-3;
  // 8 GiB each way: (4.11) cuts them into pieces of over 96 MiB, which run at the large f; at
  // that f the count is lower and its pieces larger still.
  workload.transfers.h2dBytes = workload.transfers.d2hBytes = 8192 * kMiB;
  const double send = workload.transfers.h2dBytes / 55e9;
  const double count = dataBoundCount(bySize, workload);
  EXPECT_DOUBLE_EQ(count, paper002::eq411DataBoundOptimalSubtasks(send, send, largeF,
                                                                  paper002::overheadsOf(bySize)));
  EXPECT_GE(paper002::inputPieceBytes(workload, count), 96 * kMiB);
  EXPECT_LT(count, dataBoundCount(oneG, workload));
  // 1 GiB each way: small pieces, the same count as with one G.
  workload.transfers.h2dBytes = workload.transfers.d2hBytes = 1024 * kMiB;
  EXPECT_LT(paper002::inputPieceBytes(workload, dataBoundCount(bySize, workload)), 96 * kMiB);
  EXPECT_DOUBLE_EQ(dataBoundCount(bySize, workload), dataBoundCount(oneG, workload));
}

TEST(PredictionTablePrinter, FormatsSizesAndCategories) {
  EXPECT_EQ(formatBytes(12), "12 B");
  EXPECT_EQ(formatBytes(2048), "2.0 KiB");
  EXPECT_EQ(formatBytes(512.0 * 1024 * 1024), "512.0 MiB");
  EXPECT_EQ(formatBytes(1.5 * 1024 * 1024 * 1024), "1.5 GiB");
  EXPECT_EQ(describeCategory(testing::h100Like()),
            "3 copy engines, no implicit synchronization, Hyper-Q (compute capability 9.0)");
  EXPECT_EQ(describeCategory(testing::idealDevice(1, true, 20)),
            "1 copy engine, implicit synchronization, no Hyper-Q (compute capability 2.0)");
}

TEST(PredictionTablePrinter, PrintsEveryRowTheBestAndWhatIsRun) {
  const HardwareProfile profile = testing::h100Like();
  Workload workload = transferBound();
  workload.partition.extent = 4;
  Prediction prediction;
  prediction.tolerance = 0.1;
  prediction.streamTolerance = 0.03;
  prediction.assumptions = {"something assumed"};
  prediction.rows = {{{Variant::Explicit, 1, IssueOrder::DepthFirst}, 10e-3, true},
                     {{Variant::Mapped, 1, IssueOrder::DepthFirst}, std::nullopt, true},
                     {{Variant::Streams, 4, IssueOrder::BreadthFirst}, 5e-3, true},
                     {{Variant::Hybrid, 2, IssueOrder::DepthFirst}, 8e-3, false}};
  prediction.best = 2;
  prediction.explicitRow = 0;
  PredictionReport report;
  report.modelName = "test model";
  report.profile = &profile;
  report.workload = &workload;
  report.prediction = &prediction;
  report.estimates = {{"an estimate", 7.25}};
  std::ostringstream out;
  printPredictionReport(out, report);
  const std::string text = out.str();
  auto has = [&](const std::string& part) { return text.find(part) != std::string::npos; };
  EXPECT_TRUE(has("model:    test model"));
  EXPECT_TRUE(has("P = 4, H2D 381.5 MiB + broadcast 0 B, D2H 95.4 MiB, t_E 1.000 ms"));
  EXPECT_TRUE(has("assumed:  something assumed"));
  EXPECT_TRUE(
      has("Explicit        -       -  -                    10.000   +100.0%     1.00x  yes"));
  EXPECT_TRUE(has("Mapped          -       -  -              not modelled"));
  // The chunks each candidate runs: one per stream here.
  EXPECT_TRUE(
      has("Streams         4       4  breadth-first         5.000     +0.0%     2.00x  yes  "
          "<- predicted best"));
  EXPECT_TRUE(
      has("Hybrid          2       2  depth-first           8.000    +60.0%     1.25x  no"));
  EXPECT_TRUE(has("predicted optimum: Streams(4, breadth-first), 5.000 ms (2.00x over Explicit)"));
  EXPECT_TRUE(has("pruned set: 3 of 4 candidates run by the tuner"));
  EXPECT_TRUE(has("an estimate"));
  EXPECT_TRUE(has("7.2")); // 7.25 printed with one decimal
}

} // namespace
} // namespace overlap::model
