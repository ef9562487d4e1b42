// Median and spread of repeated measurements. Header-only and CUDA-free, so the CUDA timing
// helpers (overlap/Timing.h) and the CUDA-free calibration fits share one definition.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

namespace overlap {

struct SampleStats {
  int count = 0;
  double median = 0;
  double min = 0;
  double max = 0;
  double q1 = 0;  // first quartile
  double q3 = 0;  // third quartile
  double mad = 0; // median absolute deviation from the median

  double iqr() const { return q3 - q1; }
  // (max - min) / median: how far apart the repeats are, relative to what is reported.
  double relativeRange() const { return median != 0 ? (max - min) / std::fabs(median) : 0; }
};

namespace detail {
// Linear interpolation between closest ranks (the "type 7" quantile of R and NumPy's default).
inline double sortedQuantile(const std::vector<double>& sorted, double q) {
  const double position = q * static_cast<double>(sorted.size() - 1);
  const std::size_t below = static_cast<std::size_t>(std::floor(position));
  const std::size_t above = std::min(below + 1, sorted.size() - 1);
  const double fraction = position - static_cast<double>(below);
  return sorted[below] + (sorted[above] - sorted[below]) * fraction;
}
} // namespace detail

// Empty input gives count 0 and zeros.
inline SampleStats summarize(std::vector<double> values) {
  SampleStats stats;
  if (values.empty())
    return stats;
  std::sort(values.begin(), values.end());
  stats.count = static_cast<int>(values.size());
  stats.min = values.front();
  stats.max = values.back();
  stats.median = detail::sortedQuantile(values, 0.5);
  stats.q1 = detail::sortedQuantile(values, 0.25);
  stats.q3 = detail::sortedQuantile(values, 0.75);
  for (double& v : values)
    v = std::fabs(v - stats.median);
  std::sort(values.begin(), values.end());
  stats.mad = detail::sortedQuantile(values, 0.5);
  return stats;
}

} // namespace overlap
