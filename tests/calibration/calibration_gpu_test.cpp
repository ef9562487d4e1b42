// A quick calibration and accuracy check on the GPU: the pieces work together and produce a
// profile the reader accepts. No timing is asserted beyond physical plausibility; the real
// calibration's quality checks and the committed accuracy table judge the numbers.
#include "accuracy_check.h"
#include "calibrator.h"
#include "link_bench.h"
#include "profile_estimator.h"

#include "overlap/device.h"
#include "overlap/profile_io.h"
#include "overlap/sample_stats.h"

#include "gpu_test_support.h"

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
    accuracy_ = AccuracyPlan::quick();
    OVERLAP_ASSERT_OK(LinkBench::create(limits_for(plan_, &accuracy_), &bench_));
  }

  CalibrationPlan plan_;
  AccuracyPlan accuracy_;
  std::unique_ptr<LinkBench> bench_;
};

TEST_F(QuickCalibration, MeasuresFitsAndWritesAReadableProfile) {
  DeviceDescription device;
  OVERLAP_ASSERT_OK(describe_device(0, &device));
  CalibrationMeasurements m;
  m.device = identity_of(device, today_utc());
  plan_.busy_link_repeats = plan_.repeats + 2; // so that the two counts can be told apart
  const std::string busy_label = " x " + std::to_string(plan_.busy_link_repeats) + " repeats";
  int progress_lines = 0;
  std::vector<std::string> busy_lines; // of the busy-link steps
  OVERLAP_ASSERT_OK(measure_link(
      *bench_, plan_,
      [&](const std::string& line) {
        ++progress_lines;
        for (const char* step : {"bidirectional G", "bidirectional g", "simultaneous g"})
          if (line.find(step) != std::string::npos)
            busy_lines.push_back(line);
      },
      &m));
  EXPECT_GE(progress_lines, 2 * 20) << "every step reports its start and end";
  EXPECT_EQ(busy_lines.size(), 2u * 5) << "the five busy-link steps report start and end";
  for (const std::string& line : busy_lines)
    EXPECT_NE(line.find(busy_label), std::string::npos) << "names its repeats: " << line;
  EXPECT_EQ(m.host_to_device.one_byte_seconds.size(),
            static_cast<std::size_t>(plan_.latency_repeats));
  ASSERT_EQ(m.device_to_host.sizes.x.size(), plan_.size_bytes.size());
  EXPECT_EQ(m.device_to_host.sizes.seconds[0].size(), static_cast<std::size_t>(plan_.repeats));
  const std::size_t busy_repeats = static_cast<std::size_t>(plan_.busy_link_repeats);
  for (const DirectionMeasurements* d : {&m.host_to_device, &m.device_to_host}) {
    ASSERT_FALSE(d->bidirectional_sizes.empty()) << "not skipped";
    EXPECT_EQ(d->bidirectional_sizes.seconds[0].size(), busy_repeats);
    ASSERT_FALSE(d->bidirectional_pieces.empty()) << "not skipped";
    EXPECT_EQ(d->bidirectional_pieces[0].seconds[0].size(), busy_repeats);
    ASSERT_FALSE(d->simultaneous_pieces.empty()) << "not skipped";
    EXPECT_EQ(d->simultaneous_pieces[0].seconds[0].size(), busy_repeats);
  }

  ProfileEstimate estimate = estimate_profile(m);
  estimate.profile.name = "quick-test";
  for (const LinkDirection* d :
       {&estimate.profile.host_to_device, &estimate.profile.device_to_host}) {
    // Plausible for any PCIe or NVLink-C2C GPU: 1 us .. 1 ms latency, 1 .. 1000 GB/s.
    EXPECT_GT(d->latency_s, 1e-7);
    EXPECT_LT(d->latency_s, 1e-3);
    EXPECT_GT(d->seconds_per_byte, 1e-12);
    EXPECT_LT(d->seconds_per_byte, 1e-9);
  }
  EXPECT_GT(estimate.profile.kernel_launch_s, 0.0);
  ASSERT_EQ(m.copy_call_seconds.size(), static_cast<std::size_t>(plan_.host_cost_samples))
      << "copy calls were not skipped";
  EXPECT_EQ(m.kernel_launch_seconds.size(), static_cast<std::size_t>(plan_.host_cost_samples));
  EXPECT_EQ(m.launch_sync_seconds.size(), static_cast<std::size_t>(plan_.host_cost_samples));
  ASSERT_EQ(m.stream_rounds.x.size(), plan_.stream_counts.size());
  EXPECT_EQ(m.stream_rounds.seconds[0].size(),
            static_cast<std::size_t>(plan_.stream_round_repeats));
  // A driver call that only queues work: above 100 ns, far below a millisecond.
  EXPECT_GT(estimate.profile.copy_call_s, 1e-7);
  EXPECT_LT(estimate.profile.copy_call_s, 1e-3);
  ASSERT_EQ(m.mapped_by_width.size(), plan_.mapped_element_bytes.size()) << "no width skipped";
  ASSERT_EQ(estimate.profile.mapped_by_width.size(), plan_.mapped_element_bytes.size());
  for (const MappedWidthCost& w : estimate.profile.mapped_by_width) {
    SCOPED_TRACE(std::to_string(w.element_bytes) + "-byte elements");
    // Mapped traffic crosses the host link: slower than 1000 GB/s, faster than 0.1 GB/s.
    EXPECT_GT(w.read_seconds_per_byte, 1e-12);
    EXPECT_LT(w.read_seconds_per_byte, 1e-8);
    EXPECT_GT(w.write_seconds_per_byte, 1e-12);
    EXPECT_LT(w.write_seconds_per_byte, 1e-8);
  }
  ASSERT_EQ(m.mapped_both_ways_sizes.x.size(), plan_.mapped_kernel_bytes.size())
      << "the both-ways kernel was not skipped: " << (m.skipped.empty() ? "" : m.skipped.front());
  EXPECT_GT(estimate.profile.mapped_both_ways_seconds_per_byte, 1e-12);
  EXPECT_LT(estimate.profile.mapped_both_ways_seconds_per_byte, 1e-8);
  // The host's copies into pinned memory: 0.1 .. 1000 GB/s on one thread, no slower on more.
  ASSERT_FALSE(m.host_copy.empty()) << "the host copies were not skipped";
  EXPECT_GT(estimate.profile.host_copy_seconds_per_byte, 1e-12);
  EXPECT_LT(estimate.profile.host_copy_seconds_per_byte, 1e-8);
  EXPECT_LE(estimate.profile.host_copy_parallel_seconds_per_byte,
            estimate.profile.host_copy_seconds_per_byte);
  EXPECT_GE(estimate.profile.host_copy_threads, 1);
  HardwareProfile read;
  ASSERT_TRUE(profile_from_json(profile_to_json(estimate.profile), "quick", &read).ok());
  EXPECT_EQ(read.mapped_both_ways_seconds_per_byte,
            estimate.profile.mapped_both_ways_seconds_per_byte);
  EXPECT_EQ(read.device_name, device.name);
  EXPECT_EQ(read.host_to_device.seconds_per_byte, estimate.profile.host_to_device.seconds_per_byte);
  EXPECT_EQ(read.mapped_by_width.size(), estimate.profile.mapped_by_width.size());
  for (const std::string& problem : estimate.problems)
    std::cout << "quick plan fit note: " << problem << "\n"; // informative, not a failure
}

