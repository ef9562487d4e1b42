// A link that runs at one of two rates from one copy to the next. On the H100 (PCIe Gen5), a
// host-to-device copy against a busy device-to-host direction ran at ~50 GB/s or ~25 GB/s, so
// the median of a handful of repeats picked either rate or a mix, and no line fitted the sizes.
// This finds the two rates in the repeats, so the calibration can report them, fit the fast one
// and judge that fit on its own. CUDA-free.
//
// The rule, on the repeats of one measured point (the same copy repeated): sort the repeats'
// durations; consider every split into a fast and a slow group that leaves at least
// max(2, 20 % of the repeats) on each side; take the split with the largest ratio between the
// slowest fast and the fastest slow repeat. The point runs at two rates when that ratio exceeds
// 1.3. Two repeats per side keep one disturbed repeat from looking like a mode; a ratio of 1.3
// is far beyond the few-percent spread of a steady link, and well below the ~2x of the H100's
// two rates. The rates switch during long copies too, so a long copy can land between them; the
// rule splits on the largest gap and counts such a copy with the side it is closer to.
#pragma once

#include "CalibrationMeasurements.h"

#include <string>
#include <vector>

namespace overlap::calibration {

struct TwoRateRule {
  double minGapRatio = 1.3;
  double minShare = 0.2; // of the repeats, on each side
  int minRepeats = 2;    // on each side, whatever the share
};

// The split of one point's repeats. `durations`: the work time of each repeat (a copy's time
// minus its fixed latency), so that ratios of durations are ratios of rates.
struct RepeatSplit {
  bool twoRates = false;
  double gapRatio = 1;   // of the clearest admissible split; 1 when none is admissible
  std::vector<int> fast; // indices into the durations, in the order given
  std::vector<int> slow; // empty unless twoRates
};

RepeatSplit splitRepeats(const std::vector<double>& durations, const TwoRateRule& rule = {});

// The rates of a series of single copies over sizes (Series::x in bytes), each repeat's rate
// being bytes / (time - latency).
struct TwoRateLink {
  bool detected = false; // some size's repeats ran at two rates
  double fastRate = 0;   // bytes per second: median of the fast repeats of the split sizes
  double slowRate = 0;   // of the slow repeats of the split sizes
  double slowShare = 0;  // of every repeat at every size, the share nearer the slow rate
  int repeats = 0;       // every repeat at every size
  int slowRepeats = 0;   // of those, nearer the slow rate (geometric midpoint)
  int sizes = 0;         // measured
  int splitSizes = 0;    // sizes whose repeats ran at two rates
  double largestGapRatio = 1;

  // "two rates, 49.8 GB/s (64 % of repeats) and 25.1 GB/s (36 %)", or "one rate" when not
  // detected.
  std::string describe() const;
};

TwoRateLink detectTwoRates(const Series& sizes, double latencyS, const TwoRateRule& rule = {});

// The series with, at each point whose repeats ran at two rates, only the fast repeats (points
// that did not split keep every repeat): what the fast mode's fit is made on. Each repeat's
// duration is taken net of `latency_s`, which all repeats of a point share.
Series fastModeSeries(const Series& series, double latencyS, const TwoRateRule& rule = {});

} // namespace overlap::calibration
