#include "LinearFit.h"
#include "Synthetic.h"

#include <gtest/gtest.h>

#include <cmath>

namespace overlap::calibration {
namespace {

using test::BoundedNoise;

std::vector<Point> line(double intercept, double slope, const std::vector<double>& xs) {
  std::vector<Point> points;
  for (double x : xs)
    points.push_back({x, intercept + slope * x});
  return points;
}

// The largest change of an ordinary least-squares slope when each y moves by at most
// bound * |y|: sum |x - mean x| * bound * |y| / Sxx.
double olsSlopeErrorBound(const std::vector<Point>& exact, double bound) {
  double mean = 0;
  for (const Point& p : exact)
    mean += p.x;
  mean /= static_cast<double>(exact.size());
  double sxx = 0;
  double spread = 0;
  for (const Point& p : exact) {
    sxx += (p.x - mean) * (p.x - mean);
    spread += std::fabs(p.x - mean) * bound * std::fabs(p.y) * 1.0001;
  }
  return spread / sxx;
}

TEST(FitLine, RecoversAnExactLine) {
  LinearFit fit;
  ASSERT_TRUE(fitLine(line(9.42e-6, 8.318392e-11, {8e6, 16e6, 32e6, 64e6}), &fit));
  EXPECT_NEAR(fit.slope, 8.318392e-11, 1e-20);
  EXPECT_NEAR(fit.intercept, 9.42e-6, 1e-15);
  EXPECT_NEAR(fit.rSquared, 1.0, 1e-12);
  EXPECT_NEAR(fit.maxRelativeResidual, 0.0, 1e-9);
  EXPECT_NEAR(fit.slopeStandardError, 0.0, 1e-20);
  EXPECT_EQ(fit.points, 4);
}

TEST(FitLine, StaysWithinTheNoiseBound) {
  BoundedNoise noise(0.003);
  SCOPED_TRACE(noise.trace());
  const std::vector<Point> exact = line(20e-6, 1.8e-11, {8e6, 16e6, 32e6, 64e6, 128e6, 256e6});
  std::vector<Point> noisy = exact;
  for (Point& p : noisy)
    p.y = noise(p.y);
  LinearFit fit;
  ASSERT_TRUE(fitLine(noisy, &fit));
  EXPECT_NEAR(fit.slope, 1.8e-11, olsSlopeErrorBound(exact, noise.bound()));
  EXPECT_GT(fit.rSquared, 0.999);
  EXPECT_GT(fit.slopeStandardError, 0.0);
}

TEST(FitLine, HandComputedResiduals) {
  // Points (0,1), (1,3), (2,2): slope 0.5, intercept 1.5, fitted 1.5, 2, 2.5.
  LinearFit fit;
  ASSERT_TRUE(fitLine({{0, 1}, {1, 3}, {2, 2}}, &fit));
  EXPECT_DOUBLE_EQ(fit.slope, 0.5);
  EXPECT_DOUBLE_EQ(fit.intercept, 1.5);
  // Residuals -0.5, 1, -0.5: SSres 1.5; SStot 2; R^2 0.25; largest |r|/y = max(.5, 1/3, .25).
  EXPECT_DOUBLE_EQ(fit.rSquared, 0.25);
  EXPECT_DOUBLE_EQ(fit.maxRelativeResidual, 0.5);
  // sqrt(SSres / (n - 2) / Sxx) = sqrt(1.5 / 1 / 2)
  EXPECT_DOUBLE_EQ(fit.slopeStandardError, std::sqrt(0.75));
}

TEST(FitLine, RefusesPointsThatDetermineNoLine) {
  LinearFit fit;
  EXPECT_FALSE(fitLine({}, &fit));
  EXPECT_FALSE(fitLine({{1, 2}}, &fit));
  EXPECT_FALSE(fitLine({{3, 1}, {3, 2}, {3, 5}}, &fit));
}

TEST(FitSlopeByRatio, IsPaper001Estimator) {
  // G = (t1 + t2 - 2 (L+o)) / (k1 + k2) with L+o = 1: (3 + 10 - 2) / (1 + 4) = 11 / 5.
  LinearFit fit;
  ASSERT_TRUE(fitSlopeByRatio({{1, 3}, {4, 10}}, 1, &fit));
  EXPECT_DOUBLE_EQ(fit.slope, 11.0 / 5.0);
  EXPECT_DOUBLE_EQ(fit.intercept, 1.0);
  // Fitted 3.2 and 9.8: residuals -0.2 and 0.2, the larger relative one 0.2 / 3.
  EXPECT_NEAR(fit.maxRelativeResidual, 0.2 / 3, 1e-12);
  EXPECT_FALSE(fitSlopeByRatio({{0, 1}, {0, 2}}, 1, &fit));
}

TEST(FitSlopeByRatio, ErrorFollowsTheNoiseBound) {
  BoundedNoise noise(0.002);
  SCOPED_TRACE(noise.trace());
  const double latency = 9.42e-6;
  const double g = 8.318392e-11;
  std::vector<Point> points;
  double sumT = 0;
  double sumK = 0;
  for (double mib = 8; mib <= 256; mib *= 2) {
    const double k = mib * test::kMiB;
    points.push_back({k, noise(latency + k * g)});
    sumT += latency + k * g;
    sumK += k;
  }
  LinearFit fit;
  ASSERT_TRUE(fitSlopeByRatio(points, latency, &fit));
  // |sum of errors| <= bound * sum t, and nothing else moves.
  EXPECT_NEAR(fit.slope, g, noise.bound() * sumT / sumK * 1.0001);
  // Each residual is its own noise plus its share of the slope's error, relative to a noisy time.
  EXPECT_LE(fit.maxRelativeResidual, 2.1 * noise.bound());
}

TEST(FitCommonSlope, SeparatesTheInterceptsOfEachSeries) {
  // Two message sizes: intercepts L+o + kG differ, g is shared.
  const std::vector<double> xs = {0, 1, 3, 7, 15, 31, 63, 127, 255};
  LinearFit fit;
  std::vector<double> intercepts;
  ASSERT_TRUE(
      fitCommonSlope({line(1.4e-3, 2.5e-6, xs), line(10.7e-3, 2.5e-6, xs)}, &fit, &intercepts));
  EXPECT_NEAR(fit.slope, 2.5e-6, 1e-16);
  ASSERT_EQ(intercepts.size(), 2u);
  EXPECT_NEAR(intercepts[0], 1.4e-3, 1e-14);
  EXPECT_NEAR(intercepts[1], 10.7e-3, 1e-14);
  EXPECT_NEAR(fit.rSquared, 1.0, 1e-12);
  EXPECT_EQ(fit.points, 18);
}

TEST(FitCommonSlope, DiffersFromOnePooledLine) {
  // Pooled without intercepts per series, the jump between sizes would bend the slope; the
  // common-slope fit must not see it. Series: y = 0 + x and y = 100 + x at x = 0, 1, 2.
  LinearFit fit;
  std::vector<double> intercepts;
  ASSERT_TRUE(fitCommonSlope({{{0, 0}, {1, 1}, {2, 2}}, {{0, 100}, {1, 101}, {2, 102}}}, &fit,
                             &intercepts));
  EXPECT_DOUBLE_EQ(fit.slope, 1.0);
  EXPECT_DOUBLE_EQ(intercepts[1], 100.0);
}

TEST(FitCommonSlope, StaysWithinTheNoiseBound) {
  BoundedNoise noise(0.0005);
  SCOPED_TRACE(noise.trace());
  const std::vector<double> xs = {0, 1, 3, 7, 15, 31, 63, 127, 255};
  const std::vector<std::vector<Point>> exact = {line(1.4e-3, 2.5e-6, xs),
                                                 line(10.7e-3, 2.5e-6, xs)};
  std::vector<std::vector<Point>> noisy = exact;
  double sxx = 0;
  double spread = 0;
  for (std::size_t s = 0; s < exact.size(); ++s) {
    double mean = 0;
    for (const Point& p : exact[s])
      mean += p.x;
    mean /= static_cast<double>(exact[s].size());
    for (std::size_t i = 0; i < exact[s].size(); ++i) {
      sxx += (exact[s][i].x - mean) * (exact[s][i].x - mean);
      spread += std::fabs(exact[s][i].x - mean) * noise.bound() * exact[s][i].y;
      noisy[s][i].y = noise(exact[s][i].y);
    }
  }
  LinearFit fit;
  std::vector<double> intercepts;
  ASSERT_TRUE(fitCommonSlope(noisy, &fit, &intercepts));
  EXPECT_NEAR(fit.slope, 2.5e-6, spread / sxx * 1.0001);
  EXPECT_GT(fit.slopeStandardError, 0.0);
}

TEST(FitCommonSlope, RefusesSeriesWithoutTwoDistinctX) {
  LinearFit fit;
  std::vector<double> intercepts;
  EXPECT_FALSE(fitCommonSlope({}, &fit, &intercepts));
  EXPECT_FALSE(fitCommonSlope({{{1, 2}}, {{3, 4}}}, &fit, &intercepts));
}

TEST(EvaluateCommonLine, JudgesGivenParameters) {
  // Slope 0 with the series' means as intercepts: residuals of y = 1, 3 about 2 are 1 each.
  const LinearFit fit = evaluateCommonLine({{{0, 1}, {1, 3}}}, 0, {2});
  EXPECT_DOUBLE_EQ(fit.slope, 0.0);
  EXPECT_DOUBLE_EQ(fit.maxRelativeResidual, 1.0);
  EXPECT_DOUBLE_EQ(fit.rSquared, 0.0);
  EXPECT_EQ(fit.points, 2);
}

LinearFit fitWith(double rSquared, double residual, int points = 6) {
  LinearFit fit;
  fit.rSquared = rSquared;
  fit.maxRelativeResidual = residual;
  fit.points = points;
  return fit;
}

TEST(JudgeFit, AcceptsAFitWithinItsRequirement) {
  EXPECT_EQ(judgeFit("G", fitWith(0.9999, 0.01), {0.999, 0.015}), "");
}

TEST(JudgeFit, NamesTheFitAndTheFailedR2) {
  const std::string verdict = judgeFit("host_to_device G", fitWith(0.95, 0.01), {0.999, 0.015});
  EXPECT_EQ(verdict.rfind("host_to_device G: ", 0), 0u) << verdict;
  EXPECT_NE(verdict.find("R^2 0.95000 is below 0.99900"), std::string::npos) << verdict;
}

TEST(JudgeFit, NamesTheFailedResidual) {
  const std::string verdict = judgeFit("g", fitWith(0, 0.023), {0, 0.015});
  EXPECT_NE(verdict.find("largest relative residual 2.30 % exceeds 1.50 %"), std::string::npos)
      << verdict;
  EXPECT_EQ(verdict.find("R^2"), std::string::npos) << "R^2 is not checked when 0: " << verdict;
}

TEST(JudgeFit, ReportsEveryFailedCheck) {
  const std::string verdict = judgeFit("x", fitWith(0.5, 0.5, 1), {0.99, 0.01});
  EXPECT_NE(verdict.find("fewer than two points"), std::string::npos) << verdict;
  EXPECT_NE(verdict.find("R^2"), std::string::npos) << verdict;
  EXPECT_NE(verdict.find("residual"), std::string::npos) << verdict;
}

TEST(JudgeFit, ChecksTheSlopesStandardError) {
  LinearFit fit = fitWith(0.999, 0.5);
  fit.slope = 10e-6;
  fit.slopeStandardError = 0.2e-6;
  EXPECT_EQ(judgeFit("t_sc", fit, {0.99, 0, 0.05}), "") << "2 % is within 5 %";
  fit.slopeStandardError = 0.8e-6;
  const std::string verdict = judgeFit("t_sc", fit, {0.99, 0, 0.05});
  EXPECT_NE(verdict.find("standard error is 8.0 % of it, above 5.0 %"), std::string::npos)
      << verdict;
  fit.slope = 0;
  EXPECT_NE(judgeFit("t_sc", fit, {0.99, 0, 0.05}), "") << "no slope, no relative error";
}

TEST(JudgeFit, TreatsNotANumberAsAFailure) {
  EXPECT_NE(judgeFit("x", fitWith(NAN, NAN), {0.99, 0.01}), "");
}

} // namespace
} // namespace overlap::calibration
