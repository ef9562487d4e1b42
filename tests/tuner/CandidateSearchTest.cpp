// The pruned tuning's search (tuner/tune/CandidateSearch.h) with scripted timings: every family
// is measured even when the model ranks its best last, the local search walks a stream-count
// curve to the measured best and stops there, and the reports say why each candidate ran.
#include "tune/CandidateSearch.h"

#include "CandidateOutcomes.h"
#include "ModelTestProfiles.h"
#include "TunerTestSupport.h"
#include "tune/ReportTable.h"
#include "tune/Tuner.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace overlap::tune {
namespace {

CandidateOutcome predicted(Variant variant, int streams, double seconds, bool kept = false) {
  CandidateOutcome c;
  c.candidate = {variant, streams};
  c.predictedSeconds = seconds;
  c.keptByModel = kept;
  return c;
}

void measure(CandidateOutcome& c, double seconds) {
  testing::recordSamples(c, {seconds, seconds, seconds});
}

TEST(SeedCandidates, ThePrunedSetAndTheBestPredictedOfEveryFamily) {
  std::vector<CandidateOutcome> c = {
      predicted(Variant::Explicit, 1, 20e-3, true), predicted(Variant::Mapped, 1, 30e-3),
      predicted(Variant::Streams, 4, 12e-3),        predicted(Variant::Streams, 8, 10e-3, true),
      predicted(Variant::Hybrid, 4, 14e-3),         predicted(Variant::Hybrid, 8, 13e-3)};
  EXPECT_EQ(seedCandidates(c), (std::vector<std::size_t>{1, 3, 5}));
  EXPECT_EQ(c[3].runReason, "kept by the model");
  EXPECT_NE(c[1].runReason.find("the best predicted of Mapped"), std::string::npos);
  EXPECT_TRUE(c[0].runReason.empty()) << "Explicit is the reference, not a seed";
}

TEST(LeadingMargin, TheModelsMedianErrorOnThisTuningBetweenTheNoiseAndOneHalf) {
  std::vector<CandidateOutcome> c = {predicted(Variant::Explicit, 1, 10e-3),
                                     predicted(Variant::Mapped, 1, 13e-3),
                                     predicted(Variant::Streams, 4, 10e-3)};
  for (CandidateOutcome& k : c)
    measure(k, 10e-3);
  EXPECT_DOUBLE_EQ(leadingMargin(c, 0.02), 0.02) << "median error 0: the noise";
  c[2].predictedSeconds = 12e-3;
  EXPECT_NEAR(leadingMargin(c, 0.02), 0.2, 1e-12);
  c[0].predictedSeconds = 100e-3;
  c[2].predictedSeconds = 100e-3;
  EXPECT_DOUBLE_EQ(leadingMargin(c, 0.02), 0.5);
}

TEST(NextNeighbours, BothStreamCountsBesideTheBestAndTheOtherOrderOfLeadingFamiliesOnly) {
  std::vector<CandidateOutcome> c = {
      predicted(Variant::Explicit, 1, 20e-3), predicted(Variant::Streams, 2, 10e-3),
      predicted(Variant::Streams, 4, 10e-3),  predicted(Variant::Streams, 8, 10e-3),
      predicted(Variant::Streams, 16, 10e-3), predicted(Variant::Hybrid, 4, 10e-3),
      predicted(Variant::Hybrid, 8, 10e-3)};
  c.push_back(predicted(Variant::Streams, 4, 10e-3));
  c.back().candidate.order = IssueOrder::BreadthFirst;
  measure(c[0], 20e-3);
  measure(c[2], 10e-3);
  measure(c[6], 15e-3); // Hybrid 50 % behind: not leading
  EXPECT_EQ(nextNeighbours(c, 0.02), (std::vector<std::size_t>{1, 3, 7}));
  EXPECT_NE(c[1].runReason.find("a neighbour of Streams(4, depth-first)"), std::string::npos);
  EXPECT_TRUE(c[5].runReason.empty());
}

CandidateOutcome chunked(int streams, int chunks, IssueOrder order = IssueOrder::DepthFirst) {
  CandidateOutcome c = predicted(Variant::Streams, streams, 10e-3);
  c.candidate.chunks = chunks;
  c.candidate.order = order;
  return c;
}

TEST(NextNeighbours, ChunkCountsBesideTheBestAndStreamCountsWithAsManyChunksPerStream) {
  std::vector<CandidateOutcome> c = {predicted(Variant::Explicit, 1, 20e-3),
                                     chunked(4, 0),
                                     chunked(4, 8),
                                     chunked(4, 16),
                                     chunked(4, 32),
                                     chunked(2, 0),
                                     chunked(2, 8),
                                     chunked(8, 32),
                                     chunked(8, 0),
                                     chunked(4, 16, IssueOrder::BreadthFirst),
                                     chunked(2, 4)};
  measure(c[0], 20e-3);
  measure(c[3], 10e-3); // Streams(4, 16 chunks)
  // Chunks 8 and 32 on 4 streams; 2 and 8 streams with 4 chunks each; the other order. Not one
  // chunk per stream (two steps down), nor 2 streams with 2 chunks each.
  EXPECT_EQ(nextNeighbours(c, 0.02), (std::vector<std::size_t>{2, 4, 6, 7, 9}));
  EXPECT_NE(c[2].runReason.find("a neighbour of Streams(4, 16 chunks, depth-first)"),
            std::string::npos);
  // From one chunk per stream the chunk axis goes up only.
  std::vector<CandidateOutcome> d = {predicted(Variant::Explicit, 1, 20e-3),
                                     chunked(4, 0),
                                     chunked(4, 8),
                                     chunked(4, 16),
                                     chunked(2, 0),
                                     chunked(2, 4)};
  measure(d[0], 20e-3);
  measure(d[1], 10e-3);
  EXPECT_EQ(nextNeighbours(d, 0.02), (std::vector<std::size_t>{2, 4}));
}

// Through the tuner: a model that ranks Mapped last and keeps Streams(64) only, on a machine
// where Mapped measures fastest and Streams is best at 8 streams.
class CandidateSearchThroughTheTuner : public ::testing::Test {
protected:
  CandidateSearchThroughTheTuner() {
    setup_.header.kernel = "saxpy";
    setup_.header.device = "Fake GPU";
    setup_.profile = &profile_;
    setup_.model = model_.get();
    setup_.workload = testing::saxpyWorkload();
    options_.timing.warmup = 0;
    options_.finalRounds = 0;
  }
  HardwareProfile profile_ = model::testing::h100Like();
  std::unique_ptr<model::PerformanceModel> model_ = model::makeModel(model::ModelKind::Modern);
  TuningSetup setup_;
  TunerOptions options_;
};

TEST_F(CandidateSearchThroughTheTuner, AFamilyTheModelMispricesIsStillMeasuredAndCanWin) {
  testing::FakeRunner runner([](const model::Candidate& k) {
    switch (k.variant) {
    case Variant::Explicit:
      return 20e-3;
    case Variant::Mapped:
      return 8e-3; // the model predicts it far slower
    default:
      return 12e-3 + 0.2e-3 * std::abs(std::log2(k.streams) - 3);
    }
  });
  const TuningRun run = tune(runner, setup_, options_, TuningCache(""), [](const std::string&) {});
  ASSERT_TRUE(run.winner);
  EXPECT_EQ(run.candidates[*run.winner].candidate.variant, Variant::Mapped);
  EXPECT_NE(run.candidates[*run.find({Variant::Mapped, 1})].runReason.find("best predicted"),
            std::string::npos);
}

TEST_F(CandidateSearchThroughTheTuner, TheLocalSearchWalksTheCurveToTheMeasuredBestAndStops) {
  // Streams fastest at 4 streams, Mapped and Hybrid far behind: whatever stream count the model
  // keeps, the search walks there, and it runs only a few candidates beyond the path.
  testing::FakeRunner runner([](const model::Candidate& k) {
    switch (k.variant) {
    case Variant::Explicit:
      return 20e-3;
    case Variant::Mapped:
      return 30e-3;
    case Variant::Hybrid:
      return 25e-3;
    default:
      return (10e-3 + 0.5e-3 * std::abs(std::log2(k.streams) - 2)) *
             (k.order == IssueOrder::BreadthFirst ? 1.01 : 1.0);
    }
  });
  const TuningRun run = tune(runner, setup_, options_, TuningCache(""), [](const std::string&) {});
  ASSERT_TRUE(run.winner);
  EXPECT_EQ(model::describe(run.candidates[*run.winner].candidate), "Streams(4, depth-first)");
  EXPECT_LT(run.runCount(), static_cast<int>(run.candidates.size()))
      << "a local search, not the whole grid";
  const ReportTable table = candidateTable(run, false);
  ASSERT_EQ(table.header.back(), "why run");
  for (std::size_t row = 0; row < table.rows.size(); ++row) {
    const CandidateOutcome& c = run.candidates[table.candidateOfRow[row]];
    if (!c.run) {
      EXPECT_NE(table.rows[row].back().find("over the best prediction, and no family's "
                                            "measured best beside it"),
                std::string::npos)
          << table.rows[row].back();
    } else if (c.candidate != model::Candidate{}) {
      EXPECT_FALSE(c.runReason.empty()) << model::describe(c.candidate);
    }
  }
}

TEST_F(CandidateSearchThroughTheTuner, TheLocalSearchWalksTheChunkCountsToo) {
  // Streams fastest at 4 streams with 8 chunks each, every step away 4 % slower: wherever the
  // model starts, the search walks both axes there.
  testing::FakeRunner runner([](const model::Candidate& k) {
    switch (k.variant) {
    case Variant::Explicit:
      return 20e-3;
    case Variant::Mapped:
      return 30e-3;
    case Variant::Hybrid:
      return 25e-3;
    default:
      break;
    }
    const double perStream = static_cast<double>(model::askedChunks(k)) / k.streams;
    return 10e-3 *
           (1 + 0.04 * (std::abs(std::log2(k.streams) - 2) + std::abs(std::log2(perStream) - 3))) *
           (k.order == IssueOrder::BreadthFirst ? 1.05 : 1.0);
  });
  const TuningRun run = tune(runner, setup_, options_, TuningCache(""), [](const std::string&) {});
  ASSERT_TRUE(run.winner);
  EXPECT_EQ(model::describe(run.candidates[*run.winner].candidate),
            "Streams(4, 32 chunks, depth-first)");
  EXPECT_LT(run.runCount(), static_cast<int>(run.candidates.size()) / 2)
      << "a local search, not the whole grid";
}

} // namespace
} // namespace overlap::tune
