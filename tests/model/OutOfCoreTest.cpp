// Out of core in the model: a call whose full-size device buffers exceed the budget
// (Workload::DeviceMemory) cannot run Explicit, and Streams and Hybrid run the runtime's ring of
// one slot per stream (templates/overlap/detail/Pipeline.cuh): every chunk copies its whole halo,
// breadth-first issue goes in waves of one chunk per stream, one chunk per stream resolves to the
// fewest chunks whose ring fits, and a candidate whose ring does not fit is neither predicted nor
// proposed.
#include "model/CandidateSet.h"
#include "model/ModernModel.h"
#include "model/Paper001Model.h"

#include "ModelTestProfiles.h"

#include <gtest/gtest.h>

namespace overlap::model {
namespace {

constexpr double kMiB = testing::kMiB;

// 8 MiB in, 4 MiB of pure outputs, a 4 KiB halo per boundary, over 2^20 granules; 12 MiB of
// device buffers in all (Hybrid maps the 4 MiB of outputs), against a budget of 6 MiB.
Workload outOfCore() {
  Workload workload;
  workload.partition.extent = 1 << 20;
  workload.transfers.h2dBytes = 8 * kMiB;
  workload.transfers.d2hBytes = 4 * kMiB;
  workload.transfers.haloBytesPerBoundary = 4096;
  workload.launch.kernelSeconds = 1e-3;
  workload.deviceMemory.fullBytes = 12 * kMiB;
  workload.deviceMemory.pureOutputFullBytes = 4 * kMiB;
  workload.deviceMemory.budgetBytes = 6 * kMiB;
  return workload;
}

Candidate pipelined(Variant variant, int streams, int chunks = 0,
                    IssueOrder order = IssueOrder::DepthFirst) {
  Candidate candidate{variant, streams, order};
  candidate.chunks = chunks;
  return candidate;
}

double inputBytes(const std::vector<SimOp>& ops) {
  double bytes = 0;
  for (const SimOp& op : ops)
    if (op.kind == OpKind::CopyToDevice)
      bytes += op.bytes;
  return bytes;
}

TEST(OutOfCore, OnlyWhereTheBuffersExceedTheBudget) {
  Workload workload = outOfCore();
  EXPECT_TRUE(runsOutOfCore(workload, Variant::Explicit));
  EXPECT_TRUE(runsOutOfCore(workload, Variant::Streams));
  EXPECT_TRUE(runsOutOfCore(workload, Variant::Hybrid)); // 8 MiB without its mapped outputs
  EXPECT_FALSE(runsOutOfCore(workload, Variant::Mapped));
  EXPECT_DOUBLE_EQ(fullDeviceBytes(workload, Variant::Hybrid), 8 * kMiB);
  workload.deviceMemory.budgetBytes = 8 * kMiB;
  EXPECT_TRUE(runsOutOfCore(workload, Variant::Streams));
  EXPECT_FALSE(runsOutOfCore(workload, Variant::Hybrid));
  // No budget (the default) or unknown buffers: everything fits.
  workload.deviceMemory.budgetBytes = 0;
  EXPECT_FALSE(runsOutOfCore(workload, Variant::Explicit));
  workload = outOfCore();
  workload.deviceMemory.fullBytes = 0;
  workload.deviceMemory.pureOutputFullBytes = 0;
  EXPECT_FALSE(runsOutOfCore(workload, Variant::Explicit));
}

TEST(OutOfCore, ExplicitCannotRunAndSaysWhy) {
  const HardwareProfile profile = testing::h100Like();
  const Workload workload = outOfCore();
  const Candidate explicitCall{};
  EXPECT_FALSE(ModernModel().predictSeconds(profile, workload, explicitCall).has_value());
  EXPECT_FALSE(paper001::Model().predictSeconds(profile, workload, explicitCall).has_value());
  EXPECT_FALSE(fitsDeviceMemory(workload, explicitCall));
  EXPECT_NE(deviceMemoryProblem(workload, explicitCall).find("Explicit cannot run"),
            std::string::npos);
  // Mapped keeps its arrays in host memory.
  EXPECT_TRUE(ModernModel()
                  .predictSeconds(profile, workload, {Variant::Mapped, 1, IssueOrder::DepthFirst})
                  .has_value());
}

TEST(OutOfCore, OneChunkPerStreamTakesTheFewestDoublingsWhoseRingFits) {
  const Workload workload = outOfCore();
  // Four slots of a quarter, an eighth of 12 MiB (plus halo and padding) are over 6 MiB; of a
  // sixteenth they fit.
  EXPECT_GT(ringDeviceBytes(workload, Variant::Streams, 4, 8), 6 * kMiB);
  EXPECT_LE(ringDeviceBytes(workload, Variant::Streams, 4, 16), 6 * kMiB);
  const PipelineShape streams = pipelineShape(workload, pipelined(Variant::Streams, 4));
  EXPECT_TRUE(streams.ring);
  EXPECT_EQ(streams.chunks, 16);
  EXPECT_EQ(streams.streams, 4);
  // Hybrid's slots hold no outputs: 8 chunks fit.
  EXPECT_EQ(chunkCount(workload, pipelined(Variant::Hybrid, 4)), 8);
  // Chunks asked for are what runs, or nothing.
  EXPECT_EQ(chunkCount(workload, pipelined(Variant::Streams, 4, 32)), 32);
  EXPECT_EQ(chunkCount(workload, pipelined(Variant::Streams, 4, 8)), 0);
  EXPECT_FALSE(fitsDeviceMemory(workload, pipelined(Variant::Streams, 4, 8)));
  EXPECT_NE(
      deviceMemoryProblem(workload, pipelined(Variant::Streams, 4, 8)).find("ring of 4 slots"),
      std::string::npos);
  EXPECT_FALSE(ModernModel()
                   .predictSeconds(testing::h100Like(), workload, pipelined(Variant::Streams, 4, 8))
                   .has_value());
}

TEST(OutOfCore, ResidentArraysTakeTheirPartOfTheBudget) {
  Workload workload = outOfCore();
  workload.deviceMemory.residentBytes = 3 * kMiB;
  EXPECT_DOUBLE_EQ(ringDeviceBytes(workload, Variant::Streams, 4, 16) -
                       ringDeviceBytes(outOfCore(), Variant::Streams, 4, 16),
                   3 * kMiB);
  EXPECT_EQ(chunkCount(workload, pipelined(Variant::Streams, 4)), 32);
  workload.deviceMemory.residentBytes = 6 * kMiB; // nothing left for slots
  EXPECT_FALSE(fitsDeviceMemory(workload, pipelined(Variant::Streams, 1)));
}

TEST(OutOfCore, APagedArrayTakesWholePagesInEverySlot) {
  Workload workload = outOfCore();
  workload.deviceMemory.pagedArrays = 1;
  // Two pages of 2 MiB more per slot.
  EXPECT_DOUBLE_EQ(ringDeviceBytes(workload, Variant::Streams, 4, 16) -
                       ringDeviceBytes(outOfCore(), Variant::Streams, 4, 16),
                   4 * 4 * kMiB);
  // Within 6 MiB four slots of at least 4 MiB cannot fit, one can (with many chunks).
  EXPECT_FALSE(fitsDeviceMemory(workload, pipelined(Variant::Streams, 4)));
  EXPECT_NE(deviceMemoryProblem(workload, pipelined(Variant::Streams, 4)).find("ring"),
            std::string::npos);
  EXPECT_TRUE(fitsDeviceMemory(workload, pipelined(Variant::Streams, 1)));
  workload.deviceMemory.budgetBytes = 16 * kMiB;
  workload.deviceMemory.fullBytes = 64 * kMiB;
  const PipelineShape shape = pipelineShape(workload, pipelined(Variant::Streams, 2));
  EXPECT_TRUE(shape.ring);
  EXPECT_GT(shape.chunks, 0);
  EXPECT_LE(ringDeviceBytes(workload, Variant::Streams, shape.streams, shape.chunks), 16 * kMiB);
}

TEST(OutOfCore, TheRingCopiesEveryChunksHalo) {
  const HardwareProfile profile = testing::h100Like();
  // 16 chunks: 15 boundaries, each halo sent to both its chunks.
  EXPECT_DOUBLE_EQ(
      inputBytes(ModernModel().operations(profile, outOfCore(), pipelined(Variant::Streams, 4))),
      8 * kMiB + 15 * 4096);
  // In core the chunks share their halos (detail/Pipeline.cuh waits for the earlier copy).
  Workload inCore = outOfCore();
  inCore.deviceMemory.budgetBytes = 0;
  EXPECT_DOUBLE_EQ(
      inputBytes(ModernModel().operations(profile, inCore, pipelined(Variant::Streams, 4, 16))),
      8 * kMiB);
}

TEST(OutOfCore, BreadthFirstIssueGoesInWavesOfOneChunkPerSlot) {
  const std::vector<SimOp> ops =
      ModernModel().operations(testing::h100Like(), outOfCore(),
                               pipelined(Variant::Streams, 4, 0, IssueOrder::BreadthFirst));
  ASSERT_EQ(ops.size(), 48u); // 16 chunks
  const OpKind wave[] = {OpKind::CopyToDevice, OpKind::Kernel, OpKind::CopyToHost};
  for (std::size_t i = 0; i < ops.size(); ++i) {
    EXPECT_EQ(ops[i].kind, wave[i % 12 / 4]) << i;
    EXPECT_EQ(ops[i].stream, static_cast<int>(i % 4)) << i;
  }
}

TEST(OutOfCore, TheCandidateSetLeavesOutWhatCannotRun) {
  const Workload workload = outOfCore();
  const Prediction prediction = predict(ModernModel(), testing::h100Like(), workload);
  ASSERT_TRUE(prediction.explicitRow);
  const PredictedCandidate& explicitRow = prediction.rows[*prediction.explicitRow];
  EXPECT_FALSE(explicitRow.seconds.has_value()); // the reference, kept, not predicted
  EXPECT_TRUE(explicitRow.kept);
  ASSERT_TRUE(prediction.best);
  EXPECT_NE(prediction.rows[*prediction.best].candidate.variant, Variant::Explicit);
  int streamed = 0;
  for (const PredictedCandidate& row : prediction.rows) {
    if (row.candidate.variant != Variant::Streams && row.candidate.variant != Variant::Hybrid)
      continue;
    ++streamed;
    EXPECT_TRUE(row.seconds.has_value()) << describe(row.candidate);
    EXPECT_TRUE(fitsDeviceMemory(workload, row.candidate)) << describe(row.candidate);
  }
  EXPECT_GT(streamed, 0);
  // On one stream the ring fits from 4 chunks, which one per stream resolves to: 8 is proposed.
  EXPECT_EQ(candidateChunkCounts(workload, Variant::Streams, 1, {}), std::vector<int>{8});
  ASSERT_FALSE(prediction.excluded.empty());
  EXPECT_NE(prediction.excluded.front().find("Explicit cannot run"), std::string::npos);

  // Resident arrays over the budget: no ring fits, only Mapped (and Explicit, unpredicted) stay.
  Workload noRing = workload;
  noRing.deviceMemory.residentBytes = 7 * kMiB;
  const Prediction none = predict(ModernModel(), testing::h100Like(), noRing);
  for (const PredictedCandidate& row : none.rows)
    EXPECT_TRUE(row.candidate.variant == Variant::Explicit ||
                row.candidate.variant == Variant::Mapped)
        << describe(row.candidate);
  EXPECT_EQ(none.excluded.size(), 3u); // Explicit, Streams, Hybrid
}

TEST(OutOfCore, WithoutABudgetNothingChanges) {
  const HardwareProfile profile = testing::h100Like();
  Workload known = outOfCore();
  known.deviceMemory.budgetBytes = 0;
  Workload unknown = known;
  unknown.deviceMemory = {};
  const Prediction a = predict(ModernModel(), profile, known);
  const Prediction b = predict(ModernModel(), profile, unknown);
  ASSERT_EQ(a.rows.size(), b.rows.size());
  for (std::size_t i = 0; i < a.rows.size(); ++i) {
    EXPECT_EQ(a.rows[i].candidate, b.rows[i].candidate);
    EXPECT_EQ(a.rows[i].seconds, b.rows[i].seconds);
  }
  EXPECT_TRUE(a.excluded.empty());
}

TEST(OutOfCore, TheWorkloadsDeviceBytesAreValidated) {
  Workload workload = outOfCore();
  EXPECT_TRUE(validate(workload).empty());
  workload.deviceMemory.pureOutputFullBytes = 13 * kMiB;
  EXPECT_FALSE(validate(workload).empty());
  workload = outOfCore();
  workload.deviceMemory.budgetBytes = -1;
  EXPECT_FALSE(validate(workload).empty());
}

} // namespace
} // namespace overlap::model
