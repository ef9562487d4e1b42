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
  double secondsPerByte = 0; // G
  double gapS = 0;           // g, never negative
  double latencyS = 0;       // L+o, given
  // max over points of |predicted - measured| / measured: what the fit minimizes.
  double maxRelativeResidual = 0;
  // 1 - SS_residual / SS_total over every point, SS_total around the mean time.
  double rSquared = 0;
  int points = 0;
  // The points whose relative residual equals the largest (to rounding): where the optimum is
  // decided. At least three, alternating in sign as ordered by the optimum's equations, unless
  // g >= 0 binds (then two) or the points are fitted exactly.
  std::vector<int> extremal;

  // Pieces of at least largePieceMinBytes cost largePieceSecondsPerByte instead of G
  // (fitTransferMinimaxByPieceSize); 0: one G for every piece.
  double largePieceSecondsPerByte = 0;
  double largePieceMinBytes = 0;

  double secondsPerByteFor(double pieceBytes) const {
    return largePieceMinBytes > 0 && pieceBytes >= largePieceMinBytes ? largePieceSecondsPerByte
                                                                      : secondsPerByte;
  }
  double predict(double bytes, double pieces) const {
    return latencyS + bytes * secondsPerByteFor(bytes / pieces) + (pieces - 1) * gapS;
  }
};

// Minimizes max_i |L+o + k_i G + (n_i - 1) g - t_i| / t_i over G and g >= 0 with L+o =
// `latency_s` fixed. That is a linear program in (G, g, e): minimize e subject to
// -e <= residual_i <= e and g >= 0; its optimum is a vertex where three of those constraints
// bind, and every vertex is tried, so the result is exact to rounding. O(m^4) in the m points:
// a calibration has tens. False when no point has bytes > 0 (G is not determined), a time is
// not positive, or the optimum's G is not positive.
bool fitTransferMinimax(const std::vector<TransferTime>& points, double latencyS,
                        MinimaxTransferFit* fit);

// The same with two G's by piece size: pieces of at least `largePieceMinBytes` at one, the
// smaller pieces at the other, g shared. The H100's host-to-device copies against a busy link
// ran pieces of 128 MiB and more 5-10 % slower per byte than pieces of 64 MiB and less (runs
// 6-11), which no single G fits within 5 %. For a fixed g each class's minimax G is a convex
// one-dimensional problem and the largest residual over both is convex in g, so nested
// ternary searches find the optimum (to ~1e-15 relative) in O(m) per step instead of the O(m^5)
// vertices of the four-unknown program. False when a class has no point with bytes > 0, a time
// is not positive, or a G of the optimum is not positive.
bool fitTransferMinimaxByPieceSize(const std::vector<TransferTime>& points, double latencyS,
                                   double largePieceMinBytes, MinimaxTransferFit* fit);

// fitTransferMinimax when `largePieceMinBytes` is 0, else fitTransferMinimaxByPieceSize:
// for callers that carry the boundary as a value (0: one G).
bool fitTransferMinimax(const std::vector<TransferTime>& points, double latencyS,
                        double largePieceMinBytes, MinimaxTransferFit* fit);

} // namespace overlap::calibration
