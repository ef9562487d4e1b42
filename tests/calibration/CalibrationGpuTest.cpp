// A quick calibration and accuracy check on the GPU: the pieces work together and produce a
// profile the reader accepts. No timing is asserted beyond physical plausibility; the real
// calibration's quality checks and the committed accuracy table judge the numbers.
#include "Calibrator.h"
#include "HostCopyBench.h"
#include "LinkBench.h"
#include "ProfileEstimator.h"

#include "overlap/Device.h"
#include "overlap/ProfileIo.h"
#include "overlap/SampleStats.h"

#include "GpuTestSupport.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <vector>

namespace overlap::calibration {
namespace {

class QuickCalibration : public ::testing::Test {
protected:
  void SetUp() override {
    OVERLAP_SKIP_WITHOUT_GPU();
    ASSERT_EQ(cudaSetDevice(0), cudaSuccess);
    plan_ = CalibrationPlan::quick();
    OVERLAP_ASSERT_OK(LinkBench::create(limitsFor(plan_, true, true), &bench_));
  }

  CalibrationPlan plan_;
  std::unique_ptr<LinkBench> bench_;
};

TEST_F(QuickCalibration, MeasuresFitsAndWritesAReadableProfile) {
  DeviceDescription device;
  OVERLAP_ASSERT_OK(describeDevice(0, &device));
  CalibrationMeasurements m;
  plan_.busyLinkRepeats = plan_.repeats + 2; // so that the two counts can be told apart
  const std::string busyLabel = " x " + std::to_string(plan_.busyLinkRepeats) + " repeats";
  int progressLines = 0;
  std::vector<std::string> busyLines; // of the busy-link steps
  OVERLAP_ASSERT_OK(measureLink(
      *bench_, plan_,
      [&](const std::string& line) {
        ++progressLines;
        for (const char* step : {"bidirectional G", "bidirectional g"})
          if (line.find(step) != std::string::npos)
            busyLines.push_back(line);
      },
      &m));
  EXPECT_GE(progressLines, 2 * 16) << "every step reports its start and end";
  EXPECT_EQ(busyLines.size(), 2u * 4) << "the four busy-link steps report start and end";
  for (const std::string& line : busyLines)
    EXPECT_NE(line.find(busyLabel), std::string::npos) << "names its repeats: " << line;
  ASSERT_FALSE(m.hostToDevice.latency.empty());
  EXPECT_EQ(m.hostToDevice.latency.seconds[0].size(),
            static_cast<std::size_t>(plan_.latencyRepeats));
  ASSERT_EQ(m.deviceToHost.sizes.x.size(), plan_.sizeBytes.size());
  EXPECT_EQ(m.deviceToHost.sizes.seconds[0].size(), static_cast<std::size_t>(plan_.repeats));
  const std::size_t busyRepeats = static_cast<std::size_t>(plan_.busyLinkRepeats);
  for (const DirectionMeasurements* d : {&m.hostToDevice, &m.deviceToHost}) {
    ASSERT_FALSE(d->bidirectionalSizes.empty()) << "not skipped";
    EXPECT_EQ(d->bidirectionalSizes.seconds[0].size(), busyRepeats);
    ASSERT_FALSE(d->bidirectionalPieces.empty()) << "not skipped";
    EXPECT_EQ(d->bidirectionalPieces[0].seconds[0].size(), busyRepeats);
  }

  ProfileEstimate estimate = estimateProfile(m);
  identify(device, todayUtc(), &estimate.profile);
  estimate.profile.name = "quick-test";
  for (const LinkDirection* d : {&estimate.profile.hostToDevice, &estimate.profile.deviceToHost}) {
    // Plausible for any PCIe or NVLink-C2C GPU: 1 us .. 1 ms latency, 1 .. 1000 GB/s.
    EXPECT_GT(d->latencyS, 1e-7);
    EXPECT_LT(d->latencyS, 1e-3);
    EXPECT_GT(d->secondsPerByte, 1e-12);
    EXPECT_LT(d->secondsPerByte, 1e-9);
  }
  EXPECT_GT(estimate.profile.kernelLaunchS, 0.0);
  for (const Series* hostCost : {&m.copyCall, &m.kernelLaunch, &m.launchSync}) {
    ASSERT_FALSE(hostCost->empty()) << "not skipped";
    EXPECT_EQ(hostCost->seconds[0].size(), static_cast<std::size_t>(plan_.hostCostSamples));
  }
  ASSERT_EQ(m.streamRounds.x.size(), plan_.streamCounts.size());
  EXPECT_EQ(m.streamRounds.seconds[0].size(), static_cast<std::size_t>(plan_.streamRoundRepeats));
  // A driver call that only queues work: above 100 ns, far below a millisecond.
  EXPECT_GT(estimate.profile.copyCallS, 1e-7);
  EXPECT_LT(estimate.profile.copyCallS, 1e-3);
  ASSERT_EQ(m.mappedByWidth.size(), plan_.mappedElementBytes.size()) << "no width skipped";
  ASSERT_EQ(estimate.profile.mappedByWidth.size(), plan_.mappedElementBytes.size());
  EXPECT_EQ(estimate.profile.mappedReadSecondsPerByte,
            estimate.profile.mappedByWidth.back().readSecondsPerByte)
      << "the 16-byte width's";
  for (const MappedWidthCost& w : estimate.profile.mappedByWidth) {
    SCOPED_TRACE(std::to_string(w.elementBytes) + "-byte elements");
    // Mapped traffic crosses the host link: slower than 1000 GB/s, faster than 0.1 GB/s.
    EXPECT_GT(w.readSecondsPerByte, 1e-12);
    EXPECT_LT(w.readSecondsPerByte, 1e-8);
    EXPECT_GT(w.writeSecondsPerByte, 1e-12);
    EXPECT_LT(w.writeSecondsPerByte, 1e-8);
  }
  for (const DirectionMeasurements* d : {&m.hostToDevice, &m.deviceToHost}) {
    EXPECT_FALSE(d->pageableSizes.empty()) << "not skipped";
  }
  ASSERT_EQ(m.hostCopy.x.size(), plan_.hostCopyBytes.size()) << "not skipped";
  ASSERT_EQ(m.hostCopyParallel.x.size(), plan_.hostCopyBytes.size()) << "not skipped";
  EXPECT_GE(m.hostCopyThreads, 1);
  EXPECT_LE(m.hostCopyThreads, 16) << "the runtime's largest ring";
  // Host memory: slower than 1000 GB/s, faster than 0.1 GB/s, many threads no slower than one.
  const double oneThread = estimate.profile.hostCopySecondsPerByte;
  const double parallel = estimate.profile.hostCopyParallelSecondsPerByte;
  EXPECT_GT(oneThread, 1e-12);
  EXPECT_LT(oneThread, 1e-8);
  EXPECT_GT(parallel, 1e-12);
  EXPECT_LE(parallel, oneThread);
  std::cout << "host copies: " << 1e-9 / oneThread << " GB/s on one thread, " << 1e-9 / parallel
            << " GB/s on " << m.hostCopyThreads << "\n";
  // The counts between and a small staged call over ring threads were measured where the host
  // has threads to spare (the ring's widest above 4); the cost per thread is under a millisecond.
  if (m.hostCopyThreads > 4) {
    EXPECT_FALSE(m.hostCopyByThreads.empty());
    for (const auto& t : m.hostCopyByThreads)
      EXPECT_EQ(t.sizes.x.size(), plan_.hostCopyBytes.size()) << t.threads << " threads";
    EXPECT_FALSE(m.stagedCallThreadPieces.empty()) << "not skipped";
    EXPECT_LT(estimate.profile.hostCopyThreadPieceS, 1e-4);
    for (const HardwareProfile::HostCopyThreads& t : estimate.profile.hostCopyByThreads)
      std::cout << "host copies on " << t.threads << " threads: " << 1e-9 / t.secondsPerByte
                << " GB/s\n";
    std::cout << "a staged call's ring: " << estimate.profile.hostCopyThreadPieceS * 1e6
              << " us per thread and piece\n";
  }
  int devices = 0;
  ASSERT_EQ(cudaGetDeviceCount(&devices), cudaSuccess);
  if (devices >= 2) {
    // All links at once, both ways and one way: measured, and no faster than 100 GB/s a link.
    EXPECT_EQ(m.allLinksDevices, devices);
    ASSERT_FALSE(m.allLinks.empty()) << "not skipped";
    ASSERT_FALSE(m.allLinksOneWay.empty()) << "not skipped";
    EXPECT_GT(estimate.profile.allLinksSecondsPerByte, 1e-11 / devices);
    EXPECT_GT(estimate.profile.allLinksOneWaySecondsPerByte, 1e-11 / devices);
    std::cout << "all " << devices << " links: " << 1e-9 / estimate.profile.allLinksSecondsPerByte
              << " GB/s both ways, " << 1e-9 / estimate.profile.allLinksOneWaySecondsPerByte
              << " GB/s one way\n";
  } else {
    EXPECT_TRUE(m.allLinks.empty() && m.allLinksOneWay.empty()) << "one GPU: no links to add";
  }
  HardwareProfile read;
  ASSERT_TRUE(profileFromJson(profileToJson(estimate.profile), "quick", &read).ok());
  EXPECT_EQ(read.mappedWriteSecondsPerByte, estimate.profile.mappedWriteSecondsPerByte);
  EXPECT_EQ(read.deviceName, device.name);
  EXPECT_EQ(read.hostToDevice.secondsPerByte, estimate.profile.hostToDevice.secondsPerByte);
  EXPECT_EQ(read.mappedByWidth.size(), estimate.profile.mappedByWidth.size());
  EXPECT_EQ(read.hostCopyParallelSecondsPerByte, estimate.profile.hostCopyParallelSecondsPerByte);
  EXPECT_EQ(read.allLinksOneWaySecondsPerByte, estimate.profile.allLinksOneWaySecondsPerByte);
  for (const std::string& problem : estimate.problems)
    std::cout << "quick plan fit note: " << problem << "\n"; // informative, not a failure
}

// The host-cost steps of the standard plan, with its bursts and counts, on the bench: the
// quantities are physically plausible and ordered. The back-to-back launches of earlier
// calibrations are timed too and printed beside the bursts, for the reader to compare.
TEST_F(QuickCalibration, HostCostsFromShortBurstsArePlausible) {
  const CalibrationPlan standard = CalibrationPlan::standard();
  std::vector<double> launch;
  std::vector<double> launchSync;
  std::vector<double> copy;
  std::vector<double> graph;
  std::vector<double> batch;
  for (int i = 0; i < standard.warmup + standard.hostCostSamples; ++i) {
    double seconds = 0;
    OVERLAP_ASSERT_OK(bench_->launchBurst(standard.launchBurst, &seconds));
    launch.push_back(seconds);
    OVERLAP_ASSERT_OK(bench_->launchSyncOverhead(standard.launchSyncCount, &seconds));
    launchSync.push_back(seconds);
    OVERLAP_ASSERT_OK(
        bench_->copyCalls(standard.copyCallStreams, standard.streamRoundBytes, &seconds));
    copy.push_back(seconds);
    OVERLAP_ASSERT_OK(
        bench_->graphLaunch(standard.copyCallStreams, standard.streamRoundBytes, &seconds));
    graph.push_back(seconds);
    OVERLAP_ASSERT_OK(bench_->copyBatches(standard.copyCallStreams, standard.copyBatchCopies,
                                          standard.streamRoundBytes, &seconds));
    batch.push_back(seconds);
    if (i < standard.warmup) {
      launch.clear();
      launchSync.clear();
      copy.clear();
      graph.clear();
      batch.clear();
    }
  }
  CalibrationMeasurements m;
  m.kernelLaunch.add(standard.launchBurst, launch);
  m.launchSync.add(standard.launchSyncCount, launchSync);
  m.copyCall.add(standard.copyCallStreams, copy);
  m.graphLaunch.add(standard.copyCallStreams, graph);
  m.copyBatch.add(standard.copyBatchCopies, batch);
  const ProfileEstimate estimate = estimateProfile(m);
  const HardwareProfile& p = estimate.profile;
  // Driver calls that only queue work, or wait for an empty kernel: above 100 ns, far below a
  // millisecond each.
  for (double cost :
       {p.kernelLaunchS, p.copyCallS, p.kernelLaunchS + p.streamSyncS, p.graphOpLaunchS}) {
    EXPECT_GT(cost, 1e-7);
    EXPECT_LT(cost, 1e-3);
  }
  EXPECT_GT(p.streamSyncS, 0.0) << "a launch and a synchronization take longer than a launch";
  // A copy more in a batch costs the host at most about a call of its own (its driver may not
  // batch: CopyBatch then issues the copies one by one), and a batch costs more than one copy.
  EXPECT_LT(p.copyBatchedS, 1.5 * p.copyCallS);
  EXPECT_GT(summarize(batch).q1, p.copyCallS);
  for (const std::string& problem : estimate.problems)
    EXPECT_EQ(problem.find("stream_sync_s"), std::string::npos) << problem;

  const int backToBack = 4096;
  std::vector<double> queueFull;
  for (int i = 0; i < 3; ++i) {
    double seconds = 0;
    OVERLAP_ASSERT_OK(bench_->launchBurst(backToBack, &seconds));
    queueFull.push_back(seconds);
  }
  const SampleStats bursts = summarize(launch);
  std::cout << "launch per call: bursts of " << standard.launchBurst << " lower quartile "
            << p.kernelLaunchS * 1e6 << " us (median " << bursts.median * 1e6 << ", min "
            << bursts.min * 1e6 << ", max " << bursts.max * 1e6 << "); " << backToBack
            << " back to back, median of 3: " << summarize(queueFull).median * 1e6
            << " us; launch + synchronize " << (p.kernelLaunchS + p.streamSyncS) * 1e6
            << " us; copy call " << p.copyCallS * 1e6 << " us (median "
            << summarize(copy).median * 1e6 << "); a copy more in a batch of "
            << standard.copyBatchCopies << " " << p.copyBatchedS * 1e6 << " us\n";
  double refused = 0;
  EXPECT_EQ(bench_->launchBurst(0, &refused).code, cudaErrorInvalidValue);
}

TEST_F(QuickCalibration, AccuracyCheckCoversTheWholeGrid) {
  HardwareProfile profile;
  profile.name = "guess";
  profile.hostToDevice = {5e-6, 1.0 / 50e9, 1e-6, 1.0 / 45e9};
  profile.deviceToHost = profile.hostToDevice;
  AccuracyReport report;
  AccuracyPlan& accuracy = plan_.accuracy;
  accuracy.busyLinkRepeats = accuracy.repeats + 2; // so that the two counts can be told apart
  OVERLAP_ASSERT_OK(checkAccuracy(*bench_, profile, plan_, nullptr, &report));
  const std::size_t points = accuracy.sizeBytes.size() * accuracy.pieceCounts.size();
  EXPECT_EQ(report.rows.size(), 4 * points) << "one way, other way busy; x 2";
  for (const AccuracyRow& row : report.rows) {
    const bool oneWay =
        row.which == AccuracyCase::HostToDevice || row.which == AccuracyCase::DeviceToHost;
    EXPECT_EQ(row.measured.count, oneWay ? accuracy.repeats : accuracy.busyLinkRepeats)
        << caseName(row.which);
    EXPECT_GT(row.measured.median, 0.0);
  }
  EXPECT_TRUE(std::any_of(report.notes.begin(), report.notes.end(), [](const std::string& note) {
    return note.find("repeated") != std::string::npos;
  })) << "the report says how often each case was repeated";
  const std::string busySamples =
      " of " +
      std::to_string(2 * points *
                     static_cast<std::size_t>(plan_.warmup + accuracy.busyLinkRepeats)) +
      " bidirectional samples";
  EXPECT_TRUE(std::any_of(report.notes.begin(), report.notes.end(), [&](const std::string& note) {
    return note.find(busySamples) != std::string::npos;
  })) << "the report counts every busy-link sample, warm-up included";
}

// The host copies' bench: its persistent threads serve sample after sample with any thread count
// up to its own (a sample waits for every one of its threads), and it refuses work beyond it.
TEST(HostCopyBench, ServesEveryThreadCountAndRefusesWorkBeyondItsBuffers) {
  OVERLAP_SKIP_WITHOUT_GPU();
  std::unique_ptr<HostCopyBench> bench;
  OVERLAP_ASSERT_OK(HostCopyBench::create(8 << 20, 3, &bench));
  double seconds = 0;
  for (int round = 0; round < 3; ++round)
    for (int threads : {3, 1, 2}) {
      seconds = -1;
      OVERLAP_ASSERT_OK(bench->copy(std::size_t{8} << 20, threads, &seconds));
      EXPECT_GT(seconds, 0.0);
      OVERLAP_ASSERT_OK(bench->copy(1, threads, &seconds)); // a piece of one byte
    }
  const Status tooMany = bench->copy(1 << 20, 4, &seconds);
  EXPECT_EQ(tooMany.code, cudaErrorInvalidValue);
  EXPECT_NE(std::string(tooMany.call).find("HostCopyBench::copy"), std::string::npos);
  EXPECT_EQ(bench->copy((8 << 20) + 1, 1, &seconds).code, cudaErrorInvalidValue);
  EXPECT_EQ(bench->copy(0, 1, &seconds).code, cudaErrorInvalidValue);
  EXPECT_EQ(HostCopyBench::parallelThreads(1), 1);
  EXPECT_EQ(HostCopyBench::parallelThreads(64), 16) << "the runtime's largest ring";
}

TEST_F(QuickCalibration, RefusesWorkBeyondItsBuffers) {
  double seconds = 0;
  const std::size_t maxBytes = limitsFor(plan_, true, true).maxBytes;
  const Status status =
      bench_->transfer(TransferDirection::HostToDevice, maxBytes + 1, 1, &seconds);
  EXPECT_EQ(status.code, cudaErrorInvalidValue);
  EXPECT_NE(std::string(status.call).find("LinkBench::transfer"), std::string::npos);
  const Status mapped = bench_->mappedKernel(MappedAccess::Read, 16, maxBytes + 16, &seconds);
  EXPECT_EQ(mapped.code, cudaErrorInvalidValue);
  EXPECT_NE(std::string(mapped.call).find("LinkBench::mappedKernel"), std::string::npos);
  EXPECT_EQ(bench_->mappedKernel(MappedAccess::Write, 16, 4096 + 8, &seconds).code,
            cudaErrorInvalidValue)
      << "not a multiple of 16 bytes";
  EXPECT_EQ(bench_->mappedKernel(MappedAccess::Read, 3, 4096, &seconds).code, cudaErrorInvalidValue)
      << "no 3-byte elements";
  // The bench still works after the refusal: the gate was never closed.
  OVERLAP_ASSERT_OK(bench_->transfer(TransferDirection::DeviceToHost, 4096, 2, &seconds));
  EXPECT_GT(seconds, 0.0);
  double background = 0;
  OVERLAP_ASSERT_OK(
      bench_->transfer(TransferDirection::HostToDevice, 4 << 20, 1, &seconds, 4096, &background));
  EXPECT_LT(background, seconds) << "4 KiB the other way cannot keep the link busy";
  OVERLAP_ASSERT_OK(bench_->transfer(TransferDirection::HostToDevice, 1 << 20, 4, &seconds,
                                     backgroundBytesFor(1 << 20, 4), &background));
  EXPECT_GE(background, seconds);
}

} // namespace
} // namespace overlap::calibration
