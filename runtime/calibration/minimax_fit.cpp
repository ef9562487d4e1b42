#include "minimax_fit.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <utility>

namespace overlap::calibration {

namespace {

// A constraint of the linear program in scaled unknowns (u, v, e), taken as an equation
// u_coef u + v_coef v + e_coef e = rhs when it binds.
struct Constraint {
  double u_coef = 0;
  double v_coef = 0;
  double e_coef = 0;
  double rhs = 0;
};

// The relative residual of point i, (k G + (n - 1) g - (t - L)) / t, is a u + b v - c with
// G = u * g_scale and g = v * gap_scale; the scales bring a and b to at most 1 so that the
// pivot and feasibility tolerances mean the same for both unknowns.
struct ScaledPoint {
  double a = 0;
  double b = 0;
  double c = 0;
};

// Gaussian elimination with partial pivoting; false for a (near) singular system.
bool solve3(std::array<std::array<double, 4>, 3> m, std::array<double, 3>* x) {
  constexpr double kSingular = 1e-12;
  for (int col = 0; col < 3; ++col) {
    int pivot = col;
    for (int row = col + 1; row < 3; ++row)
      if (std::fabs(m[row][col]) > std::fabs(m[pivot][col]))
        pivot = row;
    if (std::fabs(m[pivot][col]) < kSingular)
      return false;
    std::swap(m[col], m[pivot]);
    for (int row = col + 1; row < 3; ++row) {
      const double factor = m[row][col] / m[col][col];
      for (int k = col; k < 4; ++k)
        m[row][k] -= factor * m[col][k];
    }
  }
  for (int row = 2; row >= 0; --row) {
    double sum = m[row][3];
    for (int k = row + 1; k < 3; ++k)
      sum -= m[row][k] * (*x)[k];
    (*x)[row] = sum / m[row][row];
  }
  return true;
}

} // namespace

bool fit_transfer_minimax(const std::vector<TransferTime>& points, double latency_s,
                          MinimaxTransferFit* fit) {
  double largest_a = 0;
  double largest_b = 0;
  for (const TransferTime& p : points) {
    if (!(p.seconds > 0) || p.bytes < 0 || p.pieces < 1)
      return false;
    largest_a = std::max(largest_a, p.bytes / p.seconds);
    largest_b = std::max(largest_b, (p.pieces - 1) / p.seconds);
  }
  if (largest_a <= 0)
    return false;
  const double g_scale = 1 / largest_a;
  // Without a point of several pieces g is not determined; g >= 0 then binds at g = 0.
  const double gap_scale = largest_b > 0 ? 1 / largest_b : 0;

  std::vector<ScaledPoint> scaled;
  std::vector<Constraint> constraints;
  for (const TransferTime& p : points) {
    const ScaledPoint s{p.bytes / p.seconds * g_scale, (p.pieces - 1) / p.seconds * gap_scale,
                        (p.seconds - latency_s) / p.seconds};
    scaled.push_back(s);
    constraints.push_back({s.a, s.b, -1, s.c});    // residual = +e
    constraints.push_back({-s.a, -s.b, -1, -s.c}); // residual = -e
  }
  constraints.push_back({0, 1, 0, 0}); // g = 0

  // Within this of a bound counts as on it: the scaled residuals are O(1) and rounding in the
  // 3x3 solve is some 1e-15 of that.
  constexpr double kFeasible = 1e-12;
  auto feasible = [&](const std::array<double, 3>& x) {
    if (x[1] < -kFeasible || x[2] < -kFeasible)
      return false;
    for (const ScaledPoint& s : scaled)
      if (std::fabs(s.a * x[0] + s.b * x[1] - s.c) > x[2] + kFeasible)
        return false;
    return true;
  };

  bool found = false;
  std::array<double, 3> best{};
  const std::size_t count = constraints.size();
  for (std::size_t i = 0; i < count; ++i)
    for (std::size_t j = i + 1; j < count; ++j)
      for (std::size_t k = j + 1; k < count; ++k) {
        std::array<std::array<double, 4>, 3> system;
        const Constraint* rows[] = {&constraints[i], &constraints[j], &constraints[k]};
        for (int r = 0; r < 3; ++r)
          system[r] = {rows[r]->u_coef, rows[r]->v_coef, rows[r]->e_coef, rows[r]->rhs};
        std::array<double, 3> x{};
        if (!solve3(system, &x) || (found && x[2] >= best[2]) || !feasible(x))
          continue;
        best = x;
        found = true;
      }
  if (!found)
    return false;

  MinimaxTransferFit result;
  result.latency_s = latency_s;
  result.seconds_per_byte = best[0] * g_scale;
  result.gap_s = std::max(0.0, best[1]) * gap_scale;
  if (!(result.seconds_per_byte > 0))
    return false;
  result.points = static_cast<int>(points.size());
  std::vector<double> relative;
  double mean = 0;
  for (const TransferTime& p : points)
    mean += p.seconds / static_cast<double>(points.size());
  double residual_squares = 0;
  double total_squares = 0;
  for (const TransferTime& p : points) {
    const double residual = result.predict(p.bytes, p.pieces) - p.seconds;
    relative.push_back(std::fabs(residual) / p.seconds);
    residual_squares += residual * residual;
    total_squares += (p.seconds - mean) * (p.seconds - mean);
    result.max_relative_residual = std::max(result.max_relative_residual, relative.back());
  }
  result.r_squared =
      total_squares > 0 ? 1 - residual_squares / total_squares : (residual_squares == 0 ? 1 : 0);
  // Equal to the largest to far better than any measurement: rounding leaves ~1e-15.
  constexpr double kExtremal = 1e-9;
  for (std::size_t i = 0; i < relative.size(); ++i)
    if (relative[i] >= result.max_relative_residual - kExtremal)
      result.extremal.push_back(static_cast<int>(i));
  *fit = std::move(result);
  return true;
}

} // namespace overlap::calibration
