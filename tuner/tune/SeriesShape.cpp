#include "tune/SeriesShape.h"

#include "overlap/SampleStats.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <utility>

namespace overlap::tune {
namespace {

double median(std::vector<double> values) {
  return summarize(std::move(values)).median;
}

// Spearman's rank correlation of the values with their position (ties ranked in order of
// position: a flat series correlates with nothing only approximately, which the median test
// beside it covers).
double rankCorrelation(const std::vector<double>& values) {
  const std::size_t n = values.size();
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i)
    order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return values[a] < values[b]; });
  double sumSquared = 0;
  for (std::size_t rank = 0; rank < n; ++rank) {
    const double d = static_cast<double>(rank) - static_cast<double>(order[rank]);
    sumSquared += d * d;
  }
  const double count = static_cast<double>(n);
  return 1 - 6 * sumSquared / (count * (count * count - 1));
}

} // namespace

const char* to_string(SeriesKind kind) {
  switch (kind) {
  case SeriesKind::Steady:
    return "steady";
  case SeriesKind::Bimodal:
    return "bimodal";
  case SeriesKind::Drifting:
    return "drifting";
  }
  return "?";
}

SeriesShape seriesShape(const std::vector<double>& secondsInOrder, double noise) {
  SeriesShape shape;
  const std::size_t n = secondsInOrder.size();
  if (n < static_cast<std::size_t>(kMinSeriesRepeats))
    return shape;
  // Two modes: the widest relative gap of the sorted repeats, each side holding at least a fifth
  // of them (and two), wider than the noise allows.
  std::vector<double> sorted = secondsInOrder;
  std::sort(sorted.begin(), sorted.end());
  const std::size_t least = std::max<std::size_t>(2, n / 5);
  std::size_t split = 0;
  double widest = 0;
  for (std::size_t k = least; k + least <= n; ++k)
    if (sorted[k - 1] > 0 && sorted[k] / sorted[k - 1] - 1 > widest) {
      widest = sorted[k] / sorted[k - 1] - 1;
      split = k;
    }
  if (split > 0 && widest > std::max(4 * noise, 0.10)) {
    const double threshold = sorted[split];
    // In time order: one change of mode is a step (a drift), more are alternation.
    int changes = 0;
    for (std::size_t i = 1; i < n; ++i)
      changes += (secondsInOrder[i] >= threshold) != (secondsInOrder[i - 1] >= threshold);
    if (changes == 1) {
      std::size_t step = 1;
      while ((secondsInOrder[step] >= threshold) == (secondsInOrder[0] >= threshold))
        ++step;
      shape.kind = SeriesKind::Drifting;
      shape.firstSeconds = median({secondsInOrder.begin(), secondsInOrder.begin() + step});
      shape.secondSeconds = median({secondsInOrder.begin() + step, secondsInOrder.end()});
      return shape;
    }
    shape.kind = SeriesKind::Bimodal;
    shape.firstSeconds = median({sorted.begin(), sorted.begin() + split});
    shape.secondSeconds = median({sorted.begin() + split, sorted.end()});
    return shape;
  }
  // A trend: the halves' medians apart beyond the noise, and the series mostly monotone.
  const double first = median({secondsInOrder.begin(), secondsInOrder.begin() + n / 2});
  const double second = median({secondsInOrder.begin() + (n + 1) / 2, secondsInOrder.end()});
  if (first > 0 && std::fabs(second / first - 1) > std::max(2 * noise, 0.05) &&
      std::fabs(rankCorrelation(secondsInOrder)) >= 0.7) {
    shape.kind = SeriesKind::Drifting;
    shape.firstSeconds = first;
    shape.secondSeconds = second;
  }
  return shape;
}

SeriesShape seriesShape(const CandidateOutcome& candidate, double noise) {
  std::vector<double> series = candidate.screeningSamples;
  series.insert(series.end(), candidate.samples.begin(), candidate.samples.end());
  return seriesShape(series, noise);
}

std::vector<UnsteadySeries> unsteadySeries(const TuningRun& run) {
  std::vector<UnsteadySeries> unsteady;
  for (const CandidateOutcome& c : run.candidates) {
    if (c.timing.count == 0)
      continue;
    const SeriesShape shape = seriesShape(c, run.noise);
    if (shape.kind != SeriesKind::Steady)
      unsteady.push_back({&c, shape});
  }
  return unsteady;
}

std::string describe(const SeriesShape& shape) {
  char text[128];
  switch (shape.kind) {
  case SeriesKind::Steady:
    return "steady";
  case SeriesKind::Bimodal:
    std::snprintf(text, sizeof text, "bimodal: %.4g ms and %.4g ms (fast and slow mode)",
                  shape.firstSeconds * 1e3, shape.secondSeconds * 1e3);
    return text;
  case SeriesKind::Drifting:
    std::snprintf(text, sizeof text, "drifting: %.4g ms, then %.4g ms", shape.firstSeconds * 1e3,
                  shape.secondSeconds * 1e3);
    return text;
  }
  return "?";
}

} // namespace overlap::tune
