// From the raw measurements of a calibration run to a hardware profile: the paper 001 §V-A
// estimators, the fits' quality, and the reasons a profile must not be written. CUDA-free.
#pragma once

#include "CalibrationMeasurements.h"
#include "FitQuality.h"
#include "LinearFit.h"

#include "overlap/HardwareProfile.h"

#include <string>
#include <vector>

namespace overlap::calibration {

struct FitReport {
  std::string quantity; // as in ProfileMeasurement::quantity
  LinearFit fit;        // on the medians of the repeats
  std::string problem;  // empty when the fit meets its requirement
};

struct ProfileEstimate {
  HardwareProfile profile; // name left empty: the caller picks it
  std::vector<FitReport> fits;
  // Each names the quantity and why it is not trustworthy; a profile is written only when empty.
  std::vector<std::string> problems;
  // What the user should know that is no problem, one line each, e.g. "bidirectional
  // host_to_device: two rates, 49.8 GB/s (64 % of repeats) and 25.1 GB/s (36 %)".
  std::vector<std::string> notices;

  bool acceptable() const { return problems.empty(); }
};

// How each parameter is estimated (docs/hardware-profiles.md has the long form):
//  - L+o: median of the 1-byte transfers.
//  - G: paper 001 §V-A, G = (sum t_k - n (L+o)) / sum k, on the median time per size; the line
//    (L+o) + kG must then meet the size-fit requirement. The free least-squares line is kept
//    among the measurements for comparison.
//  - g: one least-squares slope of t over (n - 1) shared by every message size measured, each
//    size with its own intercept; a slope below 0 is stored as g = 0 and judged as such. When
//    one g misses the smallest pieces, they are left out one piece size at a time (while at
//    least half of the points and the largest piece count remain) and the piece size where it fits
//    is stored as g's domain of validity.
//  - bidirectional G and g: fitted together (MinimaxFit.h) over the single copies and every
//    piece series with the other direction busy, L+o fixed to the one-way latency, minimizing
//    the largest relative residual; judged by that residual against the bidirectional limit.
//    When it misses, the smallest pieces are left out as for g, and the piece size reached is
//    stored as bidirectional_gap_min_piece_bytes. The paper's estimator over the single copies
//    alone is recorded as <direction>.bidirectional_seconds_per_byte.singleCopies. Records
//    without busy piece series: G as below over the single copies, g unknown.
//  - simultaneous g (both directions cut into as many pieces at once): as g, over the
//    simultaneous piece series, judged like the bidirectional g; records before version 6 have
//    none and leave it unknown.
//  - with-mapped G (and the bidirectional G of old records): as G, with the same L+o.
//  - when the bidirectional copies ran at two rates (TwoRateLink.h), G and g are fitted on the
//    fast repeats, judged there, and the slow rate and its share are stored beside them.
//  - mapped cost per element width: like mapped read/write, per width; the 16-byte row must agree
//    with the mapped read/write kernels within their fit requirement.
//  - mapped both ways: slope of a free least-squares line of the kernel's time over the bytes it
//    moves each way, judged like mapped read/write; its ratios to them go into the notes.
//  - pageable G, mapped read/write and t_sc: slope of a free least-squares line.
//  - kernel launch, launch + synchronize and copy call: the lower quartile of the samples (each
//    a short burst of calls); stream sync: launch + synchronize minus the launch.
// Missing series leave their parameter 0 ("not known") without a problem, except L+o and G.
ProfileEstimate estimateProfile(const CalibrationMeasurements& measurements,
                                const QualityThresholds& thresholds = {});

} // namespace overlap::calibration
