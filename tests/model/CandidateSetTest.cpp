// Candidate enumeration and pruning, with a scripted model so that every kept or pruned row is
// decided by numbers the test states.
#include "model/CandidateSet.h"

#include "ModelTestProfiles.h"
#include "model/ModernModel.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>

namespace overlap::model {
namespace {

using Counts = std::vector<int>;

TEST(CandidateStreamCounts, PowersOfTwoAndDivisorsUpToTheBound) {
  EXPECT_EQ(candidateStreamCounts(12, 64), (Counts{1, 2, 3, 4, 6, 8, 12}));
  EXPECT_EQ(candidateStreamCounts(42, 64), (Counts{1, 2, 3, 4, 6, 7, 8, 14, 16, 21, 32, 42}));
  EXPECT_EQ(candidateStreamCounts(42, 16), (Counts{1, 2, 3, 4, 6, 7, 8, 14, 16}));
  EXPECT_EQ(candidateStreamCounts(1LL << 26, 64), (Counts{1, 2, 4, 8, 16, 32, 64}));
  EXPECT_EQ(candidateStreamCounts(1009, 64), (Counts{1, 2, 4, 8, 16, 32, 64})); // a prime
  EXPECT_EQ(candidateStreamCounts(5, 64), (Counts{1, 2, 4, 5}));
  EXPECT_EQ(candidateStreamCounts(1, 64), (Counts{1}));
  EXPECT_EQ(candidateStreamCounts(0, 16), (Counts{1, 2, 4, 8, 16})); // extent unknown
}

// A model whose predictions and issue-order behaviour the test scripts.
class ScriptedModel final : public PerformanceModel {
public:
  std::function<std::optional<double>(const Candidate&)> seconds;
  bool ordersDiffer = false;

