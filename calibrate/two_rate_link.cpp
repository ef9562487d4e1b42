#include "two_rate_link.h"

#include "overlap/sample_stats.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

namespace overlap::calibration {

namespace {

std::vector<double> work_durations(const std::vector<double>& seconds, double latency_s) {
  std::vector<double> durations;
  for (double t : seconds)
    durations.push_back(std::max(t - latency_s, 0.0));
  return durations;
}

} // namespace

RepeatSplit split_repeats(const std::vector<double>& durations, const TwoRateRule& rule) {
  RepeatSplit split;
  const int count = static_cast<int>(durations.size());
  std::vector<int> order(durations.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int a, int b) { return durations[a] < durations[b]; });
  split.fast = order;
  std::sort(split.fast.begin(), split.fast.end()); // every repeat, until a split is found
  const int least =
      std::max(rule.min_repeats, static_cast<int>(std::ceil(rule.min_share * count - 1e-9)));
  int best = -1; // the number of repeats on the fast side
  for (int fast = least; fast <= count - least; ++fast) {
    const double quicker = durations[order[fast - 1]];
    const double slower = durations[order[fast]];
    if (quicker <= 0)
      continue;
    const double ratio = slower / quicker;
    if (ratio > split.gap_ratio) {
      split.gap_ratio = ratio;
      best = fast;
    }
  }
  if (best < 0 || split.gap_ratio <= rule.min_gap_ratio)
    return split;
  split.two_rates = true;
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
                fast_rate * 1e-9, 100 * (1 - slow_share), slow_rate * 1e-9, 100 * slow_share);
  return text;
}

TwoRateLink detect_two_rates(const Series& sizes, double latency_s, const TwoRateRule& rule) {
  TwoRateLink link;
  link.sizes = static_cast<int>(sizes.x.size());
  std::vector<double> fast_rates;
  std::vector<double> slow_rates;
  std::vector<double> all_rates;
  for (std::size_t i = 0; i < sizes.x.size(); ++i) {
    const std::vector<double> durations = work_durations(sizes.seconds[i], latency_s);
    std::vector<double> rates;
    for (double d : durations)
      rates.push_back(d > 0 ? sizes.x[i] / d : 0);
    all_rates.insert(all_rates.end(), rates.begin(), rates.end());
    const RepeatSplit split = split_repeats(durations, rule);
    link.largest_gap_ratio = std::max(link.largest_gap_ratio, split.gap_ratio);
    if (!split.two_rates)
      continue;
    ++link.split_sizes;
    for (int f : split.fast)
      fast_rates.push_back(rates[f]);
    for (int s : split.slow)
      slow_rates.push_back(rates[s]);
  }
  link.repeats = static_cast<int>(all_rates.size());
  if (link.split_sizes == 0)
    return link;
  link.detected = true;
  link.fast_rate = summarize(fast_rates).median;
  link.slow_rate = summarize(slow_rates).median;
  // Every repeat counts, also those of sizes that did not split (all fast or all slow there).
  const double midpoint = std::sqrt(link.fast_rate * link.slow_rate);
  for (double rate : all_rates)
    link.slow_repeats += rate < midpoint ? 1 : 0;
  link.slow_share = link.repeats > 0 ? static_cast<double>(link.slow_repeats) / link.repeats : 0;
  return link;
}

Series fast_mode_series(const Series& series, double latency_s, const TwoRateRule& rule) {
  Series fast;
  for (std::size_t i = 0; i < series.x.size(); ++i) {
    const RepeatSplit split = split_repeats(work_durations(series.seconds[i], latency_s), rule);
    std::vector<double> kept;
    for (int f : split.fast)
      kept.push_back(series.seconds[i][f]);
    fast.add(series.x[i], std::move(kept));
  }
  return fast;
}

} // namespace overlap::calibration
