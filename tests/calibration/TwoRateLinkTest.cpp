#include "TwoRateLink.h"
#include "Synthetic.h"

#include "overlap/SampleStats.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace overlap::calibration {
namespace {

using test::BoundedNoise;
using test::kMiB;

constexpr double kLatency = 3.5e-6;

double copySeconds(double bytes, double rate) {
  return kLatency + bytes / rate;
}

// `fast` repeats at 50 GB/s and `slow` ones at 25 GB/s, interleaved, of one 16 MiB copy.
std::vector<double> mixedRepeats(int fast, int slow, BoundedNoise& noise) {
  std::vector<double> repeats;
  for (int i = 0; i < fast || i < slow; ++i) {
    if (i < fast)
      repeats.push_back(noise(copySeconds(16 * kMiB, 50e9)));
    if (i < slow)
      repeats.push_back(noise(copySeconds(16 * kMiB, 25e9)));
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
  const RepeatSplit split = splitRepeats(durations(mixedRepeats(7, 0, noise)));
  EXPECT_FALSE(split.twoRates);
  EXPECT_LT(split.gapRatio, 1.07) << "3 % noise on both sides cannot open a wider gap";
  EXPECT_EQ(split.fast.size(), 7u) << "every repeat counts as the one rate";
  EXPECT_TRUE(split.slow.empty());
}

TEST(SplitRepeats, FindsTwoClustersAndWhichRepeatIsInWhich) {
  BoundedNoise noise(0.02);
  SCOPED_TRACE(noise.trace());
  const std::vector<double> repeats = mixedRepeats(4, 3, noise); // fast, slow, fast, slow, ...
  const RepeatSplit split = splitRepeats(durations(repeats));
  ASSERT_TRUE(split.twoRates);
  EXPECT_EQ(split.fast, (std::vector<int>{0, 2, 4, 6}));
  EXPECT_EQ(split.slow, (std::vector<int>{1, 3, 5}));
  EXPECT_NEAR(split.gapRatio, 2.0, 2.0 * 0.05);
}

TEST(SplitRepeats, OneDisturbedRepeatIsNoMode) {
  BoundedNoise noise(0.01);
  SCOPED_TRACE(noise.trace());
  EXPECT_FALSE(splitRepeats(durations(mixedRepeats(6, 1, noise))).twoRates);
  EXPECT_FALSE(splitRepeats(durations(mixedRepeats(1, 6, noise))).twoRates);
  EXPECT_TRUE(splitRepeats(durations(mixedRepeats(5, 2, noise))).twoRates);
  EXPECT_TRUE(splitRepeats(durations(mixedRepeats(2, 5, noise))).twoRates);
}

TEST(SplitRepeats, EachSideNeedsATwentiethPercentOfTheRepeats) {
  // 20 repeats: 3 slow ones are 15 %, 4 are 20 %.
  std::vector<double> d(17, 1.0);
  d.insert(d.end(), 3, 2.0);
  EXPECT_FALSE(splitRepeats(d).twoRates);
  d.push_back(2.0);
  d.erase(d.begin());
  EXPECT_TRUE(splitRepeats(d).twoRates);
}

TEST(SplitRepeats, TheGapMustExceedTheRatioOfTheRule) {
  EXPECT_FALSE(splitRepeats({1, 1, 1, 1.25, 1.25, 1.25}).twoRates);
  EXPECT_FALSE(splitRepeats({1, 1, 1, 1.3, 1.3, 1.3}).twoRates) << "more than 1.3, not equal";
  EXPECT_TRUE(splitRepeats({1, 1, 1, 1.35, 1.35, 1.35}).twoRates);
  TwoRateRule strict;
  strict.minGapRatio = 1.5;
  EXPECT_FALSE(splitRepeats({1, 1, 1, 1.35, 1.35, 1.35}, strict).twoRates);
}

TEST(SplitRepeats, AMixedCopyBetweenTheRatesGoesToTheLargerGapsSide) {
  // The rates switch during long copies: one repeat at a mix of both.
  const RepeatSplit split = splitRepeats({1.0, 1.02, 1.01, 1.3, 2.0, 2.05, 1.98});
  ASSERT_TRUE(split.twoRates);
  EXPECT_EQ(split.fast, (std::vector<int>{0, 1, 2, 3})) << "1.3 / 1.02 < 1.98 / 1.3";
}

Series twoRateSizes(int fast, int slow, BoundedNoise& noise) {
  Series sizes;
  for (double mib = 16; mib <= 256; mib *= 2) {
    std::vector<double> repeats;
    for (int i = 0; i < fast; ++i)
      repeats.push_back(noise(copySeconds(mib * kMiB, 50e9)));
    for (int i = 0; i < slow; ++i)
      repeats.push_back(noise(copySeconds(mib * kMiB, 25e9)));
    sizes.add(mib * kMiB, repeats);
  }
  return sizes;
}

TEST(DetectTwoRates, ReportsBothRatesAndTheSlowShare) {
  BoundedNoise noise(0.01);
  SCOPED_TRACE(noise.trace());
  const TwoRateLink link = detectTwoRates(twoRateSizes(4, 3, noise), kLatency);
  ASSERT_TRUE(link.detected);
  EXPECT_EQ(link.sizes, 5);
  EXPECT_EQ(link.splitSizes, 5);
  EXPECT_NEAR(link.fastRate, 50e9, 50e9 * 0.011);
  EXPECT_NEAR(link.slowRate, 25e9, 25e9 * 0.011);
  EXPECT_EQ(link.repeats, 35);
  EXPECT_EQ(link.slowRepeats, 15);
  EXPECT_NEAR(link.slowShare, 15.0 / 35, 1e-12);
  const std::string text = link.describe();
  EXPECT_EQ(text.rfind("two rates, ", 0), 0u) << text;
  EXPECT_NE(text.find("(57 % of repeats) and "), std::string::npos) << text;
  EXPECT_NE(text.find("GB/s (43 %)"), std::string::npos) << text;
}

TEST(DetectTwoRates, ASteadyLinkIsOneRate) {
  BoundedNoise noise(0.03);
  SCOPED_TRACE(noise.trace());
  const TwoRateLink link = detectTwoRates(twoRateSizes(7, 0, noise), kLatency);
  EXPECT_FALSE(link.detected);
  EXPECT_EQ(link.slowShare, 0);
  EXPECT_EQ(link.describe(), "one rate");
}

TEST(DetectTwoRates, SizesThatRanAllSlowCountInTheShare) {
  BoundedNoise noise(0.01);
  SCOPED_TRACE(noise.trace());
  Series sizes = twoRateSizes(4, 3, noise);
  for (double& t : sizes.seconds.back())
    t = copySeconds(sizes.x.back(), 25e9);
  const TwoRateLink link = detectTwoRates(sizes, kLatency);
  ASSERT_TRUE(link.detected);
  EXPECT_EQ(link.splitSizes, 4);
  EXPECT_EQ(link.slowRepeats, 12 + 7);
}

TEST(FastModeSeries, KeepsTheFastRepeatsWhereAPointSplit) {
  BoundedNoise noise(0.01);
  SCOPED_TRACE(noise.trace());
  Series sizes = twoRateSizes(4, 3, noise);
  sizes.seconds[0] = mixedRepeats(7, 0, noise); // one point that ran steadily
  const Series fast = fastModeSeries(sizes, kLatency);
  ASSERT_EQ(fast.x, sizes.x);
  EXPECT_EQ(fast.seconds[0], sizes.seconds[0]);
  for (std::size_t i = 1; i < fast.x.size(); ++i) {
    ASSERT_EQ(fast.seconds[i].size(), 4u);
    for (double t : fast.seconds[i])
      EXPECT_LT(t, copySeconds(fast.x[i], 40e9));
  }
}

std::string readText(const std::string& path) {
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
  ASSERT_EQ(measurementsFromJson(readText(path), path, &m), "");
  const double h2dLatency = summarize(m.hostToDevice.oneByteSeconds).median;
  const TwoRateLink h2d = detectTwoRates(m.hostToDevice.bidirectionalSizes, h2dLatency);
  ASSERT_TRUE(h2d.detected) << "largest gap " << h2d.largestGapRatio;
  EXPECT_GT(h2d.fastRate, 45e9);
  EXPECT_LT(h2d.fastRate, 53e9);
  EXPECT_GT(h2d.slowRate, 18e9);
  EXPECT_LT(h2d.slowRate, 32e9);
  EXPECT_GT(h2d.slowShare, 0.2);
  EXPECT_LT(h2d.slowShare, 0.6);
  const double d2hLatency = summarize(m.deviceToHost.oneByteSeconds).median;
  EXPECT_FALSE(detectTwoRates(m.deviceToHost.bidirectionalSizes, d2hLatency).detected);
  EXPECT_FALSE(detectTwoRates(m.hostToDevice.sizes, h2dLatency).detected)
      << "one way, host to device ran steadily";
}

} // namespace
} // namespace overlap::calibration
