// Calls split across GPUs in the model (MultiDeviceEstimate.h, Candidate::devices): the share each
// device runs, the modern model's price of a split, the papers' silence about it, the candidates
// the search adds and how pruning treats their lower-bound predictions.
#include "model/CandidateSet.h"
#include "model/MultiDeviceEstimate.h"

#include "ModelTestProfiles.h"
#include "model/ModernModel.h"
#include "model/Paper000Model.h"
#include "model/Paper001Model.h"
#include "model/Paper002Model.h"

#include <gtest/gtest.h>

namespace overlap::model {
namespace {

Workload transferBound(long long extent) {
  Workload workload;
  workload.partition.extent = extent;
  workload.transfers.h2dBytes = 8.0 * extent;
  workload.transfers.d2hBytes = 4.0 * extent;
  workload.transfers.broadcastBytes = 4096;
  workload.transfers.haloBytesPerBoundary = 64;
  workload.launch.kernelSeconds = 1e-4;
  workload.launch.totalBlocks = extent / 256;
  return workload;
}

TEST(DeviceShare, TheLargestShareOfWholeGranules) {
  Workload workload = transferBound(1001);
  workload.partition.granule = 10; // 101 granules, the last one short
  const Workload share = deviceShare(workload, 2);
  EXPECT_EQ(share.partition.extent, 510); // 51 of 101 granules
  const double fraction = 51.0 / 101.0;
  EXPECT_DOUBLE_EQ(share.transfers.h2dBytes, workload.transfers.h2dBytes * fraction);
  EXPECT_DOUBLE_EQ(share.transfers.d2hBytes, workload.transfers.d2hBytes * fraction);
  EXPECT_DOUBLE_EQ(share.launch.kernelSeconds, workload.launch.kernelSeconds * fraction);
  // Every device gets the broadcast sections and its halos whole.
  EXPECT_EQ(share.transfers.broadcastBytes, workload.transfers.broadcastBytes);
  EXPECT_EQ(share.transfers.haloBytesPerBoundary, workload.transfers.haloBytesPerBoundary);
  EXPECT_EQ(deviceShare(workload, 1).partition.extent, 1001);
  EXPECT_EQ(deviceShare(transferBound(1), 4).partition.extent, 1);
}

TEST(SplitPrediction, ATransferBoundCallTakesAboutItsShare) {
  const ModernModel model;
  const HardwareProfile profile = testing::h100Like();
  const Workload workload = transferBound(64 << 20);
  for (Variant variant : {Variant::Explicit, Variant::Mapped, Variant::Streams}) {
    Candidate one{variant, variant == Variant::Streams ? 4 : 1, IssueOrder::DepthFirst};
    Candidate two = one;
    two.devices = 2;
    const auto oneSeconds = model.predictSeconds(profile, workload, one);
    const auto twoSeconds = model.predictSeconds(profile, workload, two);
    ASSERT_TRUE(oneSeconds && twoSeconds) << to_string(variant);
    EXPECT_GT(*twoSeconds, *oneSeconds * 0.45) << to_string(variant);
    EXPECT_LT(*twoSeconds, *oneSeconds * 0.6) << to_string(variant);
    // Exactly the half's prediction plus a synchronization per device.
    const auto half = model.predictSeconds(profile, deviceShare(workload, 2), one);
    EXPECT_DOUBLE_EQ(*twoSeconds, *half + 2 * profile.streamSyncS);
  }
  Candidate all{Variant::Streams, 4, IssueOrder::DepthFirst};
  all.devices = 0; // "every device": the model needs the count
  EXPECT_FALSE(model.predictSeconds(profile, workload, all));
}

// With the host side of the links measured, a split takes no less than the call's bytes over all
// links at once: here one link and a third, as four H100s' links moved 2.3x of one.
TEST(SplitPrediction, NoFasterThanAllLinksTogether) {
  const ModernModel model;
  HardwareProfile profile = testing::h100Like();
  const Workload workload = transferBound(64 << 20);
  Candidate one{Variant::Streams, 4, IssueOrder::DepthFirst};
  Candidate four = one;
  four.devices = 4;
  const auto unbounded = model.predictSeconds(profile, workload, four);
  const auto share = model.predictSeconds(profile, deviceShare(workload, 4), one);
  ASSERT_TRUE(unbounded && share);
  const double bytes = workload.transfers.h2dBytes + workload.transfers.d2hBytes +
                       4 * workload.transfers.broadcastBytes;
  profile.allLinksDevices = 4;
  profile.allLinksSecondsPerByte = 1.0 / 100e9;
  const auto bounded = model.predictSeconds(profile, workload, four);
  ASSERT_TRUE(bounded);
  EXPECT_DOUBLE_EQ(*bounded, bytes / 100e9 + 4 * profile.streamSyncS);
  EXPECT_GT(*bounded, *unbounded);
  // Measured on another count of GPUs, the host side says nothing of four links.
  profile.allLinksDevices = 2;
  EXPECT_DOUBLE_EQ(*model.predictSeconds(profile, workload, four), *unbounded);
  EXPECT_TRUE(splitIsLowerBound(profile, 4));
  EXPECT_FALSE(splitIsLowerBound(profile, 2));
  profile.allLinksDevices = 4;
  // Every device copies the reduction arrays whole, both ways.
  Workload reducing = workload;
  reducing.transfers.reductionBytes = 1 << 20;
  EXPECT_DOUBLE_EQ(*model.predictSeconds(profile, reducing, four),
                   (bytes + 4 * 2 * (1 << 20)) / 100e9 + 4 * profile.streamSyncS);
  // A host that outruns the links leaves the shares' prediction as it was.
  profile.allLinksSecondsPerByte = 1.0 / 10e12;
  EXPECT_DOUBLE_EQ(*model.predictSeconds(profile, workload, four), *unbounded);
  EXPECT_DOUBLE_EQ(*unbounded, *share + 4 * profile.streamSyncS);
}

// Measured on 2 x H200 (bench/README.md, "Several GPUs"): 140 GB/s both ways together, 106 one
// way. Copies of 1365 MiB in and 683 MiB out took 17.0 ms: both ways for 683 MiB each, then the
// rest of the input alone, says 17.0 too; every byte at the both-ways rate says 15.3.
TEST(SplitPrediction, TheHeavierDirectionFinishesAloneAtTheOneWayRate) {
  HardwareProfile profile = testing::h100Like();
  profile.allLinksDevices = 2;
  profile.allLinksSecondsPerByte = 1 / 140e9;
  Workload workload;
  workload.transfers.h2dBytes = 1365.0 * (1 << 20);
  workload.transfers.d2hBytes = 683.0 * (1 << 20);
  const double total = workload.transfers.h2dBytes + workload.transfers.d2hBytes;
  EXPECT_DOUBLE_EQ(allLinksSeconds(profile, workload, 2), total / 140e9);
  profile.allLinksOneWaySecondsPerByte = 1 / 106e9;
  const double both = 2 * workload.transfers.d2hBytes / 140e9;
  const double rest = (workload.transfers.h2dBytes - workload.transfers.d2hBytes) / 106e9;
  EXPECT_DOUBLE_EQ(allLinksSeconds(profile, workload, 2), both + rest);
  EXPECT_NEAR(both + rest, 17.0e-3, 0.1e-3);
  // Equal bytes both ways: the rate both ways alone; one way only: the one-way rate alone.
  workload.transfers.h2dBytes = workload.transfers.d2hBytes;
  EXPECT_DOUBLE_EQ(allLinksSeconds(profile, workload, 2), 2 * workload.transfers.d2hBytes / 140e9);
  workload.transfers.d2hBytes = 0;
  EXPECT_DOUBLE_EQ(allLinksSeconds(profile, workload, 2), workload.transfers.h2dBytes / 106e9);
}

TEST(SplitPrediction, ThePapersDoNotDescribeIt) {
  const HardwareProfile profile = testing::h100Like();
  const Workload workload = transferBound(1 << 20);
  Candidate split{Variant::Streams, 4, IssueOrder::DepthFirst};
  split.devices = 2;
  EXPECT_FALSE(paper000::Model().predictSeconds(profile, workload, split));
  EXPECT_FALSE(paper001::Model().predictSeconds(profile, workload, split));
  EXPECT_FALSE(paper002::Model().predictSeconds(profile, workload, split));
}

TEST(SplitSearch, EveryCandidateAlsoSplitButNotUncombinableReductions) {
  const ModernModel model;
  const HardwareProfile profile = testing::h100Like();
  Workload workload = transferBound(1 << 20);
  SearchOptions options;
  options.maxChunksPerStream = 1;
  const std::size_t alone = enumerateCandidates(model, profile, workload, options).size();
  options.devices = 2;
  const std::vector<Candidate> both = enumerateCandidates(model, profile, workload, options);
  ASSERT_EQ(both.size(), 2 * alone);
  for (std::size_t i = 0; i < alone; ++i) {
    Candidate split = both[i];
    split.devices = 2;
    EXPECT_EQ(both[alone + i], split);
  }
  // The host combines the devices' partials of a reduction; where it cannot, no split is tried.
  workload.transfers.reductionBytes = 1024;
  EXPECT_EQ(enumerateCandidates(model, profile, workload, options).size(), 2 * alone);
  workload.transfers.reductionsCombineOnHost = false;
  EXPECT_EQ(enumerateCandidates(model, profile, workload, options).size(), alone);
}

TEST(SplitSearch, SplitsAreLowerBoundsThatNeverPruneTheOthers) {
  const Workload workload = transferBound(64 << 20);
  SearchOptions options;
  options.devices = 2;
  options.maxChunksPerStream = 1;
  const Prediction prediction = predict(ModernModel(), testing::h100Like(), workload, options);
  ASSERT_TRUE(prediction.best && prediction.explicitRow);
  EXPECT_EQ(prediction.rows[*prediction.best].candidate.devices, 1);
  EXPECT_EQ(prediction.rows[*prediction.explicitRow].candidate.devices, 1);
  int keptSplits = 0;
  for (const PredictedCandidate& row : prediction.rows) {
    if (row.candidate.devices == 1)
      continue;
    EXPECT_TRUE(row.lower_bound);
    keptSplits += row.kept ? 1 : 0;
  }
  // Predicted about twice as fast, a split is kept, but along its own stream counts only the
  // best of each variant.
  EXPECT_GE(keptSplits, 1);
  EXPECT_LE(keptSplits, 4);
}

// Priced with the host side of the links, splits are predictions like the others: the best split
// is the predicted best, and one-GPU candidates far slower than it are pruned.
TEST(SplitSearch, WithAllLinksMeasuredSplitsArePrunedAndPruneLikeTheOthers) {
  const Workload workload = transferBound(64 << 20);
  HardwareProfile profile = testing::h100Like();
  profile.allLinksDevices = 2;
  profile.allLinksSecondsPerByte = 1 / 170e9; // 1.7x one link carrying both ways
  SearchOptions options;
  options.devices = 2;
  options.maxChunksPerStream = 1;
  const Prediction prediction = predict(ModernModel(), profile, workload, options);
  ASSERT_TRUE(prediction.best);
  EXPECT_EQ(prediction.rows[*prediction.best].candidate.devices, 2);
  int keptOneGpu = 0;
  int prunedOneGpu = 0;
  for (const PredictedCandidate& row : prediction.rows) {
    // (Mapped's stay lower bounds here for the broadcast input its model leaves out.)
    if (row.candidate.variant != Variant::Mapped) {
      EXPECT_FALSE(row.lower_bound) << describe(row.candidate);
    }
    if (row.candidate.devices == 1)
      (row.kept ? keptOneGpu : prunedOneGpu) += 1;
  }
  EXPECT_GT(prunedOneGpu, 0);
  EXPECT_LT(keptOneGpu, prunedOneGpu);
}

} // namespace
} // namespace overlap::model