// The host-cost steps of the standard plan, with its bursts and counts, on the bench: the
// quantities are physically plausible and ordered. The back-to-back launches of earlier
// calibrations are timed too and printed beside the bursts, for the reader to compare.
TEST_F(QuickCalibration, HostCostsFromShortBurstsArePlausible) {
  const CalibrationPlan standard = CalibrationPlan::standard();
  std::vector<double> launch;
  std::vector<double> launch_sync;
  std::vector<double> copy;
  for (int i = 0; i < standard.warmup + standard.host_cost_samples; ++i) {
    double seconds = 0;
    OVERLAP_ASSERT_OK(bench_->launch_burst(standard.launch_burst, &seconds));
    launch.push_back(seconds);
    OVERLAP_ASSERT_OK(bench_->launch_sync_overhead(standard.launch_sync_count, &seconds));
    launch_sync.push_back(seconds);
    OVERLAP_ASSERT_OK(
        bench_->copy_calls(standard.copy_call_streams, standard.stream_round_bytes, &seconds));
    copy.push_back(seconds);
    if (i < standard.warmup) {
      launch.clear();
      launch_sync.clear();
      copy.clear();
    }
  }
  CalibrationMeasurements m;
  m.kernel_launch_seconds = launch;
  m.launch_sync_seconds = launch_sync;
  m.copy_call_seconds = copy;
  const ProfileEstimate estimate = estimate_profile(m);
  const HardwareProfile& p = estimate.profile;
  // Driver calls that only queue work, or wait for an empty kernel: above 100 ns, far below a
  // millisecond each.
  for (double cost : {p.kernel_launch_s, p.copy_call_s, p.kernel_launch_s + p.stream_sync_s}) {
    EXPECT_GT(cost, 1e-7);
    EXPECT_LT(cost, 1e-3);
  }
  EXPECT_GT(p.stream_sync_s, 0.0) << "a launch and a synchronization take longer than a launch";
  for (const std::string& problem : estimate.problems)
    EXPECT_EQ(problem.find("stream_sync_s"), std::string::npos) << problem;

  const int back_to_back = 4096;
  std::vector<double> queue_full;
  for (int i = 0; i < 3; ++i) {
    double seconds = 0;
    OVERLAP_ASSERT_OK(bench_->launch_burst(back_to_back, &seconds));
    queue_full.push_back(seconds);
  }
  const SampleStats bursts = summarize(launch);
  std::cout << "launch per call: bursts of " << standard.launch_burst << " lower quartile "
            << p.kernel_launch_s * 1e6 << " us (median " << bursts.median * 1e6 << ", min "
            << bursts.min * 1e6 << ", max " << bursts.max * 1e6 << "); " << back_to_back
            << " back to back, median of 3: " << summarize(queue_full).median * 1e6
            << " us; launch + synchronize " << (p.kernel_launch_s + p.stream_sync_s) * 1e6
            << " us; copy call " << p.copy_call_s * 1e6 << " us (median "
            << summarize(copy).median * 1e6 << ")\n";
  double refused = 0;
  EXPECT_EQ(bench_->launch_burst(0, &refused).code, cudaErrorInvalidValue);
}

