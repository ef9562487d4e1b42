#include "MinimaxFit.h"
#include "Synthetic.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace overlap::calibration {
namespace {

using test::BoundedNoise;
using test::kMiB;

constexpr double kLatency = 3.46e-6;
constexpr double kSecondsPerByte = 2.0e-11;
constexpr double kGap = 3.0e-6;

// The busy-link points of a calibration: single copies of 16-256 MiB and 16 / 128 MiB messages
// in 1..256 pieces. `singlePerByte` is the single copies' cost per byte, `piecePerByte` that
// of messages in two pieces or more.
std::vector<TransferTime> calibrationPoints(double singlePerByte, double piecePerByte, double gap) {
  std::vector<TransferTime> points;
  for (double mib = 16; mib <= 256; mib *= 2)
    points.push_back({mib * kMiB, 1, kLatency + mib * kMiB * singlePerByte});
  for (double mib : {16.0, 128.0})
    for (int n = 1; n <= 256; n *= 2) {
      const double perByte = n == 1 ? singlePerByte : piecePerByte;
      points.push_back(
          {mib * kMiB, static_cast<double>(n), kLatency + mib * kMiB * perByte + (n - 1) * gap});
    }
  return points;
}

double largestRelativeError(const std::vector<TransferTime>& points, double perByte, double gap) {
  double largest = 0;
  for (const TransferTime& p : points) {
    const double predicted = kLatency + p.bytes * perByte + (p.pieces - 1) * gap;
    largest = std::max(largest, std::fabs(predicted - p.seconds) / p.seconds);
  }
  return largest;
}

TEST(FitTransferMinimax, RecoversExactParameters) {
  const std::vector<TransferTime> points =
      calibrationPoints(kSecondsPerByte, kSecondsPerByte, kGap);
  MinimaxTransferFit fit;
  ASSERT_TRUE(fitTransferMinimax(points, kLatency, &fit));
  EXPECT_NEAR(fit.secondsPerByte, kSecondsPerByte, kSecondsPerByte * 1e-9);
  EXPECT_NEAR(fit.gapS, kGap, kGap * 1e-6);
  EXPECT_LT(fit.maxRelativeResidual, 1e-12);
  EXPECT_NEAR(fit.rSquared, 1.0, 1e-12);
  EXPECT_EQ(fit.points, static_cast<int>(points.size()));
  EXPECT_EQ(fit.latencyS, kLatency);
  EXPECT_NEAR(fit.predict(64 * kMiB, 8), kLatency + 64 * kMiB * kSecondsPerByte + 7 * kGap, 1e-15);
}

// The H100's shape: single copies 5 % slower per byte than pieced ones. No (G, g) fits both; the
// best worst error is reached where three points err by as much, with both signs (Chebyshev's
// equioscillation), and no nearby (G, g) does better.
TEST(FitTransferMinimax, EquioscillatesOnAPlantedBias) {
  const std::vector<TransferTime> points =
      calibrationPoints(1.05 * kSecondsPerByte, kSecondsPerByte, kGap);
  MinimaxTransferFit fit;
  ASSERT_TRUE(fitTransferMinimax(points, kLatency, &fit));
  EXPECT_GT(fit.secondsPerByte, kSecondsPerByte * 1.005);
  EXPECT_LT(fit.secondsPerByte, kSecondsPerByte * 1.045);
  EXPECT_GT(fit.gapS, 0.0);
  EXPECT_GT(fit.maxRelativeResidual, 0.01) << "a 5 % bias cannot be fitted away";
  EXPECT_LT(fit.maxRelativeResidual, 0.025) << "splitting the bias halves it at worst";
  EXPECT_DOUBLE_EQ(fit.maxRelativeResidual,
                   largestRelativeError(points, fit.secondsPerByte, fit.gapS));

  ASSERT_GE(fit.extremal.size(), 3u);
  int over = 0;
  int under = 0;
  for (int i : fit.extremal) {
    const TransferTime& p = points[i];
    const double error = (fit.predict(p.bytes, p.pieces) - p.seconds) / p.seconds;
    EXPECT_NEAR(std::fabs(error), fit.maxRelativeResidual, 1e-9);
    (error > 0 ? over : under) += 1;
  }
  EXPECT_GT(over, 0);
  EXPECT_GT(under, 0);

  for (double step : {1e-2, 1e-4, 1e-6})
    for (int direction = 0; direction < 8; ++direction) {
      const double angle = direction * M_PI / 4;
      const double perByte = fit.secondsPerByte * (1 + step * std::cos(angle));
      const double gap = fit.gapS * (1 + step * std::sin(angle));
      EXPECT_GE(largestRelativeError(points, perByte, gap), fit.maxRelativeResidual - 1e-13)
          << "step " << step << " direction " << direction;
    }
}

// Two single copies at per-byte costs G1 and G2 (L+o 0): the minimax G errs by as much on both,
// G / G1 - 1 = 1 - G / G2, their harmonic mean.
TEST(FitTransferMinimax, SingleCopiesAloneGiveTheHarmonicMean) {
  const double slow = 2.1e-11;
  const double fast = 1.9e-11;
  const std::vector<TransferTime> points{{64 * kMiB, 1, 64 * kMiB * slow},
                                         {256 * kMiB, 1, 256 * kMiB * fast}};
  MinimaxTransferFit fit;
  ASSERT_TRUE(fitTransferMinimax(points, 0, &fit));
  EXPECT_NEAR(fit.secondsPerByte, 2 / (1 / slow + 1 / fast), 1e-9 * fast);
  EXPECT_EQ(fit.gapS, 0.0) << "no pieces: g is not determined and stays 0";
  EXPECT_EQ(fit.extremal.size(), 2u);
}

TEST(FitTransferMinimax, KeepsTheGapNonNegative) {
  // Every extra piece saves 1 us: the unconstrained optimum has g < 0.
  const std::vector<TransferTime> points =
      calibrationPoints(kSecondsPerByte, kSecondsPerByte, -1e-6);
  MinimaxTransferFit fit;
  ASSERT_TRUE(fitTransferMinimax(points, kLatency, &fit));
  EXPECT_EQ(fit.gapS, 0.0);
  EXPECT_GT(fit.maxRelativeResidual, 0.0);
  // At g = 0 the best G balances the worst over- and underestimate.
  EXPECT_GE(fit.extremal.size(), 2u);
  for (double scale : {0.999, 1.001})
    EXPECT_GE(largestRelativeError(points, fit.secondsPerByte * scale, 0), fit.maxRelativeResidual);
}

// Each median within `bound` of the truth: the true parameters err by at most bound / (1 - bound)
// of a median, and the minimax fit does no worse.
TEST(FitTransferMinimax, DoesNoWorseThanTheTruthUnderBoundedNoise) {
  BoundedNoise noise(0.002);
  SCOPED_TRACE(noise.trace());
  std::vector<TransferTime> points = calibrationPoints(kSecondsPerByte, kSecondsPerByte, kGap);
  for (TransferTime& p : points)
    p.seconds = noise(p.seconds);
  MinimaxTransferFit fit;
  ASSERT_TRUE(fitTransferMinimax(points, kLatency, &fit));
  const double truth = largestRelativeError(points, kSecondsPerByte, kGap);
  EXPECT_LE(truth, noise.bound() / (1 - noise.bound()) * (1 + 1e-12));
  EXPECT_LE(fit.maxRelativeResidual, truth + 1e-12);
  // Both within `truth` of the 256 MiB single copy: G within 2 * truth of that copy's time.
  const double k = 256 * kMiB;
  EXPECT_NEAR(fit.secondsPerByte, kSecondsPerByte,
              2 * truth * (1 + noise.bound()) * (kLatency + k * kSecondsPerByte) / k);
}

TEST(FitTransferMinimax, RefusesPointsThatDetermineNoG) {
  MinimaxTransferFit fit;
  EXPECT_FALSE(fitTransferMinimax({}, kLatency, &fit));
  EXPECT_FALSE(fitTransferMinimax({{0, 1, 1e-5}, {0, 1, 2e-5}}, kLatency, &fit))
      << "no bytes: G not determined";
  EXPECT_FALSE(fitTransferMinimax({{kMiB, 1, 0}, {2 * kMiB, 1, 1e-4}}, kLatency, &fit))
      << "a time of 0 has no relative error";
  // Copies faster than L+o alone: only G <= 0 would fit them.
  EXPECT_FALSE(fitTransferMinimax({{kMiB, 1, 1e-6}, {2 * kMiB, 1, 2e-6}}, kLatency, &fit));
}

// The H100's busy host-to-device shape (runs 6-11): pieces of 128 MiB and more slower per byte
// than smaller ones. Calibration points plus a 512 MiB single copy; `threshold` splits them.
constexpr double kLargePieces = 96 * kMiB;

std::vector<TransferTime> pointsByPieceSize(double smallPerByte, double largePerByte, double gap) {
  std::vector<TransferTime> points;
  auto time = [&](double bytes, double n) {
    const double perByte = bytes / n >= kLargePieces ? largePerByte : smallPerByte;
    return kLatency + bytes * perByte + (n - 1) * gap;
  };
  for (double mib = 16; mib <= 512; mib *= 2)
    points.push_back({mib * kMiB, 1, time(mib * kMiB, 1)});
  for (double mib : {16.0, 128.0})
    for (int n = 1; n <= 256; n *= 2)
      points.push_back({mib * kMiB, static_cast<double>(n), time(mib * kMiB, n)});
  return points;
}

// The largest relative error of `fit`'s parameters moved by the given factors.
double largestErrorMoved(const std::vector<TransferTime>& points, MinimaxTransferFit fit,
                         double smallFactor, double largeFactor, double gapFactor) {
  fit.secondsPerByte *= smallFactor;
  fit.largePieceSecondsPerByte *= largeFactor;
  fit.gapS *= gapFactor;
  double largest = 0;
  for (const TransferTime& p : points)
    largest = std::max(largest, std::fabs(fit.predict(p.bytes, p.pieces) - p.seconds) / p.seconds);
  return largest;
}

TEST(FitTransferMinimaxByPieceSize, RecoversExactParameters) {
  const double large = 1.1 * kSecondsPerByte;
  const std::vector<TransferTime> points = pointsByPieceSize(kSecondsPerByte, large, kGap);
  MinimaxTransferFit fit;
  ASSERT_TRUE(fitTransferMinimaxByPieceSize(points, kLatency, kLargePieces, &fit));
  EXPECT_NEAR(fit.secondsPerByte, kSecondsPerByte, kSecondsPerByte * 1e-9);
  EXPECT_NEAR(fit.largePieceSecondsPerByte, large, large * 1e-9);
  EXPECT_NEAR(fit.gapS, kGap, kGap * 1e-6);
  EXPECT_EQ(fit.largePieceMinBytes, kLargePieces);
  EXPECT_LT(fit.maxRelativeResidual, 1e-9);
  EXPECT_EQ(fit.points, static_cast<int>(points.size()));
  EXPECT_NEAR(fit.predict(512 * kMiB, 4), kLatency + 512 * kMiB * large + 3 * kGap, 1e-15);
  EXPECT_NEAR(fit.predict(512 * kMiB, 8), kLatency + 512 * kMiB * kSecondsPerByte + 7 * kGap,
              1e-15);

  MinimaxTransferFit oneG;
  ASSERT_TRUE(fitTransferMinimax(points, kLatency, &oneG));
  EXPECT_GT(oneG.maxRelativeResidual, 0.02) << "one G cannot fit a 10 % step";
}

// With noise on every point, the split fit is a true minimax: it does no worse than the truth
// or than the one-G optimum, and no nearby parameters do better than it.
TEST(FitTransferMinimaxByPieceSize, IsTheMinimaxUnderBoundedNoise) {
  BoundedNoise noise(0.01);
  SCOPED_TRACE(noise.trace());
  const double large = 1.08 * kSecondsPerByte;
  std::vector<TransferTime> points = pointsByPieceSize(kSecondsPerByte, large, kGap);
  for (TransferTime& p : points)
    p.seconds = noise(p.seconds);
  MinimaxTransferFit fit;
  ASSERT_TRUE(fitTransferMinimaxByPieceSize(points, kLatency, kLargePieces, &fit));
  MinimaxTransferFit truth = fit;
  truth.secondsPerByte = kSecondsPerByte;
  truth.largePieceSecondsPerByte = large;
  truth.gapS = kGap;
  EXPECT_LE(fit.maxRelativeResidual, largestErrorMoved(points, truth, 1, 1, 1) + 1e-12);
  MinimaxTransferFit oneG;
  ASSERT_TRUE(fitTransferMinimax(points, kLatency, &oneG));
  EXPECT_LE(fit.maxRelativeResidual, oneG.maxRelativeResidual + 1e-12);
  EXPECT_DOUBLE_EQ(fit.maxRelativeResidual, largestErrorMoved(points, fit, 1, 1, 1));
  for (double step : {1e-2, 1e-4, 1e-6})
    for (int smallSign : {-1, 0, 1})
      for (int largeSign : {-1, 0, 1})
        for (int gapSign : {-1, 0, 1})
          EXPECT_GE(largestErrorMoved(points, fit, 1 + smallSign * step, 1 + largeSign * step,
                                      1 + gapSign * step),
                    fit.maxRelativeResidual - 1e-12)
              << "step " << step << " signs " << smallSign << largeSign << gapSign;
}

TEST(FitTransferMinimaxByPieceSize, NeedsPointsInBothClasses) {
  const std::vector<TransferTime> points =
      pointsByPieceSize(kSecondsPerByte, kSecondsPerByte, kGap);
  MinimaxTransferFit fit;
  EXPECT_FALSE(fitTransferMinimaxByPieceSize(points, kLatency, 1024 * kMiB, &fit))
      << "no piece of 1 GiB: the large class is empty";
  EXPECT_FALSE(fitTransferMinimaxByPieceSize(points, kLatency, 1, &fit))
      << "every piece is large: the small class is empty";
  EXPECT_FALSE(fitTransferMinimaxByPieceSize({{kMiB, 1, 0}, {256 * kMiB, 1, 1e-2}}, kLatency,
                                             128 * kMiB, &fit))
      << "a time of 0 has no relative error";
}

TEST(FitTransferMinimax, ABoundaryOfZeroMeansOneG) {
  const std::vector<TransferTime> points =
      pointsByPieceSize(kSecondsPerByte, 1.1 * kSecondsPerByte, kGap);
  MinimaxTransferFit oneG;
  MinimaxTransferFit oneGByValue;
  ASSERT_TRUE(fitTransferMinimax(points, kLatency, &oneG));
  ASSERT_TRUE(fitTransferMinimax(points, kLatency, 0, &oneGByValue));
  EXPECT_EQ(oneGByValue.secondsPerByte, oneG.secondsPerByte);
  EXPECT_EQ(oneGByValue.largePieceMinBytes, 0);
  MinimaxTransferFit split;
  MinimaxTransferFit splitByValue;
  ASSERT_TRUE(fitTransferMinimaxByPieceSize(points, kLatency, kLargePieces, &split));
  ASSERT_TRUE(fitTransferMinimax(points, kLatency, kLargePieces, &splitByValue));
  EXPECT_EQ(splitByValue.largePieceSecondsPerByte, split.largePieceSecondsPerByte);
  EXPECT_EQ(splitByValue.largePieceMinBytes, kLargePieces);
}

} // namespace
} // namespace overlap::calibration
