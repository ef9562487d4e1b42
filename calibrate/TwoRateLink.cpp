#include "TwoRateLink.h"

#include "overlap/SampleStats.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

namespace overlap::calibration {

namespace {

std::vector<double> workDurations(const std::vector<double>& seconds, double latencyS) {
  std::vector<double> durations;
  for (double t : seconds)
    durations.push_back(std::max(t - latencyS, 0.0));
  return durations;
}

} // namespace

RepeatSplit splitRepeats(const std::vector<double>& durations, const TwoRateRule& rule) {
  RepeatSplit split;
  const int count = static_cast<int>(durations.size());
  std::vector<int> order(durations.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int a, int b) { return durations[a] < durations[b]; });
  split.fast = order;
  std::sort(split.fast.begin(), split.fast.end()); // every repeat, until a split is found
  const int least =
      std::max(rule.minRepeats, static_cast<int>(std::ceil(rule.minShare * count - 1e-9)));
  int best = -1; // the number of repeats on the fast side
  for (int fast = least; fast <= count - least; ++fast) {
    const double quicker = durations[order[fast - 1]];
    const double slower = durations[order[fast]];
    if (quicker <= 0)
      continue;
    const double ratio = slower / quicker;
    if (ratio > split.gapRatio) {
      split.gapRatio = ratio;
      best = fast;
    }
  }
  if (best < 0 || split.gapRatio <= rule.minGapRatio)
    return split;
  split.twoRates = true;
  split.fast.assign(order.begin(), order.begin() + best);
  split.slow.assign(order.begin() + best, order.end());
  std::sort(split.fast.begin(), split.fast.end());
  std::sort(split.slow.begin(), split.slow.end());
  return split;
}

std::string TwoRateLink::describe() const {
  if (!detected)
    return "one rate";
  char text[160];
  std::snprintf(text, sizeof(text),
                "two rates, %.1f GB/s (%.0f %% of repeats) and %.1f GB/s (%.0f %%)",
                fastRate * 1e-9, 100 * (1 - slowShare), slowRate * 1e-9, 100 * slowShare);
  return text;
}

TwoRateLink detectTwoRates(const Series& sizes, double latencyS, const TwoRateRule& rule) {
  TwoRateLink link;
  link.sizes = static_cast<int>(sizes.x.size());
  std::vector<double> fastRates;
  std::vector<double> slowRates;
  std::vector<double> allRates;
  for (std::size_t i = 0; i < sizes.x.size(); ++i) {
    const std::vector<double> durations = workDurations(sizes.seconds[i], latencyS);
    std::vector<double> rates;
    for (double d : durations)
      rates.push_back(d > 0 ? sizes.x[i] / d : 0);
    allRates.insert(allRates.end(), rates.begin(), rates.end());
    const RepeatSplit split = splitRepeats(durations, rule);
    link.largestGapRatio = std::max(link.largestGapRatio, split.gapRatio);
    if (!split.twoRates)
      continue;
    ++link.splitSizes;
    for (int f : split.fast)
      fastRates.push_back(rates[f]);
    for (int s : split.slow)
      slowRates.push_back(rates[s]);
  }
  link.repeats = static_cast<int>(allRates.size());
  if (link.splitSizes == 0)
    return link;
  link.detected = true;
  link.fastRate = summarize(fastRates).median;
  link.slowRate = summarize(slowRates).median;
  // Every repeat counts, also those of sizes that did not split (all fast or all slow there).
  const double midpoint = std::sqrt(link.fastRate * link.slowRate);
  for (double rate : allRates)
    link.slowRepeats += rate < midpoint ? 1 : 0;
  link.slowShare = link.repeats > 0 ? static_cast<double>(link.slowRepeats) / link.repeats : 0;
  return link;
}

Series fastModeSeries(const Series& series, double latencyS, const TwoRateRule& rule) {
  Series fast;
  for (std::size_t i = 0; i < series.x.size(); ++i) {
    const RepeatSplit split = splitRepeats(workDurations(series.seconds[i], latencyS), rule);
    std::vector<double> kept;
    for (int f : split.fast)
      kept.push_back(series.seconds[i][f]);
    fast.add(series.x[i], std::move(kept));
  }
  return fast;
}

} // namespace overlap::calibration