TEST_F(QuickCalibration, AccuracyCheckCoversTheWholeGrid) {
  HardwareProfile profile;
  profile.name = "guess";
  profile.host_to_device = {5e-6, 1.0 / 50e9, 1e-6, 1.0 / 45e9, 0, 0};
  profile.device_to_host = profile.host_to_device;
  AccuracyReport report;
  accuracy_.busy_link_repeats = accuracy_.repeats + 2; // so that the two counts can be told apart
  OVERLAP_ASSERT_OK(check_accuracy(*bench_, profile, accuracy_, nullptr, &report));
  const std::size_t points = accuracy_.size_bytes.size() * accuracy_.piece_counts.size();
  EXPECT_EQ(report.rows.size(), 6 * points) << "one way, other way busy, both at once; x 2";
  for (const AccuracyRow& row : report.rows) {
    const bool busy_link = row.which == AccuracyCase::BidirectionalHostToDevice ||
                           row.which == AccuracyCase::BidirectionalDeviceToHost;
    const bool one_way =
        row.which == AccuracyCase::HostToDevice || row.which == AccuracyCase::DeviceToHost;
    EXPECT_EQ(row.measured.count, one_way ? accuracy_.repeats : accuracy_.busy_link_repeats)
        << case_name(row.which);
    EXPECT_EQ(row.ungated.count, busy_link ? 0 : accuracy_.repeats) << case_name(row.which);
    EXPECT_GT(row.measured.median, 0.0);
  }
  EXPECT_TRUE(std::any_of(report.notes.begin(), report.notes.end(), [](const std::string& note) {
    return note.find("repeated") != std::string::npos;
  })) << "the report says how often each case was repeated";
}

TEST_F(QuickCalibration, RefusesWorkBeyondItsBuffers) {
  double seconds = 0;
  const Status status =
      bench_->transfer(TransferDirection::HostToDevice, limits_for(plan_, &accuracy_).max_bytes + 1,
                       1, true, &seconds);
  EXPECT_EQ(status.code, cudaErrorInvalidValue);
  EXPECT_NE(std::string(status.call).find("LinkBench::transfer"), std::string::npos);
  const Status both_ways =
      bench_->mapped_both_ways_kernel(limits_for(plan_, &accuracy_).max_bytes + 16, &seconds);
  EXPECT_EQ(both_ways.code, cudaErrorInvalidValue);
  EXPECT_NE(std::string(both_ways.call).find("mapped_both_ways_kernel"), std::string::npos);
  EXPECT_EQ(bench_->mapped_both_ways_kernel(4096 + 8, &seconds).code, cudaErrorInvalidValue)
      << "not a multiple of 16 bytes";
  // The bench still works after the refusal: the gate was never closed.
  OVERLAP_ASSERT_OK(bench_->transfer(TransferDirection::DeviceToHost, 4096, 2, true, &seconds));
  EXPECT_GT(seconds, 0.0);
  double background = 0;
  OVERLAP_ASSERT_OK(bench_->transfer_against_busy_link(TransferDirection::HostToDevice, 4 << 20, 1,
                                                       4096, &seconds, &background));
  EXPECT_LT(background, seconds) << "4 KiB the other way cannot keep the link busy";
  OVERLAP_ASSERT_OK(bench_->transfer_against_busy_link(TransferDirection::HostToDevice, 1 << 20, 4,
                                                       background_bytes_for(1 << 20, 4), &seconds,
                                                       &background));
  EXPECT_GE(background, seconds);
}

} // namespace
} // namespace overlap::calibration
