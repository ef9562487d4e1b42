#include "synthetic.h"
#include "two_rate_link.h"

#include "overlap/sample_stats.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace overlap::calibration {
namespace {

using test::BoundedNoise;
using test::kMiB;

constexpr double kLatency = 3.5e-6;

double copy_seconds(double bytes, double rate) {
  return kLatency + bytes / rate;
}

// `fast` repeats at 50 GB/s and `slow` ones at 25 GB/s, interleaved, of one 16 MiB copy.
std::vector<double> mixed_repeats(int fast, int slow, BoundedNoise& noise) {
  std::vector<double> repeats;
  for (int i = 0; i < fast || i < slow; ++i) {
    if (i < fast)
      repeats.push_back(noise(copy_seconds(16 * kMiB, 50e9)));
    if (i < slow)
      repeats.push_back(noise(copy_seconds(16 * kMiB, 25e9)));
  }
  return repeats;
}

std::vector<double> durations(const std::vector<double>& seconds) {
  std::vector<double> out;
  for (double t : seconds)
    out.push_back(t - kLatency);
  return out;
}

TEST(SplitRepeats, ASteadyLinkRunsAtOneRate) {
  BoundedNoise noise(0.03);
  SCOPED_TRACE(noise.trace());
  const RepeatSplit split = split_repeats(durations(mixed_repeats(7, 0, noise)));
  EXPECT_FALSE(split.two_rates);
  EXPECT_LT(split.gap_ratio, 1.07) << "3 % noise on both sides cannot open a wider gap";
  EXPECT_EQ(split.fast.size(), 7u) << "every repeat counts as the one rate";
  EXPECT_TRUE(split.slow.empty());
}

TEST(SplitRepeats, FindsTwoClustersAndWhichRepeatIsInWhich) {
  BoundedNoise noise(0.02);
  SCOPED_TRACE(noise.trace());
  const std::vector<double> repeats = mixed_repeats(4, 3, noise); // fast, slow, fast, slow, ...
  const RepeatSplit split = split_repeats(durations(repeats));
  ASSERT_TRUE(split.two_rates);
  EXPECT_EQ(split.fast, (std::vector<int>{0, 2, 4, 6}));
  EXPECT_EQ(split.slow, (std::vector<int>{1, 3, 5}));
  EXPECT_NEAR(split.gap_ratio, 2.0, 2.0 * 0.05);
}

TEST(SplitRepeats, OneDisturbedRepeatIsNoMode) {
  BoundedNoise noise(0.01);
  SCOPED_TRACE(noise.trace());
  EXPECT_FALSE(split_repeats(durations(mixed_repeats(6, 1, noise))).two_rates);
  EXPECT_FALSE(split_repeats(durations(mixed_repeats(1, 6, noise))).two_rates);
  EXPECT_TRUE(split_repeats(durations(mixed_repeats(5, 2, noise))).two_rates);
  EXPECT_TRUE(split_repeats(durations(mixed_repeats(2, 5, noise))).two_rates);
}

TEST(SplitRepeats, EachSideNeedsATwentiethPercentOfTheRepeats) {
  // 20 repeats: 3 slow ones are 15 %, 4 are 20 %.
  std::vector<double> d(17, 1.0);
  d.insert(d.end(), 3, 2.0);
  EXPECT_FALSE(split_repeats(d).two_rates);
  d.push_back(2.0);
  d.erase(d.begin());
  EXPECT_TRUE(split_repeats(d).two_rates);
}

TEST(SplitRepeats, TheGapMustExceedTheRatioOfTheRule) {
  EXPECT_FALSE(split_repeats({1, 1, 1, 1.25, 1.25, 1.25}).two_rates);
  EXPECT_FALSE(split_repeats({1, 1, 1, 1.3, 1.3, 1.3}).two_rates) << "more than 1.3, not equal";
  EXPECT_TRUE(split_repeats({1, 1, 1, 1.35, 1.35, 1.35}).two_rates);
  TwoRateRule strict;
  strict.min_gap_ratio = 1.5;
  EXPECT_FALSE(split_repeats({1, 1, 1, 1.35, 1.35, 1.35}, strict).two_rates);
}

TEST(SplitRepeats, AMixedCopyBetweenTheRatesGoesToTheLargerGapsSide) {
  // The rates switch during long copies: one repeat at a mix of both.
  const RepeatSplit split = split_repeats({1.0, 1.02, 1.01, 1.3, 2.0, 2.05, 1.98});
  ASSERT_TRUE(split.two_rates);
  EXPECT_EQ(split.fast, (std::vector<int>{0, 1, 2, 3})) << "1.3 / 1.02 < 1.98 / 1.3";
}

Series two_rate_sizes(int fast, int slow, BoundedNoise& noise) {
  Series sizes;
  for (double mib = 16; mib <= 256; mib *= 2) {
    std::vector<double> repeats;
    for (int i = 0; i < fast; ++i)
      repeats.push_back(noise(copy_seconds(mib * kMiB, 50e9)));
    for (int i = 0; i < slow; ++i)
      repeats.push_back(noise(copy_seconds(mib * kMiB, 25e9)));
    sizes.add(mib * kMiB, repeats);
  }
  return sizes;
}

TEST(DetectTwoRates, ReportsBothRatesAndTheSlowShare) {
  BoundedNoise noise(0.01);
  SCOPED_TRACE(noise.trace());
  const TwoRateLink link = detect_two_rates(two_rate_sizes(4, 3, noise), kLatency);
  ASSERT_TRUE(link.detected);
  EXPECT_EQ(link.sizes, 5);
  EXPECT_EQ(link.split_sizes, 5);
  EXPECT_NEAR(link.fast_rate, 50e9, 50e9 * 0.011);
  EXPECT_NEAR(link.slow_rate, 25e9, 25e9 * 0.011);
  EXPECT_EQ(link.repeats, 35);
  EXPECT_EQ(link.slow_repeats, 15);
  EXPECT_NEAR(link.slow_share, 15.0 / 35, 1e-12);
  const std::string text = link.describe();
  EXPECT_EQ(text.rfind("two rates, ", 0), 0u) << text;
  EXPECT_NE(text.find("(57 % of repeats) and "), std::string::npos) << text;
  EXPECT_NE(text.find("GB/s (43 %)"), std::string::npos) << text;
}

TEST(DetectTwoRates, ASteadyLinkIsOneRate) {
  BoundedNoise noise(0.03);
  SCOPED_TRACE(noise.trace());
  const TwoRateLink link = detect_two_rates(two_rate_sizes(7, 0, noise), kLatency);
  EXPECT_FALSE(link.detected);
  EXPECT_EQ(link.slow_share, 0);
  EXPECT_EQ(link.describe(), "one rate");
}

TEST(DetectTwoRates, SizesThatRanAllSlowCountInTheShare) {
  BoundedNoise noise(0.01);
  SCOPED_TRACE(noise.trace());
  Series sizes = two_rate_sizes(4, 3, noise);
  for (double& t : sizes.seconds.back())
    t = copy_seconds(sizes.x.back(), 25e9);
  const TwoRateLink link = detect_two_rates(sizes, kLatency);
  ASSERT_TRUE(link.detected);
  EXPECT_EQ(link.split_sizes, 4);
  EXPECT_EQ(link.slow_repeats, 12 + 7);
}

TEST(FastModeSeries, KeepsTheFastRepeatsWhereAPointSplit) {
  BoundedNoise noise(0.01);
  SCOPED_TRACE(noise.trace());
  Series sizes = two_rate_sizes(4, 3, noise);
  sizes.seconds[0] = mixed_repeats(7, 0, noise); // one point that ran steadily
  const Series fast = fast_mode_series(sizes, kLatency);
  ASSERT_EQ(fast.x, sizes.x);
  EXPECT_EQ(fast.seconds[0], sizes.seconds[0]);
  for (std::size_t i = 1; i < fast.x.size(); ++i) {
    ASSERT_EQ(fast.seconds[i].size(), 4u);
    for (double t : fast.seconds[i])
      EXPECT_LT(t, copy_seconds(fast.x[i], 40e9));
  }
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The second H100 run (tests/fixtures/calibration/h100-pcie5-2026-11-21-run2.raw.json): host to
// device against a busy link ran at ~50 or ~25 GB/s; device to host ran steadily.
TEST(DetectTwoRates, FindsTheTwoRatesOfTheSecondH100Run) {
  const std::string path =
      std::string(OVERLAP_TEST_FIXTURES_DIR) + "/calibration/h100-pcie5-2026-11-21-run2.raw.json";
  CalibrationMeasurements m;
  ASSERT_EQ(measurements_from_json(read_text(path), path, &m), "");
  const double h2d_latency = summarize(m.host_to_device.one_byte_seconds).median;
  const TwoRateLink h2d = detect_two_rates(m.host_to_device.bidirectional_sizes, h2d_latency);
  ASSERT_TRUE(h2d.detected) << "largest gap " << h2d.largest_gap_ratio;
  EXPECT_GT(h2d.fast_rate, 45e9);
  EXPECT_LT(h2d.fast_rate, 53e9);
  EXPECT_GT(h2d.slow_rate, 18e9);
  EXPECT_LT(h2d.slow_rate, 32e9);
  EXPECT_GT(h2d.slow_share, 0.2);
  EXPECT_LT(h2d.slow_share, 0.6);
  const double d2h_latency = summarize(m.device_to_host.one_byte_seconds).median;
  EXPECT_FALSE(detect_two_rates(m.device_to_host.bidirectional_sizes, d2h_latency).detected);
  EXPECT_FALSE(detect_two_rates(m.host_to_device.sizes, h2d_latency).detected)
      << "one way, host to device ran steadily";
}

} // namespace
} // namespace overlap::calibration
