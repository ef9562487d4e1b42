// The shape of a timed series (tune/SeriesShape.h) on scripted timings: steady noise, a link
// that alternates between two speeds, a step and a trend during the series, too few repeats; and
// the reports naming a candidate whose series is not steady.
#include "tune/SeriesShape.h"
#include "CandidateOutcomes.h"
#include "tune/ConsoleSummary.h"
#include "tune/ReportJson.h"
#include "tune/ReportMarkdown.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <sstream>

namespace overlap::tune {
namespace {

constexpr double kNoise = 0.02;

TEST(SeriesShape, NoiseWithinTheToleranceIsSteady) {
  const SeriesShape shape =
      seriesShape({1.00e-3, 1.03e-3, 0.99e-3, 1.05e-3, 1.01e-3, 0.98e-3, 1.04e-3}, kNoise);
  EXPECT_EQ(shape.kind, SeriesKind::Steady);
  EXPECT_EQ(describe(shape), "steady");
}

TEST(SeriesShape, TwoAlternatingSpeedsAreBimodalWithBothModes) {
  // sepia-8k's Streams(16) on the H100: 2.26 ms in a fast window, 4.52 ms in a slow one.
  const SeriesShape shape =
      seriesShape({2.26e-3, 4.52e-3, 2.27e-3, 2.25e-3, 4.50e-3, 4.55e-3, 2.26e-3, 4.51e-3}, kNoise);
  ASSERT_EQ(shape.kind, SeriesKind::Bimodal);
  EXPECT_NEAR(shape.firstSeconds, 2.26e-3, 1e-6);
  EXPECT_NEAR(shape.secondSeconds, 4.515e-3, 1e-6);
  EXPECT_EQ(describe(shape), "bimodal: 2.26 ms and 4.515 ms (fast and slow mode)");
}

TEST(SeriesShape, AStepDuringTheSeriesIsADriftBeforeAndAfter) {
  const SeriesShape shape =
      seriesShape({1.0e-3, 1.01e-3, 0.99e-3, 1.0e-3, 1.6e-3, 1.62e-3, 1.59e-3}, kNoise);
  ASSERT_EQ(shape.kind, SeriesKind::Drifting);
  EXPECT_NEAR(shape.firstSeconds, 1.0e-3, 1e-9);
  EXPECT_NEAR(shape.secondSeconds, 1.6e-3, 1e-9);
}

TEST(SeriesShape, AGradualTrendIsADrift) {
  std::vector<double> rising;
  for (int i = 0; i < 12; ++i)
    rising.push_back(1e-3 * (1 + 0.02 * i)); // 2 % per repeat: no gap, but a trend
  const SeriesShape shape = seriesShape(rising, kNoise);
  ASSERT_EQ(shape.kind, SeriesKind::Drifting);
  EXPECT_LT(shape.firstSeconds, shape.secondSeconds);
}

TEST(SeriesShape, FewRepeatsAreNotJudgedAndOneOutlierIsNoMode) {
  EXPECT_EQ(seriesShape({1e-3, 2e-3, 1e-3, 2e-3}, kNoise).kind, SeriesKind::Steady);
  // One slow repeat among nine: a mode needs at least two repeats and a fifth of them.
  EXPECT_EQ(
      seriesShape({1e-3, 1e-3, 1.01e-3, 3e-3, 1e-3, 0.99e-3, 1e-3, 1.01e-3, 1e-3}, kNoise).kind,
      SeriesKind::Steady);
}

TEST(SeriesShape, AJumpBetweenScreeningAndTheFinalRoundIsADrift) {
  CandidateOutcome c = testing::outcomeOf({Variant::Streams, 16}, Verification::Passed,
                                          {4.51e-3, 4.52e-3, 4.50e-3, 4.53e-3});
  c.screeningSamples = {2.26e-3, 2.25e-3, 2.27e-3, 2.26e-3};
  const SeriesShape shape = seriesShape(c, kNoise);
  ASSERT_EQ(shape.kind, SeriesKind::Drifting);
  EXPECT_NEAR(shape.firstSeconds, 2.26e-3, 1e-6);
  EXPECT_NEAR(shape.secondSeconds, 4.515e-3, 1e-6);
}

TEST(SeriesShape, TheReportsNameACandidateWhoseSeriesIsNotSteady) {
  TuningRun run;
  run.kernel = "sepia";
  run.noise = kNoise;
  run.candidates = {
      testing::outcomeOf({}, Verification::Reference, {9e-3, 9.1e-3, 9e-3, 9.05e-3, 9e-3}),
      testing::outcomeOf({Variant::Streams, 16}, Verification::Passed,
                         {2.26e-3, 4.52e-3, 2.27e-3, 2.25e-3, 4.50e-3, 4.55e-3})};
  run.winner = 1;
  const std::string markdown = renderMarkdown(run, "");
  EXPECT_NE(markdown.find("## Timing series that are not steady"), std::string::npos) << markdown;
  EXPECT_NE(markdown.find("- Streams(16, depth-first): bimodal"), std::string::npos) << markdown;
  EXPECT_EQ(markdown.find("- Explicit:"), std::string::npos) << "Explicit's series is steady";
  const nlohmann::json j = nlohmann::json::parse(toJsonText(run));
  EXPECT_EQ(j.at("candidates")[1].at("series").at("shape"), "bimodal");
  EXPECT_EQ(j.at("candidates")[0].at("series").at("shape"), "steady");
  std::ostringstream console;
  printConsoleSummary(console, run);
  EXPECT_NE(console.str().find("note: Streams(16, depth-first) timed bimodal"), std::string::npos)
      << console.str();
}

} // namespace
} // namespace overlap::tune
