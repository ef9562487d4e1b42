// G and g of the LogGP transfer model fitted together, minimizing the largest relative error
// (Chebyshev / minimax) over single copies and piece series at once. On the H100 a single large
// copy against a busy link is slower per byte than the same bytes in pieces, so a G fitted on the
// single copies alone is pessimistic for the pieces the pipelines issue; fitting both parameters
// over every point and judging the fit by its worst point is what the accuracy target (largest
// error over a grid of sizes and piece counts) asks for. Least squares of the relative error
// lets the many small-error points outvote the worst one (run 3: 6.1 % instead of 4.5 % on the
// accuracy grid). CUDA-free.
#pragma once

#include <vector>

namespace overlap::calibration {

// One timed transfer: `bytes` in `pieces` pieces took `seconds`.
struct TransferTime {
  double bytes = 0;
  double pieces = 1;
  double seconds = 0;
};

struct MinimaxTransferFit {
  double seconds_per_byte = 0; // G
  double gap_s = 0;            // g, never negative
  double latency_s = 0;        // L+o, given
  // max over points of |predicted - measured| / measured: what the fit minimizes.
  double max_relative_residual = 0;
  // 1 - SS_residual / SS_total over every point, SS_total around the mean time.
  double r_squared = 0;
  int points = 0;
  // The points whose relative residual equals the largest (to rounding): where the optimum is
  // decided. At least three, alternating in sign as ordered by the optimum's equations, unless
  // g >= 0 binds (then two) or the points are fitted exactly.
  std::vector<int> extremal;

  double predict(double bytes, double pieces) const {
    return latency_s + bytes * seconds_per_byte + (pieces - 1) * gap_s;
  }
};

// Minimizes max_i |L+o + k_i G + (n_i - 1) g - t_i| / t_i over G and g >= 0 with L+o =
// `latency_s` fixed. That is a linear program in (G, g, e): minimize e subject to
// -e <= residual_i <= e and g >= 0; its optimum is a vertex where three of those constraints
// bind, and every vertex is tried, so the result is exact to rounding. O(m^4) in the m points:
// a calibration has tens. False when no point has bytes > 0 (G is not determined), a time is
// not positive, or the optimum's G is not positive.
bool fit_transfer_minimax(const std::vector<TransferTime>& points, double latency_s,
                          MinimaxTransferFit* fit);

} // namespace overlap::calibration
