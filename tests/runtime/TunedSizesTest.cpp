// The rule that picks a tuned size's winner for a call of any size (overlap/TunedSizes.h): at,
// between and beyond the tuned sizes, with one size, with and without a model, over a scripted
// predictor.
#include "overlap/TunedSizes.h"

#include <gtest/gtest.h>

#include <functional>
#include <vector>

namespace {

using overlap::IssueOrder;
using overlap::RunConfig;
using overlap::TunedSize;
using overlap::Variant;

TunedSize size(long long extent, Variant variant, int streams = 1,
               IssueOrder order = IssueOrder::DepthFirst, double measured = 1e-3,
               double predicted = 1e-3, double kernel = 1e-4) {
  return {extent, variant, streams, order, measured, predicted, kernel};
}

// Predicts what `time` says of each configuration and records what it was asked.
class ScriptedModel final : public overlap::SizePredictor {
public:
  explicit ScriptedModel(std::function<std::optional<double>(const RunConfig&)> time)
      : time_(std::move(time)) {}
  std::vector<std::optional<double>> predict(const std::vector<RunConfig>& configs,
                                             double kernelSeconds) override {
    ++calls;
    asked = configs;
    askedKernelSeconds = kernelSeconds;
    std::vector<std::optional<double>> seconds;
    for (const RunConfig& config : configs)
      seconds.push_back(time_(config));
    return seconds;
  }
  int calls = 0;
  std::vector<RunConfig> asked;
  double askedKernelSeconds = -1;

private:
  std::function<std::optional<double>(const RunConfig&)> time_;
};

overlap::SizeChoice choose(const std::vector<TunedSize>& sizes, long long extent,
                           overlap::SizePredictor* model = nullptr, long long granules = -1) {
  return overlap::chooseBySize(sizes.data(), static_cast<int>(sizes.size()), extent,
                               granules < 0 ? extent : granules, model);
}

const std::vector<TunedSize> kThreeSizes = {
    size(1000, Variant::Mapped), size(100000, Variant::Streams, 8),
    size(10000000, Variant::Hybrid, 16, IssueOrder::BreadthFirst)};

TEST(TunedSizes, AtATunedSizeItsWinnerRuns) {
  ScriptedModel model([](const RunConfig&) { return 1.0; });
  const overlap::SizeChoice choice = choose(kThreeSizes, 100000, &model);
  EXPECT_EQ(choice.config.variant, Variant::Streams);
  EXPECT_EQ(choice.config.streams.streams, 8);
  EXPECT_EQ(model.calls, 0) << "a tuned size needs no prediction";
  EXPECT_NE(choice.reason.find("tuned at P = 100000"), std::string::npos) << choice.reason;
  EXPECT_EQ(choose(kThreeSizes, 10000000).config.streams.order, IssueOrder::BreadthFirst);
}

TEST(TunedSizes, AWinnersPageableModeIsPartOfIt) {
  TunedSize registered = size(1000, Variant::Streams, 4);
  TunedSize staged = size(4000, Variant::Streams, 4);
  staged.pageable = overlap::PageableMode::Stage;
  const std::vector<TunedSize> sizes = {registered, staged};
  EXPECT_EQ(choose(sizes, 4000).config.streams.pageable, overlap::PageableMode::Stage);
  EXPECT_EQ(choose(sizes, 1000).config.streams.pageable, overlap::PageableMode::Default);
  // Between them the winners differ: the model (here: staged faster) decides, not "the same".
  ScriptedModel model([](const RunConfig& c) {
    return c.streams.pageable == overlap::PageableMode::Stage ? 1e-3 : 2e-3;
  });
  const overlap::SizeChoice between = choose(sizes, 2000, &model);
  EXPECT_EQ(between.config.streams.pageable, overlap::PageableMode::Stage) << between.reason;
  EXPECT_EQ(between.reason.find("the same winner"), std::string::npos) << between.reason;
}

TEST(TunedSizes, BetweenTwoSizesWithOneWinnerThatWinnerRuns) {
  const std::vector<TunedSize> sizes = {size(1000, Variant::Streams, 4),
                                        size(4000, Variant::Streams, 4)};
  ScriptedModel model([](const RunConfig&) { return 1.0; });
  const overlap::SizeChoice choice = choose(sizes, 2000, &model);
  EXPECT_EQ(choice.config.variant, Variant::Streams);
  EXPECT_EQ(choice.config.streams.streams, 4);
  EXPECT_EQ(model.calls, 0);
}

TEST(TunedSizes, WithoutAModelTheNearerSizeOnALogScaleWins) {
  // 9000 is 9x above 1000 and 11.1x below 100000; 11000 is 11x and 9.1x; 10000 is halfway.
  EXPECT_EQ(choose(kThreeSizes, 9000).config.variant, Variant::Mapped);
  EXPECT_EQ(choose(kThreeSizes, 11000).config.variant, Variant::Streams);
  EXPECT_EQ(choose(kThreeSizes, 10000).config.variant, Variant::Mapped) << "the smaller at a tie";
  EXPECT_NE(choose(kThreeSizes, 9000).reason.find("nearer on a log scale"), std::string::npos);
}

TEST(TunedSizes, BetweenDifferentWinnersTheScaledPredictionDecides) {
  // Mapped measured twice its prediction at 1000, Streams(8) exactly its prediction at 100000.
  const std::vector<TunedSize> sizes = {
      size(1000, Variant::Mapped, 1, IssueOrder::DepthFirst, 2e-3, 1e-3, 1e-3),
      size(100000, Variant::Streams, 8, IssueOrder::DepthFirst, 10e-3, 10e-3, 100e-3)};
  // At 5000 the model predicts Mapped 3 ms and Streams 5 ms: unscaled Mapped wins (and is the
  // nearer size); scaled, Mapped's 6 ms loses to Streams' 5 ms.
  ScriptedModel model(
      [](const RunConfig& c) { return c.variant == Variant::Mapped ? 3e-3 : 5e-3; });
  const overlap::SizeChoice choice = choose(sizes, 5000, &model);
  EXPECT_EQ(choice.config.variant, Variant::Streams) << choice.reason;
  EXPECT_EQ(choice.config.streams.streams, 8);
  ASSERT_EQ(model.asked.size(), 2u);
  EXPECT_EQ(model.asked[0].variant, Variant::Mapped);
  EXPECT_EQ(model.asked[1].variant, Variant::Streams);
  // t_E linear in P between the two: 1 ms + (4000 / 99000) * 99 ms = 5 ms.
  EXPECT_NEAR(model.askedKernelSeconds, 5e-3, 1e-9);
  EXPECT_NE(choice.reason.find("measured/predicted"), std::string::npos) << choice.reason;

  // The other way round the model keeps Mapped.
  ScriptedModel favoursMapped(
      [](const RunConfig& c) { return c.variant == Variant::Mapped ? 1e-3 : 5e-3; });
  EXPECT_EQ(choose(sizes, 50000, &favoursMapped).config.variant, Variant::Mapped);
}

TEST(TunedSizes, BetweenTwoCountsOfOneFamilyTheModelPicksACountBetween) {
  // Streams depth-first with 4 streams at 1000 and 32 at 10^6 (matmul on an H100: 7 and 24, where
  // 8-16 ran 1.09-1.15x faster between them than either).
  const std::vector<TunedSize> sizes = {size(1000, Variant::Streams, 4),
                                        size(1000000, Variant::Streams, 32)};
  // 16 predicted fastest, 8 within kModelTie of it, 4 and 32 not.
  const double tie = overlap::kModelTie;
  ScriptedModel model([tie](const RunConfig& c) {
    switch (c.streams.streams) {
    case 16:
      return 1.0;
    case 8:
      return 1.0 + tie / 2;
    default:
      return 1.0 + 3 * tie;
    }
  });
  const overlap::SizeChoice choice = choose(sizes, 30000, &model);
  EXPECT_EQ(choice.config.variant, Variant::Streams);
  EXPECT_EQ(choice.config.streams.order, IssueOrder::DepthFirst);
  EXPECT_EQ(choice.config.streams.streams, 8) << choice.reason;
  std::vector<int> asked;
  for (const RunConfig& c : model.asked)
    asked.push_back(c.streams.streams);
  EXPECT_EQ(asked, (std::vector<int>{4, 8, 16, 32}));
  EXPECT_NE(choice.reason.find("fewest streams"), std::string::npos) << choice.reason;

  // Another issue order is another family: the scaled prediction picks one of the two.
  const std::vector<TunedSize> orders = {
      size(1000, Variant::Streams, 4),
      size(1000000, Variant::Streams, 32, IssueOrder::BreadthFirst)};
  ScriptedModel flat([](const RunConfig&) { return 1.0; });
  const overlap::SizeChoice other = choose(orders, 30000, &flat);
  EXPECT_TRUE(other.config.streams.streams == 4 || other.config.streams.streams == 32);
  EXPECT_EQ(flat.asked.size(), 2u);
}

TunedSize withChunks(TunedSize size, int chunks) {
  size.chunks = chunks;
  return size;
}

TEST(TunedSizes, ASplitWinnerRunsSplit) {
  TunedSize split = size(1000000, Variant::Mapped, 1);
  split.devices = 2;
  const std::vector<TunedSize> sizes = {size(1000, Variant::Mapped, 1), split};
  EXPECT_EQ(choose(sizes, 1000000).config.streams.devices, 2);
  EXPECT_EQ(choose(sizes, 1000).config.streams.devices, 1);
  // Mapped on one GPU and on two are not one winner: between them the model decides.
  ScriptedModel model([](const RunConfig& c) { return c.streams.devices == 2 ? 1.0 : 2.0; });
  EXPECT_EQ(choose(sizes, 30000, &model).config.streams.devices, 2);
}

TEST(TunedSizes, AGraphWinnerRunsAsAGraph) {
  TunedSize graph = size(1000000, Variant::Streams, 4);
  graph.graph = true;
  const std::vector<TunedSize> sizes = {size(1000, Variant::Streams, 4), graph};
  EXPECT_TRUE(choose(sizes, 1000000).config.streams.graph);
  EXPECT_FALSE(choose(sizes, 1000).config.streams.graph);
  // Streams(4) plain and as a graph are not one winner: between them the model decides.
  ScriptedModel model([](const RunConfig& c) { return c.streams.graph ? 1.0 : 2.0; });
  EXPECT_TRUE(choose(sizes, 30000, &model).config.streams.graph);
}

TEST(TunedSizes, AWinnersChunksRunWithIt) {
  // Tuned: 4 streams of 8 chunks each at 10^6, one chunk per stream at 1000.
  const std::vector<TunedSize> sizes = {size(1000, Variant::Streams, 4),
                                        withChunks(size(1000000, Variant::Streams, 4), 32)};
  const overlap::SizeChoice at = choose(sizes, 1000000);
  EXPECT_EQ(at.config.streams.streams, 4);
  EXPECT_EQ(at.config.streams.chunks, 32);
  EXPECT_NE(at.reason.find("Streams(4, 32 chunks, depth-first)"), std::string::npos) << at.reason;
  EXPECT_EQ(choose(sizes, 1000).config.streams.chunks, 0);
  // The same variant, order and streams, but not the same chunks: not one winner between them.
  ScriptedModel model([](const RunConfig& c) { return c.streams.chunks > 0 ? 1.0 : 2.0; });
  const overlap::SizeChoice between = choose(sizes, 30000, &model);
  EXPECT_EQ(between.config.streams.chunks, 32) << between.reason;
  EXPECT_EQ(model.asked.size(), 2u) << "the two winners compared, no counts between them";
  // Explicit and Mapped have none, whatever the file said.
  EXPECT_EQ(choose({withChunks(size(1000, Variant::Mapped), 8)}, 1000).config.streams.chunks, 0);
}

TEST(TunedSizes, AStagedWinnersStagingThreadsRunWithIt) {
  // As overlap-bake writes it: positional, the threads after chunks, devices and graph.
  const TunedSize staged = {1000000, Variant::Streams,
                            4,       IssueOrder::DepthFirst,
                            1e-3,    1e-3,
                            1e-4,    overlap::PageableMode::Stage,
                            0,       1,
                            false,   12};
  EXPECT_EQ(staged.stagingThreads, 12);
  const std::vector<TunedSize> sizes = {size(1000, Variant::Streams, 4), staged};
  const overlap::SizeChoice at = choose(sizes, 1000000);
  EXPECT_EQ(at.config.streams.staging.threads, 12);
  EXPECT_EQ(at.config.streams.staging.slotBytes, 0u) << "the ring's slots stay automatic";
  EXPECT_EQ(at.config.streams.staging.slots, 0);
  EXPECT_EQ(choose(sizes, 1000).config.streams.staging.threads, 0);
  // The same variant, order and streams, but not the same threads: not one winner between them,
  // nor one family.
  ScriptedModel model(
      [](const RunConfig& c) { return c.streams.staging.threads == 12 ? 1.0 : 2.0; });
  const overlap::SizeChoice between = choose(sizes, 30000, &model);
  EXPECT_EQ(between.config.streams.staging.threads, 12) << between.reason;
  EXPECT_EQ(model.asked.size(), 2u) << "the two winners compared, no counts between them";
  // At the other stream counts the rule tries, the winner keeps its threads.
  ScriptedModel beyondModel([](const RunConfig& c) { return c.streams.streams == 16 ? 1.0 : 2.0; });
  const overlap::SizeChoice beyond = choose({staged}, 100000000, &beyondModel);
  EXPECT_EQ(beyond.config.streams.streams, 16);
  EXPECT_EQ(beyond.config.streams.staging.threads, 12);
  for (const RunConfig& asked : beyondModel.asked)
    EXPECT_EQ(asked.streams.staging.threads, 12);
  // Explicit and Mapped have none, whatever the file said.
  TunedSize mapped = size(1000, Variant::Mapped);
  mapped.stagingThreads = 8;
  EXPECT_EQ(choose({mapped}, 1000).config.streams.staging.threads, 0);
  TunedSize explicitCopy = size(1000, Variant::Explicit);
  explicitCopy.stagingThreads = 8;
  EXPECT_EQ(choose({explicitCopy}, 1000).config.streams.staging.threads, 0);
}

TEST(TunedSizes, OtherStreamCountsKeepTheWinnersChunksPerStream) {
  // Beyond 10^6: 4 streams with 8 chunks each, the model asked about 4, 8, ... 64 streams, each
  // with 8 chunks per stream; it finds 16 fastest.
  const std::vector<TunedSize> sizes = {withChunks(size(1000000, Variant::Hybrid, 4), 32)};
  ScriptedModel model([](const RunConfig& c) { return c.streams.streams == 16 ? 1.0 : 2.0; });
  const overlap::SizeChoice beyond = choose(sizes, 100000000, &model);
  EXPECT_EQ(beyond.config.streams.streams, 16);
  EXPECT_EQ(beyond.config.streams.chunks, 128);
  ASSERT_FALSE(model.asked.empty());
  for (const RunConfig& asked : model.asked)
    EXPECT_EQ(asked.streams.chunks, 8 * asked.streams.streams);
  // Between two counts of one family with as many chunks per stream: the counts between too.
  const std::vector<TunedSize> family = {withChunks(size(1000, Variant::Streams, 2), 8),
                                         withChunks(size(1000000, Variant::Streams, 8), 32)};
  ScriptedModel middle([](const RunConfig& c) { return c.streams.streams == 4 ? 1.0 : 2.0; });
  const overlap::SizeChoice choice = choose(family, 30000, &middle);
  EXPECT_EQ(choice.config.streams.streams, 4) << choice.reason;
  EXPECT_EQ(choice.config.streams.chunks, 16) << choice.reason;
}

TEST(TunedSizes, AModelThatCannotCompareLeavesItToTheNearerSize) {
  ScriptedModel blind([](const RunConfig& c) -> std::optional<double> {
    if (c.variant == Variant::Mapped)
      return std::nullopt;
    return 1e-9;
  });
  EXPECT_EQ(choose(kThreeSizes, 9000, &blind).config.variant, Variant::Mapped);
  // A size without a prediction has no measured/predicted ratio: nearer too, model not asked.
  std::vector<TunedSize> unpredicted = kThreeSizes;
  unpredicted[0].predictedSeconds = 0;
  ScriptedModel model([](const RunConfig&) { return 1.0; });
  EXPECT_EQ(choose(unpredicted, 9000, &model).config.variant, Variant::Mapped);
  EXPECT_EQ(model.calls, 0);
}

TEST(TunedSizes, BeyondTheTunedSizesTheFamilyRunsWithTheModelsStreamCount) {
  // Above 10M: Hybrid breadth-first as tuned there, at the count the model finds fastest (32).
  ScriptedModel model(
      [](const RunConfig& c) { return 1.0 + (c.streams.streams == 32 ? -0.5 : 0); });
  const overlap::SizeChoice choice = choose(kThreeSizes, 80000000, &model);
  EXPECT_EQ(choice.config.variant, Variant::Hybrid);
  EXPECT_EQ(choice.config.streams.order, IssueOrder::BreadthFirst);
  EXPECT_EQ(choice.config.streams.streams, 32);
  ASSERT_FALSE(model.asked.empty());
  for (const RunConfig& asked : model.asked) {
    EXPECT_EQ(asked.variant, Variant::Hybrid);
    EXPECT_EQ(asked.streams.order, IssueOrder::BreadthFirst);
  }
  // The tuned winner's 16 streams and the powers of two above.
  EXPECT_EQ(model.asked.front().streams.streams, 16);
  EXPECT_EQ(model.asked.back().streams.streams, overlap::kMaxModelStreams);
  // t_E in proportion to P from the nearest size: 1e-4 s at 10M, 8e-4 s at 80M.
  EXPECT_NEAR(model.askedKernelSeconds, 8e-4, 1e-12);
  EXPECT_NE(choice.reason.find("beyond the tuned sizes"), std::string::npos) << choice.reason;
}

TEST(TunedSizes, BeyondTheTunedSizesTheFewestStreamsWithinTheModelsTieWin) {
  // 64 streams predicted fastest, 32 within kModelTie of it, 16 not.
  const double tie = overlap::kModelTie;
  ScriptedModel model([tie](const RunConfig& c) {
    return c.streams.streams == 64 ? 1.0 : c.streams.streams == 32 ? 1.0 + tie / 2 : 1.0 + 2 * tie;
  });
  EXPECT_EQ(choose(kThreeSizes, 80000000, &model).config.streams.streams, 32);
}

TEST(TunedSizes, BeyondTheTunedSizesTheCountMovesOnlyAwayFromTheWinners) {
  // The model prefers one stream everywhere: above the largest size the winner's 16 stay, below
  // the smallest streamed size every count up to its winner's is asked.
  ScriptedModel model([](const RunConfig& c) { return static_cast<double>(c.streams.streams); });
  EXPECT_EQ(choose(kThreeSizes, 80000000, &model).config.streams.streams, 16);
  const std::vector<TunedSize> sizes = {size(100000, Variant::Streams, 8)};
  const overlap::SizeChoice below = choose(sizes, 5000, &model);
  EXPECT_EQ(below.config.streams.streams, 1);
  ASSERT_FALSE(model.asked.empty());
  EXPECT_EQ(model.asked.back().streams.streams, 8);
  for (const RunConfig& asked : model.asked)
    EXPECT_LE(asked.streams.streams, 8);
}

TEST(TunedSizes, TheModelIsAskedOnlyForStreamCountsTheCallCanHave) {
  const std::vector<TunedSize> sizes = {size(1000, Variant::Streams, 16)};
  ScriptedModel model([](const RunConfig& c) { return 1.0 / c.streams.streams; });
  const overlap::SizeChoice choice = choose(sizes, 100, &model, /*granules=*/3);
  EXPECT_EQ(choice.config.streams.streams, 2) << "powers of two up to 3 chunks: 1 and 2";
  for (const RunConfig& asked : model.asked)
    EXPECT_LE(asked.streams.streams, 3);
  EXPECT_NE(choice.reason.find("below the tuned sizes"), std::string::npos) << choice.reason;
}

TEST(TunedSizes, BeyondWithoutAModelOrForAnUnstreamedWinnerTheNearestRunsAsItIs) {
  const overlap::SizeChoice below = choose(kThreeSizes, 10);
  EXPECT_EQ(below.config.variant, Variant::Mapped);
  const overlap::SizeChoice above = choose(kThreeSizes, 1LL << 40);
  EXPECT_EQ(above.config.variant, Variant::Hybrid);
  EXPECT_EQ(above.config.streams.streams, 16);
  ScriptedModel model([](const RunConfig&) { return 1.0; });
  EXPECT_EQ(choose(kThreeSizes, 10, &model).config.variant, Variant::Mapped);
  EXPECT_EQ(model.calls, 0) << "Mapped has no stream count to choose";
}

TEST(TunedSizes, OneTunedSizeServesEverySize) {
  const std::vector<TunedSize> one = {size(4096, Variant::Streams, 4)};
  for (const long long extent : {1LL, 4095LL, 4096LL, 4097LL, 1LL << 30}) {
    const overlap::SizeChoice choice = choose(one, extent);
    EXPECT_EQ(choice.config.variant, Variant::Streams) << extent;
    EXPECT_EQ(choice.config.streams.streams, 4) << extent;
  }
}

TEST(TunedSizes, ExplicitAndMappedRunWithOneStream) {
  const std::vector<TunedSize> sizes = {size(1000, Variant::Mapped, 7)};
  EXPECT_EQ(choose(sizes, 1000).config.streams.streams, 1);
}

} // namespace
