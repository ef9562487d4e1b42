#include "AccuracyTable.h"
#include "Synthetic.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>

namespace overlap::calibration {
namespace {

SampleStats measured(double median) {
  SampleStats s;
  s.count = 5;
  s.median = s.min = s.max = s.q1 = s.q3 = median;
  return s;
}

AccuracyRow row(AccuracyCase which, double bytes, int pieces, double predicted, double median) {
  AccuracyRow r;
  r.which = which;
  r.bytes = bytes;
  r.pieces = pieces;
  r.predictedS = predicted;
  r.measured = measured(median);
  return r;
}

AccuracyReport reportWithErrors() {
  AccuracyReport report;
  report.device = "Test GPU";
  report.pcie = "Gen5 x16";
  report.driver = "1.0";
  report.date = "2026-11-21";
  report.profileName = "test";
  report.notes.push_back("0 of 5 bidirectional samples ended after the other direction");
  const double mib = test::kMiB;
  // Errors: +1 %, -2 % one way; +4 % bidirectional (within 5 %); device to host +3.5 % (missed).
  report.rows.push_back(row(AccuracyCase::HostToDevice, 16 * mib, 1, 1.01e-3, 1e-3));
  report.rows.push_back(row(AccuracyCase::HostToDevice, 16 * mib, 256, 0.98e-3, 1e-3));
  report.rows.push_back(row(AccuracyCase::DeviceToHost, 1024 * mib, 4, 20.7e-3, 20e-3));
  report.rows.push_back(row(AccuracyCase::BidirectionalHostToDevice, 32 * mib, 2, 1.04e-3, 1e-3));
  // Device to host against a busy link: -10 %, missing the 5 % target.
  report.rows.push_back(row(AccuracyCase::BidirectionalDeviceToHost, 64 * mib, 8, 0.9e-3, 1e-3));
  return report;
}

TEST(PredictTransfer, IsLogGpOfPaper001) {
  const LinkDirection link = test::titanHostToDevice();
  const double k = 64 * test::kMiB;
  EXPECT_DOUBLE_EQ(predictTransferSeconds(link, k, 1, AccuracyCase::HostToDevice),
                   link.latencyS + k * link.secondsPerByte);
  EXPECT_DOUBLE_EQ(predictTransferSeconds(link, k, 8, AccuracyCase::HostToDevice),
                   link.latencyS + k * link.secondsPerByte + 7 * link.gapS);
  EXPECT_DOUBLE_EQ(predictTransferSeconds(link, k, 8, AccuracyCase::BidirectionalHostToDevice),
                   link.latencyS + k * link.bidirectionalSecondsPerByte +
                       7 * link.bidirectionalGapS);
}

// A busy link with a G of its own for large pieces prices each point by the size of its pieces:
// 1 GiB in 4 pieces of 256 MiB at the large G, in 16 of 64 MiB at the small one; one way
// is not affected.
TEST(PredictTransfer, BusyPiecesFromTheLargeSizeUpTakeTheirOwnG) {
  LinkDirection link = test::titanHostToDevice();
  link.bidirectionalLargePieceSecondsPerByte = 1.1 * link.bidirectionalSecondsPerByte;
  link.bidirectionalLargePieceMinBytes = 96 * test::kMiB;
  const double k = 1024 * test::kMiB;
  const AccuracyCase busy = AccuracyCase::BidirectionalHostToDevice;
  const double gap = link.bidirectionalGapS;
  EXPECT_DOUBLE_EQ(predictTransferSeconds(link, k, 4, busy),
                   link.latencyS + k * link.bidirectionalLargePieceSecondsPerByte + 3 * gap);
  EXPECT_DOUBLE_EQ(predictTransferSeconds(link, k, 16, busy),
                   link.latencyS + k * link.bidirectionalSecondsPerByte + 15 * gap);
  EXPECT_DOUBLE_EQ(predictTransferSeconds(link, k, 4, AccuracyCase::HostToDevice),
                   link.latencyS + k * link.secondsPerByte + 3 * link.gapS);
}

TEST(AccuracyCases, BothDirectionsBusyUseTheBidirectionalTarget) {
  EXPECT_FALSE(isBidirectional(AccuracyCase::HostToDevice));
  EXPECT_FALSE(isBidirectional(AccuracyCase::DeviceToHost));
  EXPECT_TRUE(isBidirectional(AccuracyCase::BidirectionalHostToDevice));
  EXPECT_TRUE(isBidirectional(AccuracyCase::BidirectionalDeviceToHost));
  EXPECT_STREQ(caseName(AccuracyCase::BidirectionalHostToDevice), "bidirectional.host_to_device");
}

TEST(PredictTransfer, BidirectionalUsesTheGapMeasuredWithTheOtherDirectionBusy) {
  const LinkDirection link = test::titanDeviceToHost();
  const double k = 64 * test::kMiB;
  EXPECT_DOUBLE_EQ(predictTransferSeconds(link, k, 8, AccuracyCase::BidirectionalHostToDevice),
                   link.latencyS + k * link.bidirectionalSecondsPerByte +
                       7 * link.bidirectionalGapS);
  LinkDirection unknown = link;
  unknown.bidirectionalGapS = 0;
  EXPECT_DOUBLE_EQ(predictTransferSeconds(unknown, k, 8, AccuracyCase::BidirectionalHostToDevice),
                   link.latencyS + k * link.bidirectionalSecondsPerByte + 7 * link.gapS);
}

TEST(PredictTransfer, BidirectionalFallsBackToOneWayG) {
  LinkDirection link = test::titanHostToDevice();
  link.bidirectionalSecondsPerByte = 0;
  EXPECT_DOUBLE_EQ(predictTransferSeconds(link, 1e6, 1, AccuracyCase::BidirectionalHostToDevice),
                   predictTransferSeconds(link, 1e6, 1, AccuracyCase::HostToDevice));
}

TEST(AccuracySummary, FindsTheWorstPointPerCase) {
  const AccuracyReport report = reportWithErrors();
  const std::vector<CaseSummary> cases = summarizeCases(report);
  ASSERT_EQ(cases.size(), 4u) << "cases without rows are left out";
  EXPECT_EQ(cases[0].which, AccuracyCase::HostToDevice);
  EXPECT_EQ(cases[0].points, 2);
  EXPECT_NEAR(cases[0].maxAbsError, 0.02, 1e-12);
  EXPECT_NEAR(cases[0].worst.error(), -0.02, 1e-12);
  EXPECT_EQ(cases[0].worst.pieces, 256);
  EXPECT_NEAR(cases[0].meanAbsError, 0.015, 1e-12);
  EXPECT_TRUE(cases[0].withinTarget);
  EXPECT_EQ(cases[1].which, AccuracyCase::DeviceToHost);
  EXPECT_NEAR(cases[1].maxAbsError, 0.035, 1e-12);
  EXPECT_FALSE(cases[1].withinTarget) << "3.5 % misses the 3 % one-way target";
  EXPECT_EQ(cases[2].which, AccuracyCase::BidirectionalHostToDevice);
  EXPECT_TRUE(cases[2].withinTarget) << "4 % meets the 5 % bidirectional target";
  EXPECT_EQ(cases[3].which, AccuracyCase::BidirectionalDeviceToHost);
  EXPECT_FALSE(cases[3].withinTarget);
  EXPECT_FALSE(meetsTargets(report));
}

TEST(AccuracySummary, MeetsTargetsWhenEveryCaseDoes) {
  AccuracyReport report = reportWithErrors();
  report.rows.erase(report.rows.begin() + 4);
  report.rows.erase(report.rows.begin() + 2);
  EXPECT_TRUE(meetsTargets(report));
  EXPECT_FALSE(meetsTargets(AccuracyReport{})) << "no rows prove nothing";
}

TEST(AccuracyMarkdown, SummarizesTheErrorsPerCase) {
  const std::string md = accuracyToMarkdown(reportWithErrors());
  EXPECT_NE(md.find("# Transfer model accuracy: Test GPU"), std::string::npos);
  EXPECT_NE(md.find("driver 1.0"), std::string::npos);
  EXPECT_NE(md.find("| host_to_device | 2 | 2.00 % | 1.50 % | 16 MiB, n = 256 (-2.00 %) | 3.00 % "
                    "| yes |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| device_to_host | 1 | 3.50 % |"), std::string::npos) << md;
  EXPECT_NE(md.find("**no**"), std::string::npos);
  EXPECT_NE(md.find("- note: 0 of 5 bidirectional samples"), std::string::npos) << md;
  EXPECT_NE(md.find("| 1 GiB, n = 4 (+3.50 %) |"), std::string::npos) << md;
}

TEST(AccuracyJson, HoldsEveryRowAndTheVerdict) {
  const nlohmann::json j = nlohmann::json::parse(accuracyToJson(reportWithErrors()));
  EXPECT_EQ(j["schema"], "overlap.transfer-model-accuracy");
  EXPECT_EQ(j["device"], "Test GPU");
  ASSERT_EQ(j["rows"].size(), 5u);
  EXPECT_EQ(j["rows"][2]["case"], "device_to_host");
  EXPECT_DOUBLE_EQ(j["rows"][2]["predicted_s"].get<double>(), 20.7e-3);
  EXPECT_DOUBLE_EQ(j["rows"][2]["measured"]["median_s"].get<double>(), 20e-3);
  EXPECT_EQ(j["meets_targets"], false);
  EXPECT_EQ(j["notes"].size(), 1u);
  EXPECT_EQ(j["targets"]["bidirectional"], 0.05);
}

} // namespace
} // namespace overlap::calibration
