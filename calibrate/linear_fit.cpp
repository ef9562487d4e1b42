#include "linear_fit.h"

#include <algorithm>
#include <cmath>

namespace overlap::calibration {

namespace {

struct Residuals {
  double sum_squared = 0;
  double max_relative = 0;
};

Residuals residuals(const std::vector<Point>& points, double slope, double intercept) {
  Residuals r;
  for (const Point& p : points) {
    const double residual = p.y - (intercept + slope * p.x);
    r.sum_squared += residual * residual;
    if (p.y != 0)
      r.max_relative = std::max(r.max_relative, std::fabs(residual) / std::fabs(p.y));
    else if (residual != 0)
      r.max_relative = INFINITY;
  }
  return r;
}

double mean_y(const std::vector<Point>& points) {
  double sum = 0;
  for (const Point& p : points)
    sum += p.y;
  return points.empty() ? 0 : sum / static_cast<double>(points.size());
}

double total_squares(const std::vector<Point>& points) {
  const double mean = mean_y(points);
  double sum = 0;
  for (const Point& p : points)
    sum += (p.y - mean) * (p.y - mean);
  return sum;
}

// All residuals zero is a perfect fit even when y does not vary.
double r_squared(double residual_squares, double total) {
  if (total > 0)
    return 1 - residual_squares / total;
  return residual_squares == 0 ? 1 : 0;
}

// Shared by the fits whose intercept is given: the slope's standard error from the residual
// variance with one parameter estimated.
void finish_fixed_intercept(const std::vector<Point>& points, double slope, double intercept,
                            LinearFit* fit) {
  const Residuals r = residuals(points, slope, intercept);
  double sum_xx = 0;
  for (const Point& p : points)
    sum_xx += p.x * p.x;
  fit->slope = slope;
  fit->intercept = intercept;
  fit->points = static_cast<int>(points.size());
  fit->r_squared = r_squared(r.sum_squared, total_squares(points));
  fit->max_relative_residual = r.max_relative;
  fit->slope_standard_error =
      points.size() > 1 ? std::sqrt(r.sum_squared / static_cast<double>(points.size() - 1) / sum_xx)
                        : 0;
}

bool has_nonzero_x(const std::vector<Point>& points) {
  return std::any_of(points.begin(), points.end(), [](const Point& p) { return p.x != 0; });
}

} // namespace

bool fit_line(const std::vector<Point>& points, LinearFit* fit) {
  const double n = static_cast<double>(points.size());
  if (points.size() < 2)
    return false;
  double mean_x = 0;
  for (const Point& p : points)
    mean_x += p.x;
  mean_x /= n;
  const double my = mean_y(points);
  double sxx = 0;
  double sxy = 0;
  for (const Point& p : points) {
    sxx += (p.x - mean_x) * (p.x - mean_x);
    sxy += (p.x - mean_x) * (p.y - my);
  }
  if (sxx <= 0)
    return false;
  LinearFit result;
  result.slope = sxy / sxx;
  result.intercept = my - result.slope * mean_x;
  const Residuals r = residuals(points, result.slope, result.intercept);
  result.points = static_cast<int>(points.size());
  result.r_squared = r_squared(r.sum_squared, total_squares(points));
  result.max_relative_residual = r.max_relative;
  result.slope_standard_error = points.size() > 2 ? std::sqrt(r.sum_squared / (n - 2) / sxx) : 0;
  *fit = result;
  return true;
}

bool fit_slope_with_intercept(const std::vector<Point>& points, double intercept, LinearFit* fit) {
  if (!has_nonzero_x(points))
    return false;
  double sxy = 0;
  double sxx = 0;
  for (const Point& p : points) {
    sxy += p.x * (p.y - intercept);
    sxx += p.x * p.x;
  }
  finish_fixed_intercept(points, sxy / sxx, intercept, fit);
  return true;
}

bool fit_slope_by_ratio(const std::vector<Point>& points, double intercept, LinearFit* fit) {
  if (!has_nonzero_x(points))
    return false;
  double sum_y = 0;
  double sum_x = 0;
  for (const Point& p : points) {
    sum_y += p.y;
    sum_x += p.x;
  }
  if (sum_x == 0)
    return false;
  const double slope = (sum_y - static_cast<double>(points.size()) * intercept) / sum_x;
  finish_fixed_intercept(points, slope, intercept, fit);
  return true;
}

LinearFit evaluate_common_line(const std::vector<std::vector<Point>>& series, double slope,
                               const std::vector<double>& intercepts) {
  LinearFit fit;
  fit.slope = slope;
  double residual_squares = 0;
  double total = 0;
  for (std::size_t s = 0; s < series.size(); ++s) {
    const double intercept = s < intercepts.size() ? intercepts[s] : 0;
    const Residuals r = residuals(series[s], slope, intercept);
    residual_squares += r.sum_squared;
    total += total_squares(series[s]);
    fit.max_relative_residual = std::max(fit.max_relative_residual, r.max_relative);
    fit.points += static_cast<int>(series[s].size());
  }
  fit.r_squared = r_squared(residual_squares, total);
  return fit;
}

bool fit_common_slope(const std::vector<std::vector<Point>>& series, LinearFit* fit,
                      std::vector<double>* intercepts) {
  // Centering each series on its own means removes its intercept; the slope is then the ordinary
  // least-squares slope of the pooled, centered points.
  double sxx = 0;
  double sxy = 0;
  std::vector<double> mean_x(series.size(), 0);
  std::vector<double> mean_of_y(series.size(), 0);
  std::size_t parameters = 1;
  for (std::size_t s = 0; s < series.size(); ++s) {
    if (series[s].empty())
      continue;
    ++parameters;
    for (const Point& p : series[s])
      mean_x[s] += p.x;
    mean_x[s] /= static_cast<double>(series[s].size());
    mean_of_y[s] = mean_y(series[s]);
    for (const Point& p : series[s]) {
      sxx += (p.x - mean_x[s]) * (p.x - mean_x[s]);
      sxy += (p.x - mean_x[s]) * (p.y - mean_of_y[s]);
    }
  }
  if (sxx <= 0)
    return false;
  const double slope = sxy / sxx;
  intercepts->assign(series.size(), 0);
  for (std::size_t s = 0; s < series.size(); ++s)
    (*intercepts)[s] = mean_of_y[s] - slope * mean_x[s];
  LinearFit result = evaluate_common_line(series, slope, *intercepts);
  double residual_squares = 0;
  for (std::size_t s = 0; s < series.size(); ++s)
    residual_squares += residuals(series[s], slope, (*intercepts)[s]).sum_squared;
  const std::size_t freedom =
      static_cast<std::size_t>(result.points) > parameters ? result.points - parameters : 0;
  result.slope_standard_error =
      freedom > 0 ? std::sqrt(residual_squares / static_cast<double>(freedom) / sxx) : 0;
  *fit = result;
  return true;
}

} // namespace overlap::calibration
