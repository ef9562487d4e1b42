#include "LinearFit.h"
#include "Format.h"

#include <algorithm>
#include <cmath>

namespace overlap::calibration {

namespace {

double mean(const std::vector<Point>& points, double Point::* axis) {
  double sum = 0;
  for (const Point& p : points)
    sum += p.*axis;
  return points.empty() ? 0 : sum / static_cast<double>(points.size());
}

// Of the points around the line, and their total sum of squares around the mean of y.
struct Residuals {
  double sumSquared = 0;
  double maxRelative = 0;
  double totalSquares = 0;
};

Residuals residuals(const std::vector<Point>& points, double slope, double intercept) {
  Residuals r;
  const double meanY = mean(points, &Point::y);
  for (const Point& p : points) {
    const double residual = p.y - (intercept + slope * p.x);
    r.sumSquared += residual * residual;
    r.totalSquares += (p.y - meanY) * (p.y - meanY);
    if (p.y != 0)
      r.maxRelative = std::max(r.maxRelative, std::fabs(residual) / std::fabs(p.y));
    else if (residual != 0)
      r.maxRelative = INFINITY;
  }
  return r;
}

} // namespace

bool fitLine(const std::vector<Point>& points, LinearFit* fit) {
  // One series: its common slope is the ordinary least-squares slope, with the same n - 2
  // degrees of freedom.
  std::vector<double> intercepts;
  if (!fitCommonSlope({points}, fit, &intercepts))
    return false;
  fit->intercept = intercepts[0];
  return true;
}

bool fitSlopeByRatio(const std::vector<Point>& points, double intercept, LinearFit* fit) {
  // (sum t - n (L+o)) / sum k, over n: (mean t - (L+o)) / mean k.
  const double meanX = mean(points, &Point::x);
  if (meanX == 0)
    return false;
  *fit = evaluateCommonLine({points}, (mean(points, &Point::y) - intercept) / meanX, {intercept});
  fit->intercept = intercept;
  return true;
}

LinearFit evaluateCommonLine(const std::vector<std::vector<Point>>& series, double slope,
                             const std::vector<double>& intercepts) {
  LinearFit fit;
  fit.slope = slope;
  double residualSquares = 0;
  double total = 0;
  for (std::size_t s = 0; s < series.size(); ++s) {
    const double intercept = s < intercepts.size()
                                 ? intercepts[s]
                                 : mean(series[s], &Point::y) - slope * mean(series[s], &Point::x);
    const Residuals r = residuals(series[s], slope, intercept);
    residualSquares += r.sumSquared;
    total += r.totalSquares;
    fit.maxRelativeResidual = std::max(fit.maxRelativeResidual, r.maxRelative);
    fit.points += static_cast<int>(series[s].size());
  }
  // All residuals zero is a perfect fit even when y does not vary.
  fit.rSquared = total > 0 ? 1 - residualSquares / total : residualSquares == 0 ? 1 : 0;
  return fit;
}

bool fitCommonSlope(const std::vector<std::vector<Point>>& series, LinearFit* fit,
                    std::vector<double>* intercepts) {
  // Centering each series on its own means removes its intercept; the slope is then the ordinary
  // least-squares slope of the pooled, centered points.
  double sxx = 0;
  double sxy = 0;
  std::vector<double> meanX(series.size(), 0);
  std::vector<double> meanY(series.size(), 0);
  std::size_t parameters = 1; // the slope and an intercept per series with points
  for (std::size_t s = 0; s < series.size(); ++s) {
    if (!series[s].empty())
      ++parameters;
    meanX[s] = mean(series[s], &Point::x);
    meanY[s] = mean(series[s], &Point::y);
    for (const Point& p : series[s]) {
      sxx += (p.x - meanX[s]) * (p.x - meanX[s]);
      sxy += (p.x - meanX[s]) * (p.y - meanY[s]);
    }
  }
  if (sxx <= 0)
    return false;
  const double slope = sxy / sxx;
  intercepts->assign(series.size(), 0);
  double residualSquares = 0;
  for (std::size_t s = 0; s < series.size(); ++s) {
    (*intercepts)[s] = meanY[s] - slope * meanX[s];
    residualSquares += residuals(series[s], slope, (*intercepts)[s]).sumSquared;
  }
  *fit = evaluateCommonLine(series, slope, *intercepts);
  const std::size_t points = static_cast<std::size_t>(fit->points);
  const double freedom = points > parameters ? static_cast<double>(points - parameters) : 0;
  fit->slopeStandardError = freedom > 0 ? std::sqrt(residualSquares / freedom / sxx) : 0;
  return true;
}

std::string judgeFit(const std::string& what, const LinearFit& fit,
                     const FitRequirement& requirement) {
  std::string reasons;
  auto add = [&reasons](const char* pattern, double a = 0, double b = 0) {
    reasons += (reasons.empty() ? "" : "; ") + format(pattern, a, b);
  };
  if (fit.points < 2)
    add("fewer than two points measured");
  if (requirement.minRSquared > 0 && !(fit.rSquared >= requirement.minRSquared))
    add("R^2 %.5f is below %.5f (the times do not follow a line)", fit.rSquared,
        requirement.minRSquared);
  if (requirement.maxRelativeResidual > 0 &&
      !(fit.maxRelativeResidual <= requirement.maxRelativeResidual))
    add("largest relative residual %.2f %% exceeds %.2f %%", 100 * fit.maxRelativeResidual,
        100 * requirement.maxRelativeResidual);
  const double relativeError =
      fit.slope != 0 ? fit.slopeStandardError / std::fabs(fit.slope) : INFINITY;
  if (requirement.maxSlopeRelativeError > 0 &&
      !(relativeError <= requirement.maxSlopeRelativeError))
    add("the slope's standard error is %.1f %% of it, above %.1f %%", 100 * relativeError,
        100 * requirement.maxSlopeRelativeError);
  return reasons.empty() ? reasons : what + ": " + reasons;
}

} // namespace overlap::calibration
