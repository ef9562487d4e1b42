// Tuning across sizes without a GPU: the sweep's values (log-spaced, then bisected where the
// winner's family changes, bounded) over scripted winners, and its reports -- JSON, Markdown and
// the crossover chart -- over hand-made tunings.
#include "tune/SizeSweep.h"
#include "tune/CrossoverPlot.h"
#include "tune/SweepReport.h"
#include "tune/SweepRun.h"
#include "tune/TuneOptions.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <vector>

namespace overlap::tune {
namespace {

TEST(SizeSweep, ParsesNameRangeAndCount) {
  SweepSpec spec;
  std::string error;
  ASSERT_TRUE(parseSweep("n=4096..268435456", &spec, &error)) << error;
  EXPECT_EQ(spec.parameter, "n");
  EXPECT_EQ(spec.low, 4096);
  EXPECT_EQ(spec.high, 268435456);
  EXPECT_EQ(spec.count, kDefaultSweepCount);
  EXPECT_EQ(to_string(spec), "n=4096..268435456:7");
  ASSERT_TRUE(parseSweep("frames=1..40000:8", &spec, &error)) << error;
  EXPECT_EQ(spec.count, 8);
  for (const char* bad : {"n", "=1..2", "n=1..1", "n=5..2", "n=0..10", "n=1-10", "n=1..10:1",
                          "n=1..10:65", "n=1..x", "n=-4..10", "n=1..10:"}) {
    EXPECT_FALSE(parseSweep(bad, &spec, &error)) << bad;
    EXPECT_NE(error.find("NAME=LO..HI"), std::string::npos) << error;
  }
}

TEST(SizeSweep, TheCommandLineTakesOneSweepAndItsRefinementBound) {
  TuneOptions options;
  std::string error;
  ASSERT_TRUE(parseTuneOptions({"--sweep", "n=1024..1048576:6", "--refine", "2"}, &options, &error))
      << error;
  ASSERT_TRUE(options.sweep);
  EXPECT_EQ(options.sweep->count, 6);
  EXPECT_EQ(options.sweep->refinements, 2);
  ASSERT_TRUE(parseTuneOptions({"--refine", "0", "--sweep", "n=1..100"}, &options, &error));
  EXPECT_EQ(options.sweep->refinements, 0) << "in any order";
  EXPECT_FALSE(parseTuneOptions({"--refine", "3"}, &options, &error));
  EXPECT_NE(error.find("--refine needs --sweep"), std::string::npos);
  EXPECT_FALSE(parseTuneOptions({"--sweep", "n=1..9", "--sweep", "m=1..9"}, &options, &error));
  EXPECT_FALSE(parseTuneOptions({"--sweep", "n=1..9", "--refine", "-1"}, &options, &error));
}

TEST(SizeSweep, SizesAreLogSpacedFromLowToHigh) {
  EXPECT_EQ(logSpacedSizes(4096, 268435456, 5),
            (std::vector<long long>{4096, 65536, 1048576, 16777216, 268435456}));
  const std::vector<long long> seven = logSpacedSizes(1000, 1000000000, 7);
  ASSERT_EQ(seven.size(), 7u);
  EXPECT_EQ(seven.front(), 1000);
  EXPECT_EQ(seven[2], 100000);
  EXPECT_EQ(seven.back(), 1000000000);
  // Where rounding makes two values equal, one is kept.
  EXPECT_EQ(logSpacedSizes(1, 3, 7), (std::vector<long long>{1, 2, 3}));
}

model::Candidate mapped() {
  return {Variant::Mapped, 1};
}
model::Candidate streams(int count, IssueOrder order = IssueOrder::DepthFirst) {
  return {Variant::Streams, count, order};
}

// Winners by size: Mapped below `crossover`, Streams(8) from it.
struct ScriptedTuning {
  long long crossover;
  std::vector<long long> tuned;
  std::optional<model::Candidate> operator()(long long value, bool) {
    tuned.push_back(value);
    return value < crossover ? mapped() : streams(8);
  }
};

TEST(SizeSweep, TheCrossoverIsBisectedWithinTheBound) {
  SweepSpec spec;
  spec.parameter = "n";
  spec.low = 1000;
  spec.high = 1000000000;
  spec.count = 7; // 1e3, 1e4, ..., 1e9
  spec.refinements = 3;
  ScriptedTuning tuning{300000, {}};
  const std::vector<SweepPoint> points =
      runSweep(spec, [&](long long v, bool r) { return tuning(v, r); });
  // Between 1e5 (Mapped) and 1e6 (Streams): 316228, then 177828 (Mapped, 1.78x below 316228), then
  // 237137 -- bisected towards 300000.
  ASSERT_EQ(tuning.tuned.size(), 10u);
  EXPECT_EQ(tuning.tuned[7], 316228);
  EXPECT_EQ(tuning.tuned[8], 177828);
  EXPECT_EQ(tuning.tuned[9], 237137);
  ASSERT_EQ(points.size(), 10u);
  for (std::size_t i = 1; i < points.size(); ++i)
    EXPECT_LT(points[i - 1].value, points[i].value);
  int refined = 0;
  for (const SweepPoint& point : points)
    refined += point.refinement ? 1 : 0;
  EXPECT_EQ(refined, 3);
}

TEST(SizeSweep, NothingIsBisectedWhereOneFamilyWins) {
  SweepSpec spec{"n", 1000, 1000000, 4, 4};
  std::vector<long long> tuned;
  // Stream counts differ, the family does not: the dispatch interpolates counts itself.
  runSweep(spec, [&](long long v, bool) -> std::optional<model::Candidate> {
    tuned.push_back(v);
    return streams(v < 50000 ? 2 : 16);
  });
  EXPECT_EQ(tuned.size(), 4u);
}

TEST(SizeSweep, BisectionStopsAtTheNarrowestGapWorthASizeClass) {
  std::vector<SweepPoint> points = {{1000, mapped()}, {1500, streams(4)}};
  EXPECT_FALSE(nextRefinement(points)) << "1.5x apart: the midpoint would share a size class";
  points = {{1000, mapped()}, {2000, streams(4, IssueOrder::BreadthFirst)}};
  EXPECT_EQ(nextRefinement(points), 1414);
  // The widest gap first; a point without a winner is skipped, not a crossover.
  points = {{10, mapped()}, {20, streams(4)}, {30, std::nullopt}, {1000, mapped()}};
  EXPECT_EQ(nextRefinement(points), 141);
  // The issue order is part of the family.
  EXPECT_FALSE(sameFamily(streams(4), streams(4, IssueOrder::BreadthFirst)));
  EXPECT_TRUE(sameFamily(streams(4), streams(32)));
}

CandidateOutcome measured(model::Candidate candidate, double seconds, bool reference = false) {
  CandidateOutcome c;
  c.candidate = candidate;
  c.predictedSeconds = seconds * 0.9;
  c.run = true;
  c.verification = reference ? Verification::Reference : Verification::Passed;
  c.samples = {seconds, seconds, seconds};
  c.timing = summarize(c.samples);
  return c;
}

SweepPointRun point(long long n, double explicitS, double mappedS, double streamsS,
                    bool refinement = false) {
  SweepPointRun p;
  p.value = n;
  p.extent = n;
  p.refinement = refinement;
  p.report = "saxpy.n-" + std::to_string(n) + ".tuning.json";
  TuningRun& run = p.run;
  run.kernel = "saxpy";
  run.device = "NVIDIA H200";
  run.profileName = "h200";
  run.candidates = {measured({}, explicitS, true), measured(mapped(), mappedS),
                    measured(streams(4), streamsS * 1.2), measured(streams(8), streamsS)};
  run.winner = mappedS < streamsS ? 1 : 3;
  return p;
}

SweepRun sampleSweep() {
  SweepRun sweep;
  sweep.kernel = "saxpy";
  sweep.parameter = "n";
  sweep.sweep = "n=4096..16777216:3";
  sweep.refinements = 4;
  sweep.points = {point(4096, 2e-5, 1e-5, 8e-5), point(262144, 4e-4, 3e-4, 5e-4),
                  point(1048576, 1.5e-3, 1.4e-3, 1.1e-3, true),
                  point(16777216, 24e-3, 22e-3, 16e-3)};
  return sweep;
}

TEST(SweepReport, TheJsonHasTheWinnerOfEverySizeAndTheCrossovers) {
  const nlohmann::json j = nlohmann::json::parse(sweepJsonText(sampleSweep()));
  EXPECT_EQ(j.at("schema"), "overlap-sweep-report");
  EXPECT_EQ(j.at("schema_version"), kSweepReportSchemaVersion);
  EXPECT_EQ(j.at("sweep"), "n=4096..16777216:3");
  ASSERT_EQ(j.at("points").size(), 4u);
  EXPECT_EQ(j.at("points")[0].at("winner").at("name"), "Mapped");
  EXPECT_EQ(j.at("points")[2].at("winner").at("name"), "Streams(8, depth-first)");
  EXPECT_TRUE(j.at("points")[2].at("refinement").get<bool>());
  EXPECT_DOUBLE_EQ(j.at("points")[3].at("speedup_over_explicit").get<double>(), 1.5);
  // One best per family: Explicit, Mapped, Streams depth-first (8 beats 4).
  ASSERT_EQ(j.at("points")[3].at("best_of_each_family").size(), 3u);
  EXPECT_EQ(j.at("points")[3].at("best_of_each_family")[2].at("streams"), 8);
  ASSERT_EQ(j.at("crossovers").size(), 1u);
  EXPECT_EQ(j.at("crossovers")[0].at("below"), 262144);
  EXPECT_EQ(j.at("crossovers")[0].at("above"), 1048576);
  EXPECT_EQ(j.at("crossovers")[0].at("to"), "Streams(8, depth-first)");
}

TEST(SweepReport, TheMarkdownTabulatesTheWinnersAndNamesTheCrossover) {
  const std::string text = renderSweepMarkdown(sampleSweep(), "saxpy.sweep.svg");
  EXPECT_NE(text.find("# Sweep report: `saxpy` over `n`"), std::string::npos);
  EXPECT_NE(text.find("| 4096 | 4096 | Mapped | 0.010 | 0.020 | 2.00x |"), std::string::npos)
      << text;
  EXPECT_NE(text.find("| 1048576 (refined) |"), std::string::npos) << text;
  EXPECT_NE(text.find("between n = 262144 (Mapped) and n = 1048576 (Streams(8, depth-first))"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("](saxpy.sweep.svg)"), std::string::npos);
  EXPECT_NE(text.find("[json](saxpy.n-4096.tuning.json)"), std::string::npos);
}

TEST(SweepReport, TheChartBandsEverySizeByItsWinner) {
  const std::string svg = renderCrossoverPlot(sampleSweep());
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
  EXPECT_NE(svg.find("<title>n = 4096: Mapped</title>"), std::string::npos) << svg;
  EXPECT_NE(svg.find("<title>n = 16777216: Streams(8, depth-first)</title>"), std::string::npos);
  EXPECT_NE(svg.find(">Streams, depth-first</text>"), std::string::npos) << "legend";
  // Streams at 4096 is 4x Explicit: drawn at the top edge, not off the chart.
  EXPECT_EQ(svg.find("cy=\"-"), std::string::npos);
}

TEST(SweepReport, AModelOnlySweepShowsThePredictedBest) {
  SweepRun sweep = sampleSweep();
  for (SweepPointRun& p : sweep.points) {
    p.run.modelOnly = true;
    p.run.winner.reset();
    for (CandidateOutcome& c : p.run.candidates) {
      c.run = false;
      c.verification = Verification::NotRun;
    }
  }
  const std::optional<std::size_t> winner = sweepWinner(sweep.points[0].run);
  ASSERT_TRUE(winner);
  EXPECT_EQ(sweep.points[0].run.candidates[*winner].candidate, mapped());
  EXPECT_EQ(crossovers(sweep).size(), 1u);
  EXPECT_NE(renderSweepMarkdown(sweep, "").find("**Nothing was run**"), std::string::npos);
}

} // namespace
} // namespace overlap::tune
