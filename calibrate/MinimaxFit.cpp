#include "MinimaxFit.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <utility>

namespace overlap::calibration {

namespace {

// A constraint of the linear program in scaled unknowns (u, v, e), taken as an equation
// uCoef u + vCoef v + eCoef e = rhs when it binds.
struct Constraint {
  double uCoef = 0;
  double vCoef = 0;
  double eCoef = 0;
  double rhs = 0;
};

// The relative residual of point i, (k G + (n - 1) g - (t - L)) / t, is a u + b v - c with
// G = u * gScale and g = v * gapScale; the scales bring a and b to at most 1 so that the
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

// Fills the statistics of `fit` over `points` from its parameters: largest relative residual,
// R^2 and the extremal points.
void describeResiduals(const std::vector<TransferTime>& points, MinimaxTransferFit* fit) {
  fit->points = static_cast<int>(points.size());
  fit->maxRelativeResidual = 0;
  fit->extremal.clear();
  std::vector<double> relative;
  double mean = 0;
  for (const TransferTime& p : points)
    mean += p.seconds / static_cast<double>(points.size());
  double residualSquares = 0;
  double totalSquares = 0;
  for (const TransferTime& p : points) {
    const double residual = fit->predict(p.bytes, p.pieces) - p.seconds;
    relative.push_back(std::fabs(residual) / p.seconds);
    residualSquares += residual * residual;
    totalSquares += (p.seconds - mean) * (p.seconds - mean);
    fit->maxRelativeResidual = std::max(fit->maxRelativeResidual, relative.back());
  }
  fit->rSquared =
      totalSquares > 0 ? 1 - residualSquares / totalSquares : (residualSquares == 0 ? 1 : 0);
  // Equal to the largest to far better than any measurement: rounding leaves ~1e-15.
  constexpr double kExtremal = 1e-9;
  for (std::size_t i = 0; i < relative.size(); ++i)
    if (relative[i] >= fit->maxRelativeResidual - kExtremal)
      fit->extremal.push_back(static_cast<int>(i));
}

// The minimum over x in [lo, hi] of a convex f, and where it is taken.
template <typename Convex>
std::pair<double, double> minimizeConvex(Convex f, double lo, double hi) {
  // (2/3)^100 ~ 2e-18 of the bracket: past double precision for any bracket used here.
  constexpr int kSteps = 100;
  for (int step = 0; step < kSteps && hi > lo; ++step) {
    const double a = lo + (hi - lo) / 3;
    const double b = hi - (hi - lo) / 3;
    if (f(a) <= f(b))
      hi = b;
    else
      lo = a;
  }
  const double x = 0.5 * (lo + hi);
  return {f(x), x};
}

// One class's points as relative residuals a G - (d - b g): a = k/t, b = (n-1)/t,
// d = (t - L)/t.
struct ClassPoint {
  double a = 0;
  double b = 0;
  double d = 0;
};

// The largest |a G - (d - b g)| over `points` minimized over G >= 0 for a fixed g, and that G.
std::pair<double, double> classMinimax(const std::vector<ClassPoint>& points, double gap) {
  double lo = std::numeric_limits<double>::max();
  double hi = 0;
  for (const ClassPoint& p : points) {
    // Each residual is zero at (d - b g) / a: the optimum lies between the smallest and largest.
    const double zero = (p.d - p.b * gap) / p.a;
    lo = std::min(lo, zero);
    hi = std::max(hi, zero);
  }
  lo = std::max(0.0, lo);
  auto largest = [&](double perByte) {
    double e = 0;
    for (const ClassPoint& p : points)
      e = std::max(e, std::fabs(p.a * perByte - (p.d - p.b * gap)));
    return e;
  };
  return minimizeConvex(largest, lo, std::max(lo, hi));
}

} // namespace

bool fitTransferMinimaxByPieceSize(const std::vector<TransferTime>& points, double latencyS,
                                   double largePieceMinBytes, MinimaxTransferFit* fit) {
  std::vector<ClassPoint> small;
  std::vector<ClassPoint> large;
  double largestGap = 0;
  for (const TransferTime& p : points) {
    if (!(p.seconds > 0) || !(p.bytes > 0) || p.pieces < 1)
      return false;
    const ClassPoint scaled{p.bytes / p.seconds, (p.pieces - 1) / p.seconds,
                            (p.seconds - latencyS) / p.seconds};
    (p.bytes / p.pieces >= largePieceMinBytes ? large : small).push_back(scaled);
    if (p.pieces > 1)
      largestGap = std::max(largestGap, (p.seconds - latencyS) / (p.pieces - 1));
  }
  if (small.empty() || large.empty())
    return false;
  // Every residual is within its point's time at g = (t - L) / (n - 1) and G = 0, so the optimum
  // lies below the largest such g.
  auto both = [&](double gap) {
    return std::max(classMinimax(small, gap).first, classMinimax(large, gap).first);
  };
  const double gap = minimizeConvex(both, 0.0, std::max(0.0, largestGap)).second;

  MinimaxTransferFit result;
  result.latencyS = latencyS;
  result.gapS = gap;
  result.secondsPerByte = classMinimax(small, gap).second;
  result.largePieceSecondsPerByte = classMinimax(large, gap).second;
  result.largePieceMinBytes = largePieceMinBytes;
  if (!(result.secondsPerByte > 0) || !(result.largePieceSecondsPerByte > 0))
    return false;
  describeResiduals(points, &result);
  *fit = std::move(result);
  return true;
}

bool fitTransferMinimax(const std::vector<TransferTime>& points, double latencyS,
                        MinimaxTransferFit* fit) {
  double largestA = 0;
  double largestB = 0;
  for (const TransferTime& p : points) {
    if (!(p.seconds > 0) || p.bytes < 0 || p.pieces < 1)
      return false;
    largestA = std::max(largestA, p.bytes / p.seconds);
    largestB = std::max(largestB, (p.pieces - 1) / p.seconds);
  }
  if (largestA <= 0)
    return false;
  const double gScale = 1 / largestA;
  // Without a point of several pieces g is not determined; g >= 0 then binds at g = 0.
  const double gapScale = largestB > 0 ? 1 / largestB : 0;

  std::vector<ScaledPoint> scaled;
  std::vector<Constraint> constraints;
  for (const TransferTime& p : points) {
    const ScaledPoint s{p.bytes / p.seconds * gScale, (p.pieces - 1) / p.seconds * gapScale,
                        (p.seconds - latencyS) / p.seconds};
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
          system[r] = {rows[r]->uCoef, rows[r]->vCoef, rows[r]->eCoef, rows[r]->rhs};
        std::array<double, 3> x{};
        if (!solve3(system, &x) || (found && x[2] >= best[2]) || !feasible(x))
          continue;
        best = x;
        found = true;
      }
  if (!found)
    return false;

  MinimaxTransferFit result;
  result.latencyS = latencyS;
  result.secondsPerByte = best[0] * gScale;
  result.gapS = std::max(0.0, best[1]) * gapScale;
  if (!(result.secondsPerByte > 0))
    return false;
  describeResiduals(points, &result);
  *fit = std::move(result);
  return true;
}

bool fitTransferMinimax(const std::vector<TransferTime>& points, double latencyS,
                        double largePieceMinBytes, MinimaxTransferFit* fit) {
  return largePieceMinBytes > 0
             ? fitTransferMinimaxByPieceSize(points, latencyS, largePieceMinBytes, fit)
             : fitTransferMinimax(points, latencyS, fit);
}

} // namespace overlap::calibration