  std::string name() const override { return "scripted"; }
  std::optional<double> predictSeconds(const HardwareProfile&, const Workload&,
                                       const Candidate& candidate) const override {
    return seconds(candidate);
  }
  bool distinguishesIssueOrder(const HardwareProfile&, int streams) const override {
    return ordersDiffer && streams > 1;
  }
};

Workload saxpyLike(long long extent) {
  Workload workload;
  workload.partition.extent = extent;
  workload.transfers.h2dBytes = 8 * extent;
  workload.transfers.d2hBytes = 4 * extent;
  workload.launch.kernelSeconds = 1e-3;
  return workload;
}

const PredictedCandidate& row(const Prediction& prediction, Variant variant, int streams = 1,
                              IssueOrder order = IssueOrder::DepthFirst) {
  for (const PredictedCandidate& r : prediction.rows)
    if (r.candidate == Candidate{variant, streams, order})
      return r;
  throw std::logic_error("no such row");
}

TEST(Enumeration, BothOrdersOnlyWhereTheModelDistinguishesThem) {
  ScriptedModel model;
  model.seconds = [](const Candidate&) { return 1.0; };
  const HardwareProfile profile = testing::h100Like();
  SearchOptions options;
  options.maxStreams = 4;
  options.maxChunksPerStream = 1; // one chunk per stream (ChunkCountTest.cpp has the others)
  // Counts 1, 2, 4: Explicit, Mapped, then Streams and Hybrid for each.
  EXPECT_EQ(enumerateCandidates(model, profile, saxpyLike(1 << 20), options).size(), 2u + 2 * 3);
  model.ordersDiffer = true; // breadth-first added for 2 and 4
  const std::vector<Candidate> both =
      enumerateCandidates(model, profile, saxpyLike(1 << 20), options);
  EXPECT_EQ(both.size(), 2u + 2 * 5);
  EXPECT_EQ(both[0], (Candidate{Variant::Explicit, 1, IssueOrder::DepthFirst}));
  EXPECT_EQ(both[1], (Candidate{Variant::Mapped, 1, IssueOrder::DepthFirst}));
  EXPECT_EQ(both[3], (Candidate{Variant::Streams, 2, IssueOrder::DepthFirst}));
  EXPECT_EQ(both[4], (Candidate{Variant::Streams, 2, IssueOrder::BreadthFirst}));
}

// The graph forms: a twin of every Streams and Hybrid candidate, on pinned arrays that fit the
// device only, never split, and simpler plain than as a graph among equal predictions.
TEST(Enumeration, GraphFormsTwinTheStreamedCandidatesOnPinnedArrays) {
  ScriptedModel model;
  model.seconds = [](const Candidate&) { return 1.0; };
  const HardwareProfile profile = testing::h100Like();
  SearchOptions options;
  options.maxStreams = 4;
  options.maxChunksPerStream = 1;
  options.graphs = true;
  Workload workload = saxpyLike(1 << 20);
  workload.transfers.d2hBytes = 4 * (1 << 20); // pure outputs: Hybrid too
  const std::vector<Candidate> candidates = enumerateCandidates(model, profile, workload, options);
  ASSERT_EQ(candidates.size(), 2u + 2 * (2 * 3));
  int graphs = 0;
  for (const Candidate& c : candidates) {
    if (!c.graph)
      continue;
    ++graphs;
    EXPECT_TRUE(c.variant == Variant::Streams || c.variant == Variant::Hybrid) << describe(c);
    Candidate plain = c;
    plain.graph = false;
    EXPECT_NE(std::find(candidates.begin(), candidates.end(), plain), candidates.end())
        << describe(c);
    EXPECT_EQ(describe(c).rfind("Graph-", 0), 0u) << describe(c);
  }
  EXPECT_EQ(graphs, 2 * 3);

  options.devices = 2;
  for (const Candidate& c : enumerateCandidates(model, profile, workload, options))
    EXPECT_FALSE(c.graph && c.devices != 1) << describe(c);
  options.devices = 1;
  workload.transfers.hostMemoryPinned = false;
  for (const Candidate& c : enumerateCandidates(model, profile, workload, options))
    EXPECT_FALSE(c.graph) << describe(c);

  workload.transfers.hostMemoryPinned = true;
  const Prediction prediction = [&] {
    Prediction p;
    for (const Candidate& c : enumerateCandidates(model, profile, workload, options))
      p.rows.push_back({c, 1.0, false});
    selectPrunedSet(p, false, true, options);
    return p;
  }();
  ASSERT_TRUE(prediction.best);
  EXPECT_FALSE(prediction.rows[*prediction.best].candidate.graph);
}

TEST(Enumeration, HybridOnlyWithPureOutputs) {
  ScriptedModel model;
  model.seconds = [](const Candidate&) { return 1.0; };
  Workload workload = saxpyLike(1 << 20);
  workload.transfers.inoutD2hBytes =
      workload.transfers.d2hBytes; // y = a·x + y: the only output is in-out
  for (const Candidate& candidate :
       enumerateCandidates(model, testing::h100Like(), workload, SearchOptions{}))
    EXPECT_NE(candidate.variant, Variant::Hybrid);
}

TEST(Enumeration, StreamCountsFollowTheGranules) {
  // 48 elements in granules of 4: 12 chunks at most, equal for the divisors of 12.
  ScriptedModel model;
  model.seconds = [](const Candidate&) { return 1.0; };
  Workload workload = saxpyLike(48);
  workload.transfers.inoutD2hBytes = workload.transfers.d2hBytes; // Streams only
  workload.partition.granule = 4;
  Counts streams;
  for (const Candidate& candidate :
       enumerateCandidates(model, testing::h100Like(), workload, SearchOptions{}))
    if (candidate.variant == Variant::Streams)
      streams.push_back(candidate.streams);
  EXPECT_EQ(streams, (Counts{1, 2, 3, 4, 6, 8, 12}));
}

// Explicit 10, Mapped 6, Streams 4 + 1/n + 0.01·n (best at n = 8), Hybrid one second slower
// than Streams.
std::optional<double> scriptedTimes(const Candidate& candidate) {
  switch (candidate.variant) {
  case Variant::Explicit:
    return 10.0;
  case Variant::Mapped:
    return 6.0;
  case Variant::Streams:
    return 4 + 1.0 / candidate.streams + 0.01 * candidate.streams;
  case Variant::Hybrid:
    return 5 + 1.0 / candidate.streams + 0.01 * candidate.streams;
  }
  return std::nullopt;
}

TEST(Pruning, KeepsCandidatesWithinBothTolerancesAndExplicit) {
  ScriptedModel model;
  model.seconds = scriptedTimes;
  SearchOptions options;
  options.tolerance = 0.30;
  options.streamTolerance = 0.03;
  options.maxChunksPerStream = 1; // the scripted times know no chunks
  const Prediction prediction = predict(model, testing::h100Like(), saxpyLike(1 << 20), options);
  // Streams: n = 8 gives 4.205, n = 16 gives 4.2225, n = 4 gives 4.29, n = 32 gives 4.35125.
  ASSERT_TRUE(prediction.best);
  EXPECT_EQ(prediction.rows[*prediction.best].candidate,
            (Candidate{Variant::Streams, 8, IssueOrder::DepthFirst}));
  EXPECT_TRUE(row(prediction, Variant::Explicit).kept); // 10: far off, kept as the reference
  EXPECT_FALSE(row(prediction, Variant::Mapped).kept);  // 6 > 4.205 · 1.3
  EXPECT_TRUE(row(prediction, Variant::Streams, 8).kept);
  EXPECT_TRUE(row(prediction, Variant::Streams, 16).kept);  // within 3 % of its variant's best
  EXPECT_TRUE(row(prediction, Variant::Streams, 4).kept);   // 4.29 / 4.205 = 1.020
  EXPECT_FALSE(row(prediction, Variant::Streams, 32).kept); // 1.035
  EXPECT_FALSE(row(prediction, Variant::Streams, 2).kept);
  // Hybrid's best, 5.205, is within 30 % of 4.205; the rest of its curve follows its own best:
  // 4 (5.29), 16 (5.2225) and 32 (5.35125) are within 3 % of it, 2 (5.52) is not, and 64
  // (5.6556) is not within 30 % of the overall best.
  EXPECT_TRUE(row(prediction, Variant::Hybrid, 8).kept);
  EXPECT_TRUE(row(prediction, Variant::Hybrid, 4).kept);
  EXPECT_TRUE(row(prediction, Variant::Hybrid, 16).kept);
  EXPECT_TRUE(row(prediction, Variant::Hybrid, 32).kept);
  EXPECT_FALSE(row(prediction, Variant::Hybrid, 2).kept);
  EXPECT_FALSE(row(prediction, Variant::Hybrid, 64).kept);
  EXPECT_EQ(prediction.bestOf(Variant::Hybrid).value(),
            static_cast<std::size_t>(&row(prediction, Variant::Hybrid, 8) - &prediction.rows[0]));
  EXPECT_EQ(prediction.kept().size(), 1u + 3 + 4);
}

TEST(Pruning, ToleranceZeroKeepsOnlyTheBestAndExplicit) {
  ScriptedModel model;
  model.seconds = scriptedTimes;
  SearchOptions options;
  options.tolerance = 0;
  const Prediction prediction = predict(model, testing::h100Like(), saxpyLike(1 << 20), options);
  EXPECT_EQ(prediction.kept(),
            (std::vector<Candidate>{{Variant::Explicit, 1, IssueOrder::DepthFirst},
                                    {Variant::Streams, 8, IssueOrder::DepthFirst}}));
}

TEST(Simpler, OrdersEveryFieldOfACandidate) {
  EXPECT_TRUE(simpler({Variant::Explicit, 1}, {Variant::Mapped, 1}));
  EXPECT_TRUE(simpler({Variant::Mapped, 1}, {Variant::Streams, 2}));
  EXPECT_TRUE(simpler({Variant::Streams, 64}, {Variant::Hybrid, 2}));
  EXPECT_TRUE(simpler({Variant::Streams, 4}, {Variant::Streams, 8}));
  EXPECT_TRUE(simpler({Variant::Streams, 8, IssueOrder::DepthFirst},
                      {Variant::Streams, 8, IssueOrder::BreadthFirst}));
  EXPECT_FALSE(simpler({Variant::Streams, 8}, {Variant::Streams, 8}));

  Candidate few{Variant::Streams, 8};
  Candidate many = few;
  many.chunks = 32;
  EXPECT_TRUE(simpler(few, many));
  Candidate graph = few;
  graph.graph = true;
  EXPECT_TRUE(simpler(many, graph)) << "a graph form is less simple than any plain pipeline";
  Candidate split{Variant::Explicit, 1};
  split.devices = 2;
  EXPECT_TRUE(simpler(graph, split)) << "one GPU is simpler than a split";

  // Pageable ways of one configuration: per call, then cached, then staged on fewer threads.
  Candidate registered = few;
  registered.pageable = PageableMode::Register;
  Candidate cached = few;
  cached.pageable = PageableMode::CachedRegister;
  Candidate staged = few;
  staged.pageable = PageableMode::Stage;
  staged.staging.threads = 8;
  Candidate wider = staged;
  wider.staging.threads = 15;
  EXPECT_TRUE(simpler(registered, cached));
  EXPECT_TRUE(simpler(cached, staged));
  EXPECT_TRUE(simpler(staged, wider));
  EXPECT_FALSE(simpler(wider, staged));
  EXPECT_FALSE(simpler(staged, staged));
}

TEST(Pruning, TiesGoToTheSimplerCandidate) {
  ScriptedModel model;
  model.seconds = [](const Candidate& c) -> std::optional<double> {
    return c.variant == Variant::Explicit ? 2.0 : 1.0;
  };
  const Prediction prediction =
      predict(model, testing::h100Like(), saxpyLike(1 << 20), SearchOptions{});
  EXPECT_EQ(prediction.rows[*prediction.best].candidate.variant, Variant::Mapped);

  model.seconds = [](const Candidate& c) -> std::optional<double> {
    return c.variant == Variant::Streams || c.variant == Variant::Hybrid ? 1.0 : 2.0;
  };
  const Prediction streams =
      predict(model, testing::h100Like(), saxpyLike(1 << 20), SearchOptions{});
  EXPECT_EQ(streams.rows[*streams.best].candidate,
            (Candidate{Variant::Streams, 1, IssueOrder::DepthFirst}));
}

TEST(Pruning, ExplicitCanBeTheBest) {
  ScriptedModel model;
  model.seconds = [](const Candidate& c) -> std::optional<double> {
    return c.variant == Variant::Explicit ? 1.0 : 1.05 + 0.01 * c.streams;
  };
  SearchOptions options;
  options.tolerance = 0.08;
  options.streamTolerance = 1;
  const Prediction prediction = predict(model, testing::h100Like(), saxpyLike(1 << 20), options);
  EXPECT_EQ(*prediction.best, *prediction.explicitRow);
  // Within 8 % of Explicit's 1.0: streams 1 and 2 (1.06, 1.07), Mapped (1.06); not 4 (1.09).
  EXPECT_TRUE(row(prediction, Variant::Mapped).kept);
  EXPECT_TRUE(row(prediction, Variant::Streams, 2).kept);
  EXPECT_FALSE(row(prediction, Variant::Streams, 4).kept);
}

TEST(Pruning, UnpredictedCandidatesAreKept) {
  ScriptedModel model;
  model.seconds = [](const Candidate& c) -> std::optional<double> {
    if (c.variant == Variant::Hybrid)
      return std::nullopt;
    return c.variant == Variant::Streams ? 1.0 : 5.0;
  };
  const Prediction prediction =
      predict(model, testing::h100Like(), saxpyLike(1 << 20), SearchOptions{});
  for (const PredictedCandidate& r : prediction.rows) {
    if (r.candidate.variant == Variant::Hybrid) {
      EXPECT_TRUE(r.kept && !r.seconds);
    }
  }
  EXPECT_FALSE(row(prediction, Variant::Mapped).kept);
}

TEST(Pruning, MaxKeptCapsTheSetBestFirst) {
  ScriptedModel model;
  model.seconds = scriptedTimes;
  SearchOptions options;
  options.tolerance = 1;
  options.streamTolerance = 1;
  options.maxKept = 2;
  const Prediction prediction = predict(model, testing::h100Like(), saxpyLike(1 << 20), options);
  EXPECT_EQ(prediction.kept(),
            (std::vector<Candidate>{{Variant::Explicit, 1, IssueOrder::DepthFirst},
                                    {Variant::Streams, 8, IssueOrder::DepthFirst},
                                    {Variant::Streams, 16, IssueOrder::DepthFirst}}));
}

TEST(Pruning, ReportsTheProfileAssumptions) {
  ScriptedModel model;
  model.seconds = scriptedTimes;
  HardwareProfile profile = testing::h100Like();
  profile.kernelLaunchS = 0;
  const Prediction prediction = predict(model, profile, saxpyLike(1 << 20), SearchOptions{});
  ASSERT_EQ(prediction.assumptions.size(), 2u); // launch overhead and stream sync unknown
  EXPECT_NE(prediction.assumptions[0].find("kernel launch"), std::string::npos);
}

TEST(Pruning, ModernModelOnTheIssuesSaxpyRunsFewCandidates) {
  // Issue 5's target: the tuner runs at most 30 % of the exhaustive grid (here Explicit, Mapped
  // and Streams at 7 stream counts, each also with 2, 4 and 8 chunks per stream: the orders do
  // not differ on this device and saxpy has no pure outputs for Hybrid).
  // tests/model/MeasuredAccuracyTest.cpp checks the pick against measured times.
  Workload saxpy = saxpyLike(64 << 20);
  saxpy.transfers.inoutD2hBytes = saxpy.transfers.d2hBytes;
  saxpy.transfers.h2dCopiesPerChunk = saxpy.transfers.explicitH2dCopies = 2;
  saxpy.launch.kernelSeconds = 0.3e-3;
  const Prediction prediction = predict(ModernModel(), testing::h100Like(), saxpy);
  ASSERT_TRUE(prediction.best);
  EXPECT_EQ(prediction.rows[*prediction.best].candidate.variant, Variant::Streams);
  EXPECT_EQ(prediction.rows.size(), 9u + 7 * 3);
  EXPECT_LE(static_cast<double>(prediction.kept().size()), 0.3 * prediction.rows.size());
  // The issue's measured best, Streams(16), is predicted within the acceptable loss of the
  // Streams candidate run.
  EXPECT_LE(*row(prediction, Variant::Streams, 16).seconds,
            *prediction.rows[*prediction.best].seconds * (1 + kAcceptableLoss));
}

TEST(Pruning, ToleranceFollowsFromTheModelErrorAndTheAcceptableLoss) {
  // Skipped at t, a candidate measures at least p(1 + t)/(1 + e) against p/(1 − e) for the one
  // run: at t = (1 + e)/((1 − e)(1 + M)) − 1 exactly M faster.
  const double e = 0.02;
  const double m = 0.03;
  const double t = pruningTolerance(e, m);
  EXPECT_NEAR((1 + t) / (1 + e), (1 / (1 - e)) / (1 + m), 1e-15);
  EXPECT_DOUBLE_EQ(pruningTolerance(0, 0), 0);
  EXPECT_NEAR(pruningTolerance(0.05, 0), 1.05 / 0.95 - 1, 1e-15);
  EXPECT_DOUBLE_EQ(pruningTolerance(0.01, 0.03), 0); // a smaller error than loss: best only
  EXPECT_DOUBLE_EQ(SearchOptions{}.tolerance, pruningTolerance(0.02, 0.03));
  EXPECT_DOUBLE_EQ(SearchOptions{}.streamTolerance, 0);
}

TEST(Pruning, MappedLowerBoundIsKeptButIsNotTheReference) {
  // With a broadcast input whose re-reads are unknown, Mapped's prediction is a lower bound: a
  // matmul that re-reads B per row block measured 86 % slower than predicted. It must not prune
  // Streams, which is predicted 5 % slower than it.
  ScriptedModel model;
  model.seconds = [](const Candidate& c) -> std::optional<double> {
    if (c.variant == Variant::Explicit)
      return 2.0;
    if (c.variant == Variant::Mapped)
      return 1.0;
    return 1.05 + 0.01 * c.streams;
  };
  Workload workload = saxpyLike(8);
  workload.transfers.broadcastBytes = 1;
  const Prediction bounded = predict(model, testing::h100Like(), workload);
  ASSERT_TRUE(bounded.best);
  EXPECT_EQ(bounded.rows[*bounded.best].candidate, (Candidate{Variant::Streams, 1}));
  EXPECT_TRUE(row(bounded, Variant::Mapped).kept);
  EXPECT_TRUE(row(bounded, Variant::Streams, 1).kept);
  EXPECT_FALSE(row(bounded, Variant::Streams, 8).kept);
  // Once the re-reads are known, Mapped's prediction is one like the others, and it prunes.
  workload.mapped.broadcastReadsKnown = true;
  const Prediction known = predict(model, testing::h100Like(), workload);
  EXPECT_EQ(known.rows[*known.best].candidate.variant, Variant::Mapped);
  EXPECT_FALSE(row(known, Variant::Streams, 1).kept);
}

TEST(Pruning, MappedOverNarrowElementsIsALowerBound) {
  // One-byte pixels read through mapped memory measured 2.5-4x the Mapped prediction on the H200;
  // it must not prune Streams, predicted 5 % slower. Four-byte elements keep the old pruning.
  ScriptedModel model;
  model.seconds = [](const Candidate& c) -> std::optional<double> {
    if (c.variant == Variant::Explicit)
      return 2.0;
    if (c.variant == Variant::Mapped)
      return 1.0;
    return 1.05 + 0.01 * c.streams;
  };
  Workload workload = saxpyLike(8);
  workload.mapped.narrowestElementBytes = 1;
  EXPECT_TRUE(mappedPredictionIsLowerBound(workload));
  const Prediction bytes = predict(model, testing::h100Like(), workload);
  ASSERT_TRUE(bytes.best);
  EXPECT_EQ(bytes.rows[*bytes.best].candidate, (Candidate{Variant::Streams, 1}));
  EXPECT_TRUE(row(bytes, Variant::Mapped).kept);
  EXPECT_TRUE(row(bytes, Variant::Mapped).lower_bound);
  EXPECT_FALSE(row(bytes, Variant::Streams, 1).lower_bound);
  EXPECT_TRUE(row(bytes, Variant::Streams, 1).kept);
  EXPECT_FALSE(row(bytes, Variant::Streams, 8).kept);

  workload.mapped.narrowestElementBytes = 2;
  EXPECT_TRUE(mappedPredictionIsLowerBound(workload));
  for (std::size_t width : {std::size_t{0}, kMappedFullLineElementBytes, std::size_t{8}}) {
    workload.mapped.narrowestElementBytes = width;
    EXPECT_FALSE(mappedPredictionIsLowerBound(workload)) << width << "-byte elements";
    const Prediction words = predict(model, testing::h100Like(), workload);
    EXPECT_EQ(words.rows[*words.best].candidate.variant, Variant::Mapped) << width;
    EXPECT_FALSE(row(words, Variant::Mapped).lower_bound) << width;
    EXPECT_FALSE(row(words, Variant::Streams, 1).kept) << width;
  }
}

TEST(Pruning, SelectPrunedSetRedoesPredictOnGivenRows) {
  // The offline re-check of committed reports relies on selectPrunedSet deciding exactly as
  // predict does, and on it clearing what an earlier selection left.
  ScriptedModel model;
  model.seconds = [](const Candidate& c) -> std::optional<double> {
    if (c.variant == Variant::Explicit)
      return 2.0;
    if (c.variant == Variant::Mapped)
      return 1.0;
    return 1.05 + 0.01 * c.streams;
  };
  Workload workload = saxpyLike(8);
  const Prediction predicted = predict(model, testing::h100Like(), workload);
  Prediction redone = predicted;
  selectPrunedSet(redone, true, true, SearchOptions{});
  EXPECT_EQ(redone.rows[*redone.best].candidate, (Candidate{Variant::Streams, 1}));
  EXPECT_TRUE(row(redone, Variant::Streams, 1).kept);
  selectPrunedSet(redone, false, true, SearchOptions{});
  EXPECT_EQ(redone.best, predicted.best);
  EXPECT_EQ(redone.explicitRow, predicted.explicitRow);
  EXPECT_EQ(redone.kept(), predicted.kept());
}

} // namespace
} // namespace overlap::model
