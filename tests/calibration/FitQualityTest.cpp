#include "FitQuality.h"

#include <gtest/gtest.h>

#include <cmath>

namespace overlap::calibration {
namespace {

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
