// Least-squares lines for the calibration (paper 001 §V-A) and when one is good enough to go into
// a profile. overlap-calibrate refuses to write a profile with a poor fit and says which fit and
// why: a model fed a bad G predicts every variant wrong. CUDA-free, tested on synthetic data.
#pragma once

#include <string>
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
  // 0 when the fit has no degrees of freedom left, and for fitSlopeByRatio (not judged).
  double slopeStandardError = 0;
  int points = 0;
};

// Ordinary least squares y = intercept + slope * x; false without two distinct x values.
bool fitLine(const std::vector<Point>& points, LinearFit* fit);

// Paper 001 §V-A's estimator of G: (sum t - n (L+o)) / sum k over the n sizes, with the quality
// of the line (L+o) + k G on the points. False when sum k is 0.
bool fitSlopeByRatio(const std::vector<Point>& points, double intercept, LinearFit* fit);

// One slope shared by several series, each with its own intercept: g from piece counts measured
// at several message sizes (each size has its own L+o + kG). `intercepts` gets one per series;
// fit->intercept is left 0. False when no series has two distinct x values.
bool fitCommonSlope(const std::vector<std::vector<Point>>& series, LinearFit* fit,
                    std::vector<double>* intercepts);

// The quality of a fit whose slope was decided elsewhere (e.g. by clamping it), on the points of
// each series with its own intercept: the one given, else the series' best for that slope (mean y
// - slope * mean x).
LinearFit evaluateCommonLine(const std::vector<std::vector<Point>>& series, double slope,
                             const std::vector<double>& intercepts = {});

struct FitRequirement {
  double minRSquared = 0;         // 0: not checked (fits of slopes that may be near 0)
  double maxRelativeResidual = 0; // largest |measured - fitted| / measured; 0: not checked
  // Largest standard error of the slope relative to the slope; 0: not checked. For overheads
  // fitted over counts, where the smallest point's time is mostly fixed cost and its relative
  // residual says little about the slope that is stored.
  double maxSlopeRelativeError = 0;
};

// Empty when `fit` meets `requirement`; otherwise why not, starting with `what`, e.g.
// "host_to_device G over sizes: largest relative residual 2.3 % exceeds 1.5 %".
std::string judgeFit(const std::string& what, const LinearFit& fit,
                     const FitRequirement& requirement);

} // namespace overlap::calibration
