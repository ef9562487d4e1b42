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
  report.rows.back().ungated = measured(1.3e-3);
  // Both at once: -10 %, missing the 5 % target.
  report.rows.push_back(row(AccuracyCase::SimultaneousDeviceToHost, 64 * mib, 8, 0.9e-3, 1e-3));
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
  for (AccuracyCase busy :
       {AccuracyCase::BidirectionalHostToDevice, AccuracyCase::SimultaneousHostToDevice}) {
    const double gap = busy == AccuracyCase::BidirectionalHostToDevice ? link.bidirectionalGapS
                                                                       : link.simultaneousGapS;
    EXPECT_DOUBLE_EQ(predictTransferSeconds(link, k, 4, busy),
                     link.latencyS + k * link.bidirectionalLargePieceSecondsPerByte + 3 * gap);
    EXPECT_DOUBLE_EQ(predictTransferSeconds(link, k, 16, busy),
                     link.latencyS + k * link.bidirectionalSecondsPerByte + 15 * gap);
  }
  EXPECT_DOUBLE_EQ(predictTransferSeconds(link, k, 4, AccuracyCase::HostToDevice),
                   link.latencyS + k * link.secondsPerByte + 3 * link.gapS);
}

TEST(AccuracyCases, BothDirectionsBusyUseTheBidirectionalTarget) {
  EXPECT_FALSE(isBidirectional(AccuracyCase::HostToDevice));
  EXPECT_FALSE(isBidirectional(AccuracyCase::DeviceToHost));
  EXPECT_TRUE(isBidirectional(AccuracyCase::BidirectionalHostToDevice));
  EXPECT_TRUE(isBidirectional(AccuracyCase::SimultaneousDeviceToHost));
  EXPECT_STREQ(caseName(AccuracyCase::SimultaneousHostToDevice), "simultaneous.host_to_device");
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

TEST(PredictTransfer, SimultaneousPiecesUseTheGapMeasuredThatWay) {
  LinkDirection link = test::titanDeviceToHost();
  link.simultaneousGapS = 0;
  const double k = 64 * test::kMiB;
  const double busy = predictTransferSeconds(link, k, 8, AccuracyCase::BidirectionalDeviceToHost);
  EXPECT_DOUBLE_EQ(predictTransferSeconds(link, k, 8, AccuracyCase::SimultaneousDeviceToHost), busy)
      << "without a simultaneous g the busy-link g stands in";
  link.simultaneousGapS = link.bidirectionalGapS / 2;
  EXPECT_DOUBLE_EQ(predictTransferSeconds(link, k, 8, AccuracyCase::SimultaneousDeviceToHost),
                   link.latencyS + k * link.bidirectionalSecondsPerByte +
                       7 * link.simultaneousGapS);
  EXPECT_DOUBLE_EQ(predictTransferSeconds(link, k, 8, AccuracyCase::BidirectionalDeviceToHost),
                   busy)
      << "the busy-link case keeps its own g";
}

TEST(GapDomain, SimultaneousPiecesHaveTheirOwnDomain) {
  LinkDirection link = test::titanDeviceToHost();
  link.bidirectionalGapMinPieceBytes = 1024 * 1024;
  link.simultaneousGapS = 4e-6;
  link.simultaneousGapMinPieceBytes = 256 * 1024;
  const double k = 16 * test::kMiB;
  EXPECT_FALSE(outsideGapDomain(link, k, 64, AccuracyCase::SimultaneousDeviceToHost));
  EXPECT_TRUE(outsideGapDomain(link, k, 64, AccuracyCase::BidirectionalDeviceToHost));
  EXPECT_TRUE(outsideGapDomain(link, k, 128, AccuracyCase::SimultaneousHostToDevice));
}

TEST(GapDomain, PiecesBelowTheMeasuredDomainAreOutside) {
  LinkDirection link = test::titanDeviceToHost();
  link.gapMinPieceBytes = 256 * 1024;
  const double k = 16 * test::kMiB;
  EXPECT_FALSE(outsideGapDomain(link, k, 64, AccuracyCase::HostToDevice))
      << "256 KiB pieces are inside";
  EXPECT_TRUE(outsideGapDomain(link, k, 128, AccuracyCase::HostToDevice));
  EXPECT_FALSE(outsideGapDomain(link, 64 * 1024, 1, AccuracyCase::HostToDevice))
      << "one piece pays no g";
  EXPECT_FALSE(outsideGapDomain(link, k, 256, AccuracyCase::BidirectionalHostToDevice))
      << "the bidirectional g has its own domain (here: every size)";
  link.bidirectionalGapMinPieceBytes = 1024 * 1024;
  EXPECT_TRUE(outsideGapDomain(link, k, 32, AccuracyCase::BidirectionalHostToDevice));
  link.bidirectionalGapS = 0;
  EXPECT_TRUE(outsideGapDomain(link, k, 128, AccuracyCase::BidirectionalHostToDevice))
      << "falls back to g and its domain";
}

TEST(AccuracySummary, CountsPointsOutsideTheDomainApart) {
  AccuracyReport report = reportWithErrors();
  // -8 %, far off, but its pieces are below g's domain of validity.
  report.rows.push_back(row(AccuracyCase::HostToDevice, 16 * test::kMiB, 128, 0.92e-3, 1e-3));
  report.rows.back().outsideDomain = true;
  const std::vector<CaseSummary> cases = summarizeCases(report);
  ASSERT_FALSE(cases.empty());
  EXPECT_EQ(cases[0].points, 2);
  EXPECT_NEAR(cases[0].maxAbsError, 0.02, 1e-12);
  EXPECT_TRUE(cases[0].withinTarget);
  EXPECT_EQ(cases[0].outsidePoints, 1);
  EXPECT_NEAR(cases[0].outsideMaxAbsError, 0.08, 1e-12);
  const std::string md = accuracyToMarkdown(report);
  EXPECT_NE(md.find("1 / 0.92 (-8.00 %) †"), std::string::npos) << md;
  EXPECT_NE(md.find("| yes | 1, 8.00 % |"), std::string::npos) << md;
  const nlohmann::json j = nlohmann::json::parse(accuracyToJson(report));
  EXPECT_EQ(j["rows"].back()["outside_domain"], true);
  EXPECT_EQ(j["summary"][0]["outside_domain_points"], 1);
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
  EXPECT_NEAR(cases[0].worstError, -0.02, 1e-12);
  EXPECT_EQ(cases[0].worstPieces, 256);
  EXPECT_NEAR(cases[0].meanAbsError, 0.015, 1e-12);
  EXPECT_TRUE(cases[0].withinTarget);
  EXPECT_EQ(cases[1].which, AccuracyCase::DeviceToHost);
  EXPECT_NEAR(cases[1].maxAbsError, 0.035, 1e-12);
  EXPECT_FALSE(cases[1].withinTarget) << "3.5 % misses the 3 % one-way target";
  EXPECT_EQ(cases[2].which, AccuracyCase::BidirectionalHostToDevice);
  EXPECT_TRUE(cases[2].withinTarget) << "4 % meets the 5 % bidirectional target";
  EXPECT_EQ(cases[2].ungatedPoints, 1);
  EXPECT_NEAR(cases[2].ungatedMaxAbsError, 1 - 1.04 / 1.3, 1e-12);
  EXPECT_EQ(cases[3].which, AccuracyCase::SimultaneousDeviceToHost);
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

// Rows of `which` timed exactly as `truth` predicts them, predicted by `profile`.
void addExactRows(AccuracyReport& report, AccuracyCase which, const LinkDirection& profile,
                  const LinkDirection& truth) {
  for (double mib : {16.0, 64.0, 256.0, 1024.0})
    for (int pieces : {1, 4, 16, 64}) {
      const double bytes = mib * test::kMiB;
      report.rows.push_back(row(which, bytes, pieces,
                                predictTransferSeconds(profile, bytes, pieces, which),
                                predictTransferSeconds(truth, bytes, pieces, which)));
    }
}

TEST(AccuracySummary, FormFloorIsTheBestFitOfTheFormToTheseMedians) {
  // The check's link ran 4 % slower per byte with a larger g than the calibration saw: the
  // profile misses, yet the form fits the check's times exactly.
  const LinkDirection profile = test::titanHostToDevice();
  LinkDirection checkState = profile;
  checkState.secondsPerByte *= 1.04;
  checkState.gapS *= 1.5;
  AccuracyReport report;
  addExactRows(report, AccuracyCase::HostToDevice, profile, checkState);
  EXPECT_LT(summarizeCases(report)[0].formFloor, 0) << "no links, no floor";
  report.hostToDevice = profile;
  CaseSummary s = summarizeCases(report)[0];
  EXPECT_GT(s.maxAbsError, 0.03);
  EXPECT_GE(s.formFloor, 0);
  EXPECT_LT(s.formFloor, 1e-9);

  // One point 6 % slow: no G and g fit every point now; the floor is at most the case's error
  // and at least the half-spread the one odd point forces (under 3 % since its neighbours pull).
  report.rows[5].measured = measured(report.rows[5].measured.median * 1.06);
  s = summarizeCases(report)[0];
  EXPECT_GT(s.formFloor, 0.005);
  EXPECT_LE(s.formFloor, s.maxAbsError);
  EXPECT_LT(s.formFloor, 0.03);

  // Points outside g's domain are not judged and not fitted.
  report.rows[5].outsideDomain = true;
  EXPECT_LT(summarizeCases(report)[0].formFloor, 1e-9);
}

TEST(AccuracySummary, FormFloorKeepsTheProfilesLargePieceBoundary) {
  // Against a busy link pieces from 64 MiB up run 10 % slower per byte: the two-G form fits
  // exactly, the one-G form cannot.
  LinkDirection truth = test::titanHostToDevice();
  truth.bidirectionalLargePieceSecondsPerByte = 1.1 * truth.bidirectionalSecondsPerByte;
  truth.bidirectionalLargePieceMinBytes = 64 * test::kMiB;
  AccuracyReport report;
  report.hostToDevice = truth;
  addExactRows(report, AccuracyCase::BidirectionalHostToDevice, truth, truth);
  EXPECT_LT(summarizeCases(report)[0].formFloor, 1e-9);
  LinkDirection oneG = truth;
  oneG.bidirectionalLargePieceSecondsPerByte = 0;
  oneG.bidirectionalLargePieceMinBytes = 0;
  report.hostToDevice = oneG;
  EXPECT_GT(summarizeCases(report)[0].formFloor, 0.02);
  // The one-way case has no large pieces, whatever the link.
  AccuracyReport oneWay;
  oneWay.hostToDevice = truth;
  addExactRows(oneWay, AccuracyCase::HostToDevice, truth, truth);
  EXPECT_LT(summarizeCases(oneWay)[0].formFloor, 1e-9);
}

TEST(AccuracySummary, FormFloorIsPrintedWhereFitted) {
  AccuracyReport report = reportWithErrors();
  const nlohmann::json without = nlohmann::json::parse(accuracyToJson(report));
  EXPECT_TRUE(without["summary"][0]["form_floor"].is_null());
  report.hostToDevice = test::titanHostToDevice();
  const nlohmann::json with = nlohmann::json::parse(accuracyToJson(report));
  EXPECT_EQ(with["schema_version"], 4);
  ASSERT_TRUE(with["summary"][0]["form_floor"].is_number());
  EXPECT_DOUBLE_EQ(with["summary"][0]["form_floor"].get<double>(),
                   summarizeCases(report)[0].formFloor);
  EXPECT_TRUE(with["summary"][1]["form_floor"].is_null()) << "device to host: no link given";
  const std::string md = accuracyToMarkdown(report);
  EXPECT_NE(md.find("form's floor (‡)"), std::string::npos) << md;
  // Two points, two unknowns: fitted exactly; no link for device to host: no floor.
  EXPECT_NE(md.find("| yes | - | - | - | 0.00 % |"), std::string::npos) << md;
  EXPECT_NE(md.find("| **no** | - | - | - | - |"), std::string::npos) << md;
}

TEST(AccuracyMarkdown, ShowsMeasuredPredictedAndErrors) {
  const std::string md = accuracyToMarkdown(reportWithErrors());
  EXPECT_NE(md.find("# Transfer model accuracy: Test GPU"), std::string::npos);
  EXPECT_NE(md.find("driver 1.0"), std::string::npos);
  EXPECT_NE(md.find("| host_to_device | 2 | 2.00 % | 1.50 % | 16 MiB, n = 256 (-2.00 %) | 3.00 % "
                    "| yes | - | - |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| device_to_host | 1 | 3.50 % |"), std::string::npos) << md;
  EXPECT_NE(md.find("**no**"), std::string::npos);
  EXPECT_NE(md.find("- note: 0 of 5 bidirectional samples"), std::string::npos) << md;
  EXPECT_NE(md.find("| 1 GiB |"), std::string::npos) << md;
  EXPECT_NE(md.find("20 / 20.7 (+3.50 %)"), std::string::npos) << md;
  EXPECT_NE(md.find("bidirectional.host_to_device, ungated"), std::string::npos) << md;
}

TEST(AccuracyJson, HoldsEveryRowAndTheSummary) {
  const nlohmann::json j = nlohmann::json::parse(accuracyToJson(reportWithErrors()));
  EXPECT_EQ(j["schema"], "overlap.transfer-model-accuracy");
  EXPECT_EQ(j["device"], "Test GPU");
  ASSERT_EQ(j["rows"].size(), 5u);
  EXPECT_EQ(j["rows"][2]["case"], "device_to_host");
  EXPECT_DOUBLE_EQ(j["rows"][2]["predicted_s"].get<double>(), 20.7e-3);
  EXPECT_DOUBLE_EQ(j["rows"][2]["measured"]["median_s"].get<double>(), 20e-3);
  EXPECT_FALSE(j["rows"][0].contains("ungated"));
  EXPECT_TRUE(j["rows"][3].contains("ungated"));
  EXPECT_EQ(j["meets_targets"], false);
  EXPECT_EQ(j["notes"].size(), 1u);
  ASSERT_EQ(j["summary"].size(), 4u);
  EXPECT_EQ(j["summary"][3]["case"], "simultaneous.device_to_host");
  EXPECT_EQ(j["summary"][1]["within_target"], false);
  EXPECT_TRUE(j["summary"][0]["ungated_max_abs_error"].is_null());
}

// A link of 2e-11 s/B (50 GB/s) fast and 4e-11 s/B slow with the other direction busy.
LinkDirection twoRateLink() {
  LinkDirection link;
  link.latencyS = 5e-6;
  link.secondsPerByte = 1.8e-11;
  link.gapS = 2e-6;
  link.bidirectionalSecondsPerByte = 2e-11;
  link.bidirectionalGapS = 3e-6;
  link.bidirectionalSlowSecondsPerByte = 4e-11;
  link.bidirectionalSlowShare = 0.4;
  return link;
}

AccuracyRow busyRow(const LinkDirection& link, const std::vector<double>& repeats) {
  AccuracyRow r;
  r.which = AccuracyCase::BidirectionalHostToDevice;
  r.bytes = 16 * test::kMiB;
  r.pieces = 4;
  r.predictedS = predictTransferSeconds(link, r.bytes, r.pieces, r.which);
  r.measured = summarize(repeats);
  splitByMode(link, repeats, &r);
  return r;
}

TEST(TwoRateAccuracy, SplitRepeatsAreJudgedByMode) {
  const LinkDirection link = twoRateLink();
  const double k = 16 * test::kMiB;
  const double fast = 5e-6 + k * 2e-11 + 3 * 3e-6;
  const double slow = 5e-6 + k * 4e-11 + 3 * 3e-6;
  // Fast repeats 1 % slower than predicted, slow ones 2 % faster than the slow rate.
  const AccuracyRow r =
      busyRow(link, {fast * 1.01, slow * 0.98, fast * 1.01, slow * 0.98, fast * 1.01});
  ASSERT_TRUE(r.split());
  EXPECT_EQ(r.fastMode.count, 3);
  EXPECT_EQ(r.slowMode.count, 2);
  EXPECT_NEAR(r.predictedSlowS, slow, slow * 1e-12);
  EXPECT_NEAR(r.judgedError(), 1 / 1.01 - 1, 1e-9);
  EXPECT_NEAR(r.slowModeError(), 1 / 0.98 - 1, 1e-9);
  EXPECT_GT(std::fabs(r.error()), 0.009) << "the median alone is the fast mode here";

  AccuracyReport report;
  report.rows.push_back(r);
  const std::vector<CaseSummary> cases = summarizeCases(report);
  ASSERT_EQ(cases.size(), 1u);
  EXPECT_EQ(cases[0].splitPoints, 1);
  EXPECT_NEAR(cases[0].slowShare, 0.4, 1e-12);
  EXPECT_NEAR(cases[0].maxAbsError, std::fabs(1 / 1.01 - 1), 1e-9);
  EXPECT_NEAR(cases[0].slowModeMaxAbsError, 1 / 0.98 - 1, 1e-9);
  EXPECT_TRUE(cases[0].withinTarget) << "the slow mode is shown, not judged";
  const std::string md = accuracyToMarkdown(report);
  EXPECT_NE(md.find("| 1, 40.00 %, 2.04 % |"), std::string::npos) << md;
  EXPECT_NE(md.find("slow 2/5: "), std::string::npos) << md;
  const nlohmann::json j = nlohmann::json::parse(accuracyToJson(report));
  EXPECT_EQ(j["summary"][0]["split_points"], 1);
  EXPECT_EQ(j["rows"][0]["slow_mode"]["repeats"], 2);
}

TEST(TwoRateAccuracy, ALinkWithOneRateIsJudgedOnTheMedian) {
  LinkDirection link = twoRateLink();
  link.bidirectionalSlowSecondsPerByte = 0;
  link.bidirectionalSlowShare = 0;
  const double k = 16 * test::kMiB;
  const double fast = 5e-6 + k * 2e-11 + 3 * 3e-6;
  const double slow = 5e-6 + k * 4e-11 + 3 * 3e-6;
  const AccuracyRow r = busyRow(link, {fast, slow, fast, slow, slow});
  EXPECT_FALSE(r.split()) << "the profile does not know the link runs at two rates";
  EXPECT_NEAR(r.judgedError(), fast / slow - 1, 1e-9);
}

TEST(TwoRateAccuracy, SteadyRepeatsAreNotSplit) {
  const LinkDirection link = twoRateLink();
  const double fast = 5e-6 + 16 * test::kMiB * 2e-11 + 3 * 3e-6;
  const AccuracyRow r = busyRow(link, {fast, fast * 1.02, fast * 0.99, fast, fast * 1.01});
  EXPECT_FALSE(r.split());
  EXPECT_EQ(r.judgedError(), r.error());
}

} // namespace
} // namespace overlap::calibration
