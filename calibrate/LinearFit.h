// Least-squares lines for the calibration (paper 001 §V-A): G from transfer times over message
// sizes, g from transfer times over piece counts. CUDA-free, tested on synthetic data.
#pragma once

#include <vector>

namespace overlap::calibration {

struct Point {
  double x = 0;
  double y = 0;
};

struct LinearFit {
  double slope = 0;
  double intercept = 0;
  // 1 - SS_residual / SS_total, SS_total taken around the mean of y (within each series for
  // fitCommonSlope). Near 0 when the slope explains nothing, which is also what a correct fit
  // of a slope near 0 looks like: judge such fits by their residuals.
  double rSquared = 0;
  double maxRelativeResidual = 0; // max over points of |y - fitted| / |y|
  double slopeStandardError = 0;  // 0 when the fit has no degrees of freedom left
  int points = 0;

  double predict(double x) const { return intercept + slope * x; }
};

// Ordinary least squares y = intercept + slope * x. False when there are fewer than two distinct
// x values (no line is determined).
bool fitLine(const std::vector<Point>& points, LinearFit* fit);

// Least squares of the slope alone with the intercept given, e.g. G with L+o fixed to the
// measured 1-byte time. False without a point of x != 0.
bool fitSlopeWithIntercept(const std::vector<Point>& points, double intercept, LinearFit* fit);

// Paper 001 §V-A's estimator of G: (sum t - n (L+o)) / sum k over the n sizes, with the quality
// of the line (L+o) + k G on the points. False without a point of x != 0.
bool fitSlopeByRatio(const std::vector<Point>& points, double intercept, LinearFit* fit);

// One slope shared by several series, each with its own intercept: g from piece counts measured
// at several message sizes (each size has its own L+o + kG). `intercepts` gets one per series;
// fit->intercept is left 0. False when no series has two distinct x values.
bool fitCommonSlope(const std::vector<std::vector<Point>>& series, LinearFit* fit,
                    std::vector<double>* intercepts);

// The quality of a fit whose parameters were decided elsewhere (e.g. after clamping a slope),
// evaluated on the points of each series with its own intercept.
LinearFit evaluateCommonLine(const std::vector<std::vector<Point>>& series, double slope,
                             const std::vector<double>& intercepts);

} // namespace overlap::calibration
