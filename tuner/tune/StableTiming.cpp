#include "tune/StableTiming.h"

namespace overlap::tune {

TimedSamples measureUntilStable(const std::function<Sample()>& run, const TimingPlan& plan) {
  TimedSamples result;
  for (int i = 0; i < plan.warmup; ++i) {
    const Sample sample = run();
    if (!sample.error.empty()) {
      result.error = sample.error;
      return result;
    }
  }
  double timed = 0;
  while (static_cast<int>(result.seconds.size()) < plan.maxRepeats) {
    const Sample sample = run();
    if (!sample.error.empty()) {
      result.error = sample.error;
      break;
    }
    result.seconds.push_back(sample.seconds);
    timed += sample.seconds;
    if (static_cast<int>(result.seconds.size()) < plan.minRepeats)
      continue;
    result.stats = summarize(result.seconds);
    // One sample says nothing of the spread.
    result.stable = result.seconds.size() >= 2 && result.stats.median > 0 &&
                    result.stats.iqr() <= plan.targetSpread * result.stats.median;
    if (result.stable || timed >= plan.maxSeconds)
      break;
  }
  result.stats = summarize(result.seconds);
  return result;
}

} // namespace overlap::tune
