// Chunks apart from streams (Candidate::chunks): the modern model plays C chunks on N streams,
// chunk c on stream c % N, as the runtime issues them (templates/overlap/detail/Pipeline.cuh); the
// papers' models, which know one chunk per stream, do not predict other counts; the enumeration
// proposes 2N, 4N, 8N chunks where they can pay off.
#include "model/CandidateSet.h"
#include "model/ModernModel.h"
#include "model/Paper000Model.h"
#include "model/Paper001Model.h"
#include "model/Paper002Model.h"

#include "ModelTestProfiles.h"

#include <gtest/gtest.h>

#include <set>

namespace overlap::model {
namespace {

Candidate streamsWithChunks(int streams, int chunks, IssueOrder order = IssueOrder::DepthFirst,
                            Variant variant = Variant::Streams) {
  Candidate candidate{variant, streams, order};
  candidate.chunks = chunks;
  return candidate;
}

// 64 bytes each way and a short kernel on the ideal device of one second per byte: transfer
// bound, no per-copy cost.
Workload transferBound() {
  Workload workload;
  workload.partition.extent = 1 << 12;
  workload.transfers.h2dBytes = 64;
  workload.transfers.d2hBytes = 64;
  workload.launch.kernelSeconds = 8;
  return workload;
}

double predict(const HardwareProfile& profile, const Workload& workload,
               const Candidate& candidate) {
  const std::optional<double> seconds = ModernModel().predictSeconds(profile, workload, candidate);
  EXPECT_TRUE(seconds.has_value()) << describe(candidate);
  return seconds.value_or(0);
}

std::vector<int> kernelStreams(const std::vector<SimOp>& ops) {
  std::vector<int> streams;
  for (const SimOp& op : ops)
    if (op.kind == OpKind::Kernel)
      streams.push_back(op.stream);
  return streams;
}

TEST(ChunkCount, MoreChunksThanStreamsIssueAKernelPerChunkRoundTheStreams) {
  const HardwareProfile profile = testing::idealDevice(2, false, 35);
  for (IssueOrder order : {IssueOrder::DepthFirst, IssueOrder::BreadthFirst}) {
    const std::vector<SimOp> ops =
        ModernModel().operations(profile, transferBound(), streamsWithChunks(4, 16, order));
    const std::vector<int> streams = kernelStreams(ops);
    ASSERT_EQ(streams.size(), 16u) << to_string(order);
    for (int c = 0; c < 16; ++c)
      EXPECT_EQ(streams[static_cast<std::size_t>(c)], c % 4) << to_string(order) << " chunk " << c;
    for (const SimOp& op : ops) {
      if (op.kind == OpKind::CopyToDevice) {
        EXPECT_DOUBLE_EQ(op.bytes, 64.0 / 16);
      }
    }
  }
  // 0 is one chunk per stream: the candidates that always were.
  EXPECT_EQ(
      kernelStreams(ModernModel().operations(profile, transferBound(), streamsWithChunks(4, 0)))
          .size(),
      4u);
  EXPECT_EQ(chunkCount(transferBound(), streamsWithChunks(4, 0)), 4);
  EXPECT_EQ(chunkCount(transferBound(), streamsWithChunks(4, 16)), 16);
}

TEST(ChunkCount, TheGranulesLimitTheChunksAsked) {
  Workload workload = transferBound();
  workload.partition.extent = 10;
  workload.partition.granule = 2; // 5 granules
  EXPECT_EQ(chunkCount(workload, streamsWithChunks(2, 16)), 5);
  const PipelineShape shape = pipelineShape(workload, streamsWithChunks(8, 16));
  EXPECT_EQ(shape.chunks, 5);
  EXPECT_EQ(shape.streams, 5);
  EXPECT_FALSE(shape.ring);
  // Explicit and Mapped are one chunk.
  EXPECT_EQ(chunkCount(workload, Candidate{Variant::Mapped, 1, IssueOrder::DepthFirst}), 1);
}

TEST(ChunkCount, MoreChunksOnFewStreamsShortenFillAndDrainOfATransferBoundCall) {
  // No per-copy cost: four chunks per stream make the first copy in and the last copy out, which
  // nothing overlaps, a quarter as long.
  const HardwareProfile profile = testing::idealDevice(2, false, 35);
  const Workload workload = transferBound();
  const double onePerStream = predict(profile, workload, streamsWithChunks(4, 0));
  const double fourPerStream = predict(profile, workload, streamsWithChunks(4, 16));
  EXPECT_LT(fourPerStream, onePerStream);
  // Never below the link: every byte each way, one after another on its engine.
  EXPECT_GE(fourPerStream, 64);
}

TEST(ChunkCount, PerChunkCostsMakeVeryManyChunksSlower) {
  // The H100-like link: each copy pays its latency or gap, each chunk a launch and its calls.
  const HardwareProfile profile = testing::h100Like();
  Workload workload;
  workload.partition.extent = 1 << 24;
  workload.transfers.h2dBytes = 256e6;
  workload.transfers.d2hBytes = 256e6;
  workload.launch.kernelSeconds = 1e-3;
  const double sixteen = predict(profile, workload, streamsWithChunks(4, 16));
  const double thousands = predict(profile, workload, streamsWithChunks(4, 1 << 10));
  EXPECT_GT(thousands, sixteen * 1.1);
}

TEST(ChunkCount, BreadthFirstQueuesAStreamsCopiesInBeforeItsKernels) {
  // A stream runs its work in issue order: breadth-first over 16 chunks on 4 streams gives each
  // stream its four copies in, then its four kernels, then its four copies out. It still issues a
  // kernel per chunk and predicts a time, but its copies out start late.
  const HardwareProfile profile = testing::idealDevice(2, false, 35);
  const Workload workload = transferBound();
  const Candidate breadth = streamsWithChunks(4, 16, IssueOrder::BreadthFirst);
  const std::vector<SimOp> ops = ModernModel().operations(profile, workload, breadth);
  ASSERT_EQ(ops.size(), 48u);
  for (std::size_t i = 0; i < ops.size(); ++i)
    EXPECT_EQ(ops[i].kind,
              i < 16 ? OpKind::CopyToDevice : (i < 32 ? OpKind::Kernel : OpKind::CopyToHost))
        << i;
  const double depthFirst = predict(profile, workload, streamsWithChunks(4, 16));
  const double breadthFirst = predict(profile, workload, breadth);
  EXPECT_GT(breadthFirst, depthFirst);
  EXPECT_LE(breadthFirst, 64 + 8 + 64); // no worse than nothing overlapping
}

TEST(ChunkCount, ThePapersModelsPredictOneChunkPerStreamOnly) {
  const HardwareProfile profile = testing::table1GtxTitan();
  Workload workload = transferBound();
  workload.transfers.h2dBytes = 64e6;
  workload.transfers.d2hBytes = 64e6;
  workload.launch.kernelSeconds = 10e-3;
  const paper000::Model paper000;
  const paper001::Model paper001;
  const paper002::Model paper002;
  for (const PerformanceModel* model :
       std::initializer_list<const PerformanceModel*>{&paper000, &paper001, &paper002}) {
    EXPECT_TRUE(model->predictSeconds(profile, workload, streamsWithChunks(4, 0)).has_value())
        << model->name();
    // Asked for one per stream in so many words: the same candidate.
    EXPECT_EQ(model->predictSeconds(profile, workload, streamsWithChunks(4, 4)),
              model->predictSeconds(profile, workload, streamsWithChunks(4, 0)))
        << model->name();
    EXPECT_FALSE(model->predictSeconds(profile, workload, streamsWithChunks(4, 16)).has_value())
        << model->name();
  }
}

Workload twelveMiB(long long extent) {
  Workload workload;
  workload.partition.extent = extent;
  workload.transfers.h2dBytes = 8 << 20;
  workload.transfers.d2hBytes = 4 << 20;
  workload.launch.kernelSeconds = 1e-3;
  return workload;
}

using Counts = std::vector<int>;

TEST(ChunkCount, ProposedCountsArePowersOfTwoPerStreamWhileChunksStayLargeEnough) {
  const SearchOptions options; // up to 8 per stream, at least 1 MiB each both ways together
  const Workload workload = twelveMiB(1 << 20);
  EXPECT_EQ(candidateChunkCounts(workload, Variant::Streams, 1, options), (Counts{2, 4, 8}));
  EXPECT_EQ(candidateChunkCounts(workload, Variant::Streams, 2, options), (Counts{4, 8}));
  EXPECT_EQ(candidateChunkCounts(workload, Variant::Streams, 4, options), (Counts{8}));
  EXPECT_EQ(candidateChunkCounts(workload, Variant::Streams, 8, options), Counts{});
  // Never more than ceil(P / G), and only where P is known.
  EXPECT_EQ(candidateChunkCounts(twelveMiB(6), Variant::Streams, 1, options), (Counts{2, 4}));
  EXPECT_EQ(candidateChunkCounts(twelveMiB(0), Variant::Streams, 1, options), Counts{});
  SearchOptions onePerStream;
  onePerStream.maxChunksPerStream = 1;
  EXPECT_EQ(candidateChunkCounts(workload, Variant::Streams, 1, onePerStream), Counts{});
  SearchOptions smallChunks;
  smallChunks.minChunkBytes = 0;
  smallChunks.maxChunksPerStream = 16;
  EXPECT_EQ(candidateChunkCounts(workload, Variant::Streams, 4, smallChunks),
            (Counts{8, 16, 32, 64}));
}

// A model that predicts whatever the test says and never tells the issue orders apart.
class ScriptedModel final : public PerformanceModel {
public:
  std::function<std::optional<double>(const Candidate&)> seconds;
  std::string name() const override { return "scripted"; }
  std::optional<double> predictSeconds(const HardwareProfile&, const Workload&,
                                       const Candidate& candidate) const override {
    return seconds(candidate);
  }
};

TEST(ChunkCount, EnumerationFollowsEachStreamCountWithItsChunkCounts) {
  // Breadth-first only where the device tells the orders apart (the scripted model never does):
  // on the others it can only hold a stream's kernels behind its later copies in.
  ScriptedModel model;
  model.seconds = [](const Candidate&) { return 1.0; };
  SearchOptions options;
  options.maxStreams = 2;
  Workload workload = twelveMiB(1 << 20);
  workload.transfers.inoutD2hBytes = workload.transfers.d2hBytes; // no Hybrid
  const std::vector<Candidate> candidates =
      enumerateCandidates(model, testing::h100Like(), workload, options);
  const std::vector<Candidate> expected = {
      Candidate{Variant::Explicit, 1, IssueOrder::DepthFirst},
      Candidate{Variant::Mapped, 1, IssueOrder::DepthFirst},
      streamsWithChunks(1, 0),
      streamsWithChunks(1, 2),
      streamsWithChunks(1, 4),
      streamsWithChunks(1, 8),
      streamsWithChunks(2, 0),
      streamsWithChunks(2, 4),
      streamsWithChunks(2, 8),
  };
  ASSERT_EQ(candidates.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i)
    EXPECT_EQ(describe(candidates[i]), describe(expected[i])) << i;
}

TEST(ChunkCount, TiesGoToFewerChunksAndChunkCountsJoinTheirVariantsCurve) {
  ScriptedModel model;
  SearchOptions options;
  options.maxStreams = 4;
  const Workload workload = twelveMiB(1 << 20);
  // Equal predictions: one chunk per stream is the simpler.
  model.seconds = [](const Candidate& c) -> std::optional<double> {
    return c.variant == Variant::Streams && c.streams == 4 ? 1.0 : 2.0;
  };
  Prediction tie = predict(model, testing::h100Like(), workload, options);
  ASSERT_TRUE(tie.best);
  EXPECT_EQ(tie.rows[*tie.best].candidate, streamsWithChunks(4, 0));
  // 8 chunks on 4 streams predicted 0.5 % faster: within the tolerance between variants, but the
  // curve of Streams depth-first now has its best at 8 chunks, and only that runs.
  model.seconds = [](const Candidate& c) -> std::optional<double> {
    if (c.variant != Variant::Streams || c.streams != 4)
      return 2.0;
    return c.chunks == 8 ? 1.0 : 1.005;
  };
  const Prediction curve = predict(model, testing::h100Like(), workload, options);
  ASSERT_TRUE(curve.best);
  EXPECT_EQ(curve.rows[*curve.best].candidate, streamsWithChunks(4, 8));
  for (const PredictedCandidate& row : curve.rows) {
    if (row.candidate == streamsWithChunks(4, 0)) {
      EXPECT_FALSE(row.kept);
    }
  }
}

} // namespace
} // namespace overlap::model
