// Repeats a measurement until its median is stable: warm-up runs first, then at least
// `minRepeats` timed runs, more while the interquartile range is wider than `targetSpread` of the
// median, up to `maxRepeats` or `maxSeconds` of timed work. CUDA-free, so the stopping rule is
// tested with fake samples; the GPU runner supplies real ones.
#pragma once

#include "overlap/SampleStats.h"

#include <functional>
#include <string>
#include <vector>

namespace overlap::tune {

struct TimingPlan {
  int warmup = 1;
  int minRepeats = 5;
  int maxRepeats = 25;
  double targetSpread = 0.02; // interquartile range / median
  double maxSeconds = 1.5;    // of timed samples per candidate, once minRepeats are done
};

// One run of the work: its seconds, or the error that stopped it.
struct Sample {
  double seconds = 0;
  std::string error; // empty: the run succeeded
  int code = 0;      // the failing call's cudaError_t, 0 when it succeeded
};

struct TimedSamples {
  std::vector<double> seconds;
  SampleStats stats;
  bool stable = false; // the spread target was met (else a repeat or time limit stopped it)
  std::string error;   // the first failing run; then `seconds` holds what ran before it
};

TimedSamples measureUntilStable(const std::function<Sample()>& run, const TimingPlan& plan);

} // namespace overlap::tune
