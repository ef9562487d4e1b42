#include "ProfileEstimator.h"
#include "Synthetic.h"

#include "overlap/ProfileIo.h"
#include "overlap/SampleStats.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace overlap::calibration {
namespace {

using test::BoundedNoise;
using test::kMiB;

const FitReport* find(const ProfileEstimate& estimate, const std::string& quantity) {
  for (const FitReport& f : estimate.fits)
    if (f.quantity == quantity)
      return &f;
  return nullptr;
}

Series onePoint(std::vector<double> samples) {
  Series series;
  series.add(1, std::move(samples));
  return series;
}

bool mentions(const std::vector<std::string>& problems, const std::string& text) {
  return std::any_of(problems.begin(), problems.end(),
                     [&](const std::string& p) { return p.find(text) != std::string::npos; });
}

// Paper 001's estimator moves by at most bound * (sum t + n (L+o)) / sum k when every time
// (the 1-byte one included) moves by at most `bound` of itself.
double ratioBound(const LinkDirection& link, double perByte, double bound) {
  double sumT = 0;
  double sumK = 0;
  int n = 0;
  for (double mib = 8; mib <= 256; mib *= 2, ++n) {
    sumT += link.latencyS + mib * kMiB * perByte;
    sumK += mib * kMiB;
  }
  return bound * (sumT + n * link.latencyS) / sumK * 1.001;
}

TEST(EstimateProfile, RecoversTheParametersOfASyntheticLink) {
  BoundedNoise noise(0.0002);
  SCOPED_TRACE(noise.trace());
  const CalibrationMeasurements m = test::syntheticMeasurements(7, noise);
  const ProfileEstimate estimate = estimateProfile(m);
  ASSERT_TRUE(estimate.acceptable()) << estimate.problems.front();

  const HardwareProfile& p = estimate.profile;
  EXPECT_EQ(p.source, "measured by overlap-calibrate");

  const LinkDirection expected[] = {test::titanHostToDevice(), test::titanDeviceToHost()};
  const LinkDirection* estimated[] = {&p.hostToDevice, &p.deviceToHost};
  for (int d = 0; d < 2; ++d) {
    SCOPED_TRACE(d == 0 ? "host_to_device" : "device_to_host");
    const LinkDirection& e = expected[d];
    const LinkDirection& got = *estimated[d];
    EXPECT_NEAR(got.latencyS, e.latencyS, e.latencyS * 0.0003);
    EXPECT_NEAR(got.secondsPerByte, e.secondsPerByte,
                ratioBound(e, e.secondsPerByte, noise.bound()));
    EXPECT_NEAR(got.bidirectionalSecondsPerByte, e.bidirectionalSecondsPerByte,
                ratioBound(e, e.bidirectionalSecondsPerByte, noise.bound()));
    EXPECT_EQ(got.withMappedSecondsPerByte, 0.0) << "not measured";
    EXPECT_NEAR(got.pageableSecondsPerByte, e.pageableSecondsPerByte,
                e.pageableSecondsPerByte * 0.002);
    // g is a few microseconds on top of milliseconds: noise of 0.02 % of 10 ms is 2 us per
    // point, averaged over 18 points and the spread of n.
    EXPECT_NEAR(got.gapS, e.gapS, e.gapS * 0.05);
    EXPECT_NEAR(got.bidirectionalGapS, e.bidirectionalGapS, e.bidirectionalGapS * 0.05);
    EXPECT_EQ(got.bidirectionalLargePieceSecondsPerByte, 0.0) << "not measured";
  }
  // The rates without a width are the 16-byte width's.
  EXPECT_NEAR(p.mappedReadSecondsPerByte, 4e-11, 4e-11 * 0.002);
  EXPECT_NEAR(p.mappedWriteSecondsPerByte, 3e-11, 3e-11 * 0.002);
  EXPECT_NEAR(p.kernelLaunchS, 2.5e-6, 2.5e-6 * 0.0003);
  EXPECT_NEAR(p.streamSyncS, 7e-6, 1e-8);
  EXPECT_NEAR(p.streamOverheadS, 12e-6, 12e-6 * 0.002);
  EXPECT_NEAR(p.copyCallS, 2.8e-6, 2.8e-6 * 0.0003);
  EXPECT_NEAR(p.copyBatchedS, 1.2e-6, 1.2e-6 * 0.003);
  // Not measured: the model's fallbacks apply (docs/hardware-profiles.md).
  EXPECT_EQ(p.mappedBothWaysSecondsPerByte, 0.0);
  EXPECT_NEAR(p.hostCopySecondsPerByte, 1e-10, 1e-10 * 0.002);
  EXPECT_NEAR(p.hostCopyParallelSecondsPerByte, 1 / 45e9, 1 / 45e9 * 0.002);
  HardwareProfile named = p;
  named.name = "synthetic";
  const ProfileError valid = checkProfile(named, "test");
  EXPECT_TRUE(valid.ok()) << valid.message();
}

TEST(EstimateProfile, RefusesABentSizeSeriesAndSaysWhich) {
  BoundedNoise noise(0.0001);
  SCOPED_TRACE(noise.trace());
  CalibrationMeasurements m = test::syntheticMeasurements(5, noise);
  // Larger messages get disproportionately slower: t = L + kG (1 + k / 256 MiB).
  for (std::size_t i = 0; i < m.deviceToHost.sizes.x.size(); ++i)
    for (double& t : m.deviceToHost.sizes.seconds[i])
      t *= 1 + m.deviceToHost.sizes.x[i] / (256 * kMiB);
  const ProfileEstimate estimate = estimateProfile(m);
  EXPECT_FALSE(estimate.acceptable());
  EXPECT_TRUE(mentions(estimate.problems, "device_to_host.seconds_per_byte (G over sizes"))
      << (estimate.problems.empty() ? "" : estimate.problems.front());
  EXPECT_FALSE(mentions(estimate.problems, "host_to_device.seconds_per_byte"));
}

TEST(EstimateProfile, RefusesPieceTimesThatAreNotLinearInN) {
  BoundedNoise noise(0.0001);
  SCOPED_TRACE(noise.trace());
  CalibrationMeasurements m = test::syntheticMeasurements(5, noise);
  // A host-bound regime: beyond 32 pieces each extra piece costs 40 us instead of g.
  for (Series& series : m.hostToDevice.pieces)
    for (std::size_t i = 0; i < series.x.size(); ++i)
      for (double& t : series.seconds[i])
        t += std::max(0.0, series.x[i] - 32) * 40e-6;
  const ProfileEstimate estimate = estimateProfile(m);
  EXPECT_TRUE(mentions(estimate.problems, "host_to_device.gap_s (g over piece counts)"));
}

// Paper 001 measures g with one direction at a time; with the other direction busy the H100's
// gap per piece more than doubles. The bidirectional g is fitted like g, on its own series.
TEST(EstimateProfile, FitsTheBidirectionalGapApartFromG) {
  BoundedNoise noise(0.0001);
  SCOPED_TRACE(noise.trace());
  CalibrationMeasurements m = test::syntheticMeasurements(5, noise);
  m.hostToDevice.bidirectionalPieces.clear();
  const ProfileEstimate estimate = estimateProfile(m);
  EXPECT_TRUE(estimate.acceptable()) << estimate.problems.front();
  const double busy = test::titanDeviceToHost().bidirectionalGapS;
  EXPECT_NEAR(estimate.profile.deviceToHost.bidirectionalGapS, busy, busy * 0.05);
  EXPECT_NEAR(estimate.profile.deviceToHost.gapS, test::titanDeviceToHost().gapS,
              test::titanDeviceToHost().gapS * 0.05);
  EXPECT_EQ(estimate.profile.hostToDevice.bidirectionalGapS, 0.0)
      << "not measured: not known, and no problem";
  EXPECT_NE(find(estimate, "device_to_host.bidirectional_gap_s"), nullptr);
}

TEST(EstimateProfile, BidirectionalGapUsesTheBidirectionalRequirement) {
  BoundedNoise noise(0.0001);
  SCOPED_TRACE(noise.trace());
  CalibrationMeasurements m = test::syntheticMeasurements(5, noise);
  // Beyond 32 pieces each piece costs 40 us more at every size: no line.
  for (Series& series : m.deviceToHost.bidirectionalPieces)
    for (std::size_t i = 0; i < series.x.size(); ++i)
      for (double& t : series.seconds[i])
        t += std::max(0.0, series.x[i] - 32) * 40e-6;
  const ProfileEstimate estimate = estimateProfile(m);
  EXPECT_TRUE(mentions(estimate.problems, "device_to_host.bidirectional_gap_s (g over piece "
                                          "counts with the other direction busy)"));
  EXPECT_TRUE(mentions(estimate.problems, "exceeds 5.00 %"));
}

TEST(EstimateProfile, StoresANegativeGapAsZeroAndJudgesThat) {
  BoundedNoise noise(0.00005);
  SCOPED_TRACE(noise.trace());
  CalibrationMeasurements m = test::syntheticMeasurements(5, noise);
  // Pieces make the transfer slightly faster, 50 ns per piece: ten times what the noise can move
  // the slope, yet at most 0.5 % of the time, which a line with g = 0 still fits.
  for (Series& series : m.deviceToHost.pieces)
    for (std::size_t i = 0; i < series.x.size(); ++i)
      for (double& t : series.seconds[i])
        t -= (series.x[i] - 1) * (test::titanDeviceToHost().gapS + 50e-9);
  const ProfileEstimate estimate = estimateProfile(m);
  EXPECT_DOUBLE_EQ(estimate.profile.deviceToHost.gapS, 0.0);
  EXPECT_FALSE(mentions(estimate.problems, "device_to_host.gap_s"));
}

TEST(EstimateProfile, MissingLatencyAndSizesAreProblems) {
  BoundedNoise noise(0.0001);
  SCOPED_TRACE(noise.trace());
  CalibrationMeasurements m = test::syntheticMeasurements(3, noise);
  m.hostToDevice.latency = Series{};
  m.hostToDevice.sizes = Series{};
  const ProfileEstimate estimate = estimateProfile(m);
  EXPECT_TRUE(mentions(estimate.problems, "host_to_device.latency_s"));
  EXPECT_TRUE(mentions(estimate.problems, "host_to_device.seconds_per_byte"));
  EXPECT_TRUE(mentions(estimate.problems, "nothing was measured"));
}

TEST(EstimateProfile, OptionalSeriesMayBeMissing) {
  BoundedNoise noise(0.0001);
  SCOPED_TRACE(noise.trace());
  CalibrationMeasurements m = test::syntheticMeasurements(3, noise);
  m.hostToDevice.pageableSizes = Series{};
  m.mappedByWidth.clear();
  m.streamRounds = Series{};
  m.hostCopy = m.hostCopyParallel = Series{};
  m.skipped = {"per-stream overhead t_sc: cudaStreamSynchronize failed"};
  const ProfileEstimate estimate = estimateProfile(m);
  EXPECT_TRUE(estimate.acceptable()) << estimate.problems.front();
  EXPECT_NE(estimate.profile.notes.find("Not measured (left unknown): per-stream overhead t_sc"),
            std::string::npos);
  EXPECT_EQ(estimate.profile.hostToDevice.pageableSecondsPerByte, 0.0);
  EXPECT_EQ(estimate.profile.mappedReadSecondsPerByte, 0.0);
  EXPECT_TRUE(estimate.profile.mappedByWidth.empty());
  EXPECT_EQ(estimate.profile.streamOverheadS, 0.0);
  EXPECT_EQ(estimate.profile.hostCopySecondsPerByte, 0.0);
  EXPECT_EQ(estimate.profile.hostCopyParallelSecondsPerByte, 0.0);
}

// Several GPUs: all links both ways (140 GB/s, both directions' bytes together) and one way (106).
TEST(EstimateProfile, AllLinksBothWaysAndOneWay) {
  BoundedNoise noise(0.0001);
  SCOPED_TRACE(noise.trace());
  CalibrationMeasurements m = test::syntheticMeasurements(3, noise);
  m.allLinksDevices = 2;
  for (double mib : {256.0, 1024.0, 2048.0}) {
    const double k = mib * test::kMiB;
    m.allLinks.add(k, test::samples(50e-6 + k / 140e9, 3, noise));
    m.allLinksOneWay.add(k, test::samples(50e-6 + k / 106e9, 3, noise));
  }
  ProfileEstimate estimate = estimateProfile(m);
  ASSERT_TRUE(estimate.acceptable()) << estimate.problems.front();
  EXPECT_EQ(estimate.profile.allLinksDevices, 2);
  EXPECT_NEAR(estimate.profile.allLinksSecondsPerByte, 1 / 140e9, 1 / 140e9 * 0.002);
  EXPECT_NEAR(estimate.profile.allLinksOneWaySecondsPerByte, 1 / 106e9, 1 / 106e9 * 0.002);
  // A calibration without the one-way copies leaves that rate unknown.
  m.allLinksOneWay = Series{};
  estimate = estimateProfile(m);
  EXPECT_GT(estimate.profile.allLinksSecondsPerByte, 0.0);
  EXPECT_EQ(estimate.profile.allLinksOneWaySecondsPerByte, 0.0);
}

// On a host of one core the "parallel" threads take turns: the profile keeps the fastest count's
// rate, one thread's, and the slower line is still reported as measured.
TEST(EstimateProfile, HostCopiesSlowerOnManyThreadsKeepTheOneThreadRate) {
  BoundedNoise noise(0.0001);
  CalibrationMeasurements m = test::syntheticMeasurements(3, noise);
  m.hostCopyThreads = 2;
  m.hostCopyParallel = Series{};
  for (double mib = 128; mib <= 512; mib *= 2)
    m.hostCopyParallel.add(mib * test::kMiB, {1e-3 + mib * test::kMiB * 1.2e-10});
  const ProfileEstimate estimate = estimateProfile(m);
  EXPECT_TRUE(estimate.acceptable()) << estimate.problems.front();
  EXPECT_NEAR(estimate.profile.hostCopySecondsPerByte, 1e-10, 1e-10 * 0.002);
  EXPECT_EQ(estimate.profile.hostCopyParallelSecondsPerByte,
            estimate.profile.hostCopySecondsPerByte);
  const FitReport* parallel = find(estimate, "host_copy.parallel_seconds_per_byte");
  ASSERT_NE(parallel, nullptr);
  EXPECT_NEAR(parallel->fit.slope, 1.2e-10, 1e-13);
}

// The rate of each thread count measured, and what a small staged call pays per ring thread.
TEST(EstimateProfile, HostCopiesPerThreadCountAndTheRingsCostPerThread) {
  BoundedNoise noise(0.0001);
  CalibrationMeasurements m = test::syntheticMeasurements(3, noise);
  const std::pair<int, double> between[] = {{2, 16e9}, {4, 22e9}, {8, 38e9}};
  for (const auto& [threads, rate] : between) {
    m.hostCopyByThreads.push_back({threads, {}});
    for (double mib = 128; mib <= 512; mib *= 2)
      m.hostCopyByThreads.back().sizes.add(
          mib * test::kMiB, test::samples(100e-6 + mib * test::kMiB / rate, 3, noise));
  }
  for (int threads = 4; threads <= 15; threads += threads == 14 ? 1 : 2) // 32 pieces
    m.stagedCallThreadPieces.add(threads * 32,
                                 test::samples(300e-6 + threads * 32 * 0.9e-6, 3, noise));
  ProfileEstimate estimate = estimateProfile(m);
  ASSERT_TRUE(estimate.acceptable()) << estimate.problems.front();
  const std::vector<HardwareProfile::HostCopyThreads>& counts = estimate.profile.hostCopyByThreads;
  ASSERT_EQ(counts.size(), 5u);
  const std::pair<int, double> expected[] = {
      {1, 10e9}, {2, 16e9}, {4, 22e9}, {8, 38e9}, {15, 45e9}};
  for (std::size_t i = 0; i < counts.size(); ++i) {
    EXPECT_EQ(counts[i].threads, expected[i].first);
    EXPECT_NEAR(counts[i].secondsPerByte, 1 / expected[i].second, 0.003 / expected[i].second);
  }
  EXPECT_NEAR(estimate.profile.hostCopyThreadPieceS, 0.9e-6, 0.01e-6);
  // A count that was not measured leaves the curve out: the model falls back on one thread's
  // rate and the parallel one, which are still known.
  m.hostCopyByThreads[1].sizes = Series{};
  estimate = estimateProfile(m);
  EXPECT_TRUE(estimate.profile.hostCopyByThreads.empty());
  EXPECT_GT(estimate.profile.hostCopyParallelSecondsPerByte, 0);
}

TEST(EstimateProfile, RefusesABentHostCopyLineAndNamesIt) {
  BoundedNoise noise(0.0001);
  CalibrationMeasurements m = test::syntheticMeasurements(3, noise);
  for (double& t : m.hostCopy.seconds.back())
    t *= 1.6; // the largest copy slowed down: swapping, or another process's copies
  const ProfileEstimate estimate = estimateProfile(m);
  EXPECT_FALSE(estimate.acceptable());
  EXPECT_TRUE(mentions(estimate.problems, "host_copy.seconds_per_byte (host copies over sizes, one "
                                          "thread)"))
      << estimate.problems.front();
}

TEST(EstimateProfile, SyncNotSlowerThanLaunchIsAProblem) {
  BoundedNoise noise(0.0001);
  SCOPED_TRACE(noise.trace());
  CalibrationMeasurements m = test::syntheticMeasurements(3, noise);
  m.launchSync = onePoint({1e-6, 1e-6, 1e-6});
  const ProfileEstimate estimate = estimateProfile(m);
  EXPECT_TRUE(mentions(estimate.problems, "stream_sync_s"));
}

// `fast` samples spread over [fastValue, fastValue * 1.001), then `slow` ones at slowValue,
// in the order a calibration could meet them: a fast phase, then the host slowing down.
std::vector<double> hostPhases(int fast, double fastValue, int slow, double slowValue) {
  std::vector<double> samples;
  for (int i = 0; i < fast; ++i)
    samples.push_back(fastValue * (1 + 0.001 * i / fast));
  samples.insert(samples.end(), slow, slowValue);
  return samples;
}

TEST(EstimateProfile, HostCostsKeepTheFastBurstsWhenMostAreSlow) {
  BoundedNoise noise(0.0001);
  SCOPED_TRACE(noise.trace());
  CalibrationMeasurements m = test::syntheticMeasurements(3, noise);
  // 64 bursts, only 20 of them on a quiet host: the median of these is the slow value.
  m.kernelLaunch = onePoint(hostPhases(20, 2.0e-6, 44, 4.2e-6));
  m.launchSync = onePoint(hostPhases(20, 8.5e-6, 44, 10.5e-6));
  m.copyCall = onePoint(hostPhases(20, 1.9e-6, 44, 3.1e-6));
  ASSERT_GT(summarize(m.kernelLaunch.seconds[0]).median, 4e-6) << "the median alone would miss";

  const ProfileEstimate estimate = estimateProfile(m);
  const HardwareProfile& p = estimate.profile;
  EXPECT_GE(p.kernelLaunchS, 2.0e-6);
  EXPECT_LT(p.kernelLaunchS, 2.0e-6 * 1.001);
  EXPECT_GE(p.copyCallS, 1.9e-6);
  EXPECT_LT(p.copyCallS, 1.9e-6 * 1.001);
  // Both quartiles from the fast phase: the synchronization is their difference.
  EXPECT_NEAR(p.streamSyncS, 6.5e-6, 8.5e-9);
}

TEST(EstimateProfile, OneLuckyBurstDoesNotSetAHostCost) {
  BoundedNoise noise(0.0001);
  SCOPED_TRACE(noise.trace());
  CalibrationMeasurements m = test::syntheticMeasurements(3, noise);
  // A burst timed across a clock hiccup can come out far too short; the minimum would take it.
  std::vector<double> copyCalls = hostPhases(63, 2.0e-6, 0, 0);
  copyCalls.insert(copyCalls.begin() + 30, 0.4e-6);
  m.copyCall = onePoint(copyCalls);
  const ProfileEstimate estimate = estimateProfile(m);
  EXPECT_GE(estimate.profile.copyCallS, 2.0e-6);
  EXPECT_LT(estimate.profile.copyCallS, 2.0e-6 * 1.001);
}

TEST(EstimateProfile, MappedCostPerElementWidth) {
  BoundedNoise noise(0.0002);
  SCOPED_TRACE(noise.trace());
  const ProfileEstimate estimate = estimateProfile(test::syntheticMeasurements(7, noise));
  ASSERT_TRUE(estimate.acceptable()) << estimate.problems.front();
  const std::vector<MappedWidthCost> expected = test::syntheticMappedByWidth();
  const std::vector<MappedWidthCost>& got = estimate.profile.mappedByWidth;
  ASSERT_EQ(got.size(), expected.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    SCOPED_TRACE(expected[i].elementBytes);
    EXPECT_EQ(got[i].elementBytes, expected[i].elementBytes);
    EXPECT_NEAR(got[i].readSecondsPerByte, expected[i].readSecondsPerByte,
                expected[i].readSecondsPerByte * 0.002);
    EXPECT_NEAR(got[i].writeSecondsPerByte, expected[i].writeSecondsPerByte,
                expected[i].writeSecondsPerByte * 0.002);
  }
  EXPECT_NE(find(estimate, "mapped.by_width.1B.read_seconds_per_byte"), nullptr);
}

TEST(EstimateProfile, AWidthNotMeasuredIsLeftOut) {
  BoundedNoise noise(0.0002);
  SCOPED_TRACE(noise.trace());
  CalibrationMeasurements m = test::syntheticMeasurements(7, noise);
  m.mappedByWidth.front().writeSizes = Series{}; // 1-byte writes skipped
  const ProfileEstimate estimate = estimateProfile(m);
  ASSERT_TRUE(estimate.acceptable()) << estimate.problems.front();
  ASSERT_EQ(estimate.profile.mappedByWidth.size(), 4u);
  EXPECT_EQ(estimate.profile.mappedByWidth.front().elementBytes, 2);
}

TEST(EstimateProfile, RefusesABentMappedKernelLine) {
  BoundedNoise noise(0.0002);
  SCOPED_TRACE(noise.trace());
  CalibrationMeasurements m = test::syntheticMeasurements(7, noise);
  // The largest size 10 % slow: no line within the mapped kernels' 3 % requirement.
  for (double& t : m.mappedByWidth.back().writeSizes.seconds.back())
    t *= 1.1;
  EXPECT_TRUE(mentions(estimateProfile(m).problems, "mapped.by_width.16B.write_seconds_per_byte"));
}

} // namespace
} // namespace overlap::calibration
