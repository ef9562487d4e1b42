// The shape of one candidate's timed repeats, in the order they were timed (issue 21). The link
// of a shared machine is bimodal and drifts between seconds: a series may alternate between a
// fast and a slow mode (each repeat lands in one window or the other) or change during the series
// (a step or a trend). A median hides both; the reports name them, with both modes, so a person
// can tell a winner measured in a fast window from one that is faster. CUDA-free.
#pragma once

#include "tune/TuningRun.h"

#include <string>
#include <vector>

namespace overlap::tune {

enum class SeriesKind : unsigned char {
  Steady,  // one mode, no trend beyond the noise
  Bimodal, // two modes apart by more than the noise, alternating in time
  Drifting // the later repeats differ from the earlier ones: one step, or a monotone trend
};

const char* to_string(SeriesKind kind);

struct SeriesShape {
  SeriesKind kind = SeriesKind::Steady;
  // Bimodal: the medians of the fast and the slow mode; Drifting: the medians of the earlier and
  // the later part (before and after a step, else the first and the second half). 0 when Steady.
  double firstSeconds = 0;
  double secondSeconds = 0;
};

// Series of fewer than kMinSeriesRepeats repeats are Steady: too few to tell. `noise` is the
// tuning's relative noise; modes and halves closer than max(4 x noise, 10 %) (modes) or
// max(2 x noise, 5 %) (trends) count as one.
inline constexpr int kMinSeriesRepeats = 5;
SeriesShape seriesShape(const std::vector<double>& secondsInOrder, double noise);

// A candidate's series: its screening repeats (a finalist's, FinalRound.h) and then its
// samples, so that a jump between the screening and the final round shows as a drift.
SeriesShape seriesShape(const CandidateOutcome& candidate, double noise);

// The timed candidates of a run whose series is not steady, in the run's order, with their shape:
// what the console and the Markdown report name.
struct UnsteadySeries {
  const CandidateOutcome* candidate = nullptr;
  SeriesShape shape;
};
std::vector<UnsteadySeries> unsteadySeries(const TuningRun& run);

// "bimodal: 2.261 ms and 4.523 ms (fast and slow mode)", "drifting: 1.10 ms, then 1.32 ms".
std::string describe(const SeriesShape& shape);

} // namespace overlap::tune
