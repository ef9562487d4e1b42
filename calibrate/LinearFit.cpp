#include "LinearFit.h"

#include <algorithm>
#include <cmath>

namespace overlap::calibration {

namespace {

struct Residuals {
  double sumSquared = 0;
  double maxRelative = 0;
};

Residuals residuals(const std::vector<Point>& points, double slope, double intercept) {
  Residuals r;
  for (const Point& p : points) {
    const double residual = p.y - (intercept + slope * p.x);
    r.sumSquared += residual * residual;
    if (p.y != 0)
      r.maxRelative = std::max(r.maxRelative, std::fabs(residual) / std::fabs(p.y));
    else if (residual != 0)
      r.maxRelative = INFINITY;
  }
  return r;
}

double meanY(const std::vector<Point>& points) {
  double sum = 0;
  for (const Point& p : points)
    sum += p.y;
  return points.empty() ? 0 : sum / static_cast<double>(points.size());
}

double totalSquares(const std::vector<Point>& points) {
  const double mean = meanY(points);
  double sum = 0;
  for (const Point& p : points)
    sum += (p.y - mean) * (p.y - mean);
  return sum;
}

// All residuals zero is a perfect fit even when y does not vary.
double rSquared(double residualSquares, double total) {
  if (total > 0)
    return 1 - residualSquares / total;
  return residualSquares == 0 ? 1 : 0;
}

// Shared by the fits whose intercept is given: the slope's standard error from the residual
// variance with one parameter estimated.
void finishFixedIntercept(const std::vector<Point>& points, double slope, double intercept,
                          LinearFit* fit) {
  const Residuals r = residuals(points, slope, intercept);
  double sumXx = 0;
  for (const Point& p : points)
    sumXx += p.x * p.x;
  fit->slope = slope;
  fit->intercept = intercept;
  fit->points = static_cast<int>(points.size());
  fit->rSquared = rSquared(r.sumSquared, totalSquares(points));
  fit->maxRelativeResidual = r.maxRelative;
  fit->slopeStandardError =
      points.size() > 1 ? std::sqrt(r.sumSquared / static_cast<double>(points.size() - 1) / sumXx)
                        : 0;
}

bool hasNonzeroX(const std::vector<Point>& points) {
  return std::any_of(points.begin(), points.end(), [](const Point& p) { return p.x != 0; });
}

} // namespace

bool fitLine(const std::vector<Point>& points, LinearFit* fit) {
  const double n = static_cast<double>(points.size());
  if (points.size() < 2)
    return false;
  double meanX = 0;
  for (const Point& p : points)
    meanX += p.x;
  meanX /= n;
  const double my = meanY(points);
  double sxx = 0;
  double sxy = 0;
  for (const Point& p : points) {
    sxx += (p.x - meanX) * (p.x - meanX);
    sxy += (p.x - meanX) * (p.y - my);
  }
  if (sxx <= 0)
    return false;
  LinearFit result;
  result.slope = sxy / sxx;
  result.intercept = my - result.slope * meanX;
  const Residuals r = residuals(points, result.slope, result.intercept);
  result.points = static_cast<int>(points.size());
  result.rSquared = rSquared(r.sumSquared, totalSquares(points));
  result.maxRelativeResidual = r.maxRelative;
  result.slopeStandardError = points.size() > 2 ? std::sqrt(r.sumSquared / (n - 2) / sxx) : 0;
  *fit = result;
  return true;
}

bool fitSlopeWithIntercept(const std::vector<Point>& points, double intercept, LinearFit* fit) {
  if (!hasNonzeroX(points))
    return false;
  double sxy = 0;
  double sxx = 0;
  for (const Point& p : points) {
    sxy += p.x * (p.y - intercept);
    sxx += p.x * p.x;
  }
  finishFixedIntercept(points, sxy / sxx, intercept, fit);
  return true;
}

bool fitSlopeByRatio(const std::vector<Point>& points, double intercept, LinearFit* fit) {
  if (!hasNonzeroX(points))
    return false;
  double sumY = 0;
  double sumX = 0;
  for (const Point& p : points) {
    sumY += p.y;
    sumX += p.x;
  }
  if (sumX == 0)
    return false;
  const double slope = (sumY - static_cast<double>(points.size()) * intercept) / sumX;
  finishFixedIntercept(points, slope, intercept, fit);
  return true;
}

LinearFit evaluateCommonLine(const std::vector<std::vector<Point>>& series, double slope,
                             const std::vector<double>& intercepts) {
  LinearFit fit;
  fit.slope = slope;
  double residualSquares = 0;
  double total = 0;
  for (std::size_t s = 0; s < series.size(); ++s) {
    const double intercept = s < intercepts.size() ? intercepts[s] : 0;
    const Residuals r = residuals(series[s], slope, intercept);
    residualSquares += r.sumSquared;
    total += totalSquares(series[s]);
    fit.maxRelativeResidual = std::max(fit.maxRelativeResidual, r.maxRelative);
    fit.points += static_cast<int>(series[s].size());
  }
  fit.rSquared = rSquared(residualSquares, total);
  return fit;
}

bool fitCommonSlope(const std::vector<std::vector<Point>>& series, LinearFit* fit,
                    std::vector<double>* intercepts) {
  // Centering each series on its own means removes its intercept; the slope is then the ordinary
  // least-squares slope of the pooled, centered points.
  double sxx = 0;
  double sxy = 0;
  std::vector<double> meanX(series.size(), 0);
  std::vector<double> meanOfY(series.size(), 0);
  std::size_t parameters = 1;
  for (std::size_t s = 0; s < series.size(); ++s) {
    if (series[s].empty())
      continue;
    ++parameters;
    for (const Point& p : series[s])
      meanX[s] += p.x;
    meanX[s] /= static_cast<double>(series[s].size());
    meanOfY[s] = meanY(series[s]);
    for (const Point& p : series[s]) {
      sxx += (p.x - meanX[s]) * (p.x - meanX[s]);
      sxy += (p.x - meanX[s]) * (p.y - meanOfY[s]);
    }
  }
  if (sxx <= 0)
    return false;
  const double slope = sxy / sxx;
  intercepts->assign(series.size(), 0);
  for (std::size_t s = 0; s < series.size(); ++s)
    (*intercepts)[s] = meanOfY[s] - slope * meanX[s];
  LinearFit result = evaluateCommonLine(series, slope, *intercepts);
  double residualSquares = 0;
  for (std::size_t s = 0; s < series.size(); ++s)
    residualSquares += residuals(series[s], slope, (*intercepts)[s]).sumSquared;
  const std::size_t freedom =
      static_cast<std::size_t>(result.points) > parameters ? result.points - parameters : 0;
  result.slopeStandardError =
      freedom > 0 ? std::sqrt(residualSquares / static_cast<double>(freedom) / sxx) : 0;
  *fit = result;
  return true;
}

} // namespace overlap::calibration
