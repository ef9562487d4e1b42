#include "overlap/TunedSizes.h"

#include "overlap/Dispatch.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

namespace overlap {
namespace {

bool streamed(Variant variant) {
  return variant == Variant::Streams || variant == Variant::Hybrid;
}

RunConfig configOf(const TunedSize& size) {
  RunConfig config;
  config.variant = size.variant;
  config.streams =
      StreamsConfig{streamed(size.variant) ? size.streams : 1, size.order, size.pageable};
  config.streams.chunks = streamed(size.variant) ? size.chunks : 0;
  config.streams.devices = size.devices;
  config.streams.graph = streamed(size.variant) && size.graph;
  config.streams.staging.threads = streamed(size.variant) ? size.stagingThreads : 0;
  return config;
}

bool sameConfig(const TunedSize& a, const TunedSize& b) {
  return a.variant == b.variant && a.pageable == b.pageable && a.devices == b.devices &&
         (!streamed(a.variant) ||
          (a.streams == b.streams && a.order == b.order && a.chunks == b.chunks &&
           a.graph == b.graph && a.stagingThreads == b.stagingThreads));
}

// Whether two streamed winners cut their calls alike: one chunk per stream, or as many per stream.
bool sameChunksPerStream(const TunedSize& a, const TunedSize& b) {
  return static_cast<long long>(a.chunks) * b.streams ==
         static_cast<long long>(b.chunks) * a.streams;
}

// `config` at `streams` streams, with as many chunks per stream as it had.
RunConfig withStreams(RunConfig config, int streams) {
  const StreamsConfig& was = config.streams;
  if (was.chunks > 0)
    config.streams.chunks = static_cast<int>(
        std::max(1LL, static_cast<long long>(was.chunks) * streams / std::max(1, was.streams)));
  config.streams.streams = streams;
  return config;
}

std::string milliseconds(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g ms", seconds * 1e3);
  return text;
}

std::string at(const TunedSize& size) {
  return "P = " + std::to_string(size.extent) + " (" + describe(configOf(size)) + ")";
}

// The measured/predicted ratio of a size's winner: how far the model is off there.
std::optional<double> correction(const TunedSize& size) {
  if (!(size.predictedSeconds > 0) || !(size.measuredSeconds > 0))
    return std::nullopt;
  return size.measuredSeconds / size.predictedSeconds;
}

// Nearer on a log scale: P/lo <= hi/P, the smaller at equal distance.
const TunedSize& nearer(const TunedSize& lo, const TunedSize& hi, long long extent) {
  const double p = static_cast<double>(extent);
  return p * p <= static_cast<double>(lo.extent) * static_cast<double>(hi.extent) ? lo : hi;
}

// Of `config`'s variant and order at each of `counts` (ascending), the fewest streams the model
// predicts within kModelTie of the fastest: the model underprices every further stream's
// overhead (a tuned size's measured best sat below its predicted best count). nullopt when the
// model predicts none of them.
std::optional<RunConfig> fewestStreamsWithinTie(const RunConfig& config,
                                                const std::vector<int>& counts,
                                                double kernelSeconds, SizePredictor& model) {
  std::vector<RunConfig> configs;
  for (int streams : counts)
    configs.push_back(withStreams(config, streams));
  const std::vector<std::optional<double>> predicted = model.predict(configs, kernelSeconds);
  std::optional<double> fastest;
  for (std::size_t i = 0; i < predicted.size() && i < configs.size(); ++i)
    if (predicted[i] && (!fastest || *predicted[i] < *fastest))
      fastest = predicted[i];
  if (!fastest)
    return std::nullopt;
  for (std::size_t i = 0; i < predicted.size() && i < configs.size(); ++i)
    if (predicted[i] && *predicted[i] <= *fastest * (1 + kModelTie))
      return configs[i];
  assert(false && "the fastest prediction is within the tie of itself");
  return std::nullopt;
}

std::string withinTie(long long extent) {
  return "the fewest streams the model predicts within " +
         std::to_string(static_cast<int>(kModelTie * 100)) +
         " % of the fastest at P = " + std::to_string(extent);
}

SizeChoice between(const TunedSize& lo, const TunedSize& hi, long long extent,
                   SizePredictor* model) {
  const std::string sides = "between " + at(lo) + " and " + at(hi);
  if (sameConfig(lo, hi))
    return {configOf(lo), sides + ": the same winner at both"};
  // t_E is about affine in P: interpolate it linearly between the two tunings.
  const double t =
      static_cast<double>(extent - lo.extent) / static_cast<double>(hi.extent - lo.extent);
  const double kernelSeconds =
      std::max(0.0, lo.kernelSeconds + t * (hi.kernelSeconds - lo.kernelSeconds));
  if (model && streamed(lo.variant) && lo.variant == hi.variant && lo.order == hi.order &&
      lo.pageable == hi.pageable && lo.graph == hi.graph && sameChunksPerStream(lo, hi) &&
      lo.stagingThreads == hi.stagingThreads) {
    // One family at two counts: a count between them, not only either.
    const int fewest = std::min(lo.streams, hi.streams), most = std::max(lo.streams, hi.streams);
    std::vector<int> counts = {fewest};
    for (int streams = 1; streams < most; streams *= 2)
      if (streams > fewest)
        counts.push_back(streams);
    counts.push_back(most);
    if (const std::optional<RunConfig> config =
            fewestStreamsWithinTie(configOf(lo), counts, kernelSeconds, *model))
      return {*config, sides + ": its variant with " + withinTie(extent)};
  }
  const std::optional<double> loRatio = correction(lo);
  const std::optional<double> hiRatio = correction(hi);
  if (model && loRatio && hiRatio) {
    const std::vector<std::optional<double>> predicted =
        model->predict({configOf(lo), configOf(hi)}, kernelSeconds);
    if (predicted.size() == 2 && predicted[0] && predicted[1]) {
      const double loTime = *predicted[0] * *loRatio;
      const double hiTime = *predicted[1] * *hiRatio;
      const TunedSize& pick = loTime < hiTime ? lo : hiTime < loTime ? hi : nearer(lo, hi, extent);
      return {configOf(pick), sides +
                                  ": the model, scaled by each winner's measured/predicted "
                                  "ratio, predicts " +
                                  milliseconds(loTime) + " and " + milliseconds(hiTime) +
                                  " at P = " + std::to_string(extent)};
    }
  }
  const TunedSize& pick = nearer(lo, hi, extent);
  return {configOf(pick), sides + ": the nearer on a log scale" +
                              (model ? std::string(" (the model could not compare them)")
                                     : std::string(" (no model linked)"))};
}

SizeChoice beyond(const TunedSize& nearest, bool below, long long extent, long long granules,
                  SizePredictor* model) {
  const std::string side = std::string(below ? "below" : "beyond") + " the tuned sizes (" +
                           (below ? "smallest " : "largest ") + at(nearest) + ")";
  RunConfig config = configOf(nearest);
  if (!streamed(nearest.variant))
    return {config, side + ": its variant"};
  if (!model)
    return {config, side + ": its winner as it is (no model linked)"};
  // A larger call needs no fewer streams than the nearest size's winner, a smaller one no more;
  // ascending counts, the winner's own among them.
  const long long most = std::max(1LL, std::min<long long>(kMaxModelStreams, granules));
  std::vector<int> counts;
  for (long long streams = 1; streams <= most; streams *= 2)
    if (below ? streams < nearest.streams : streams > nearest.streams)
      counts.push_back(static_cast<int>(streams));
  if (nearest.streams <= most)
    counts.insert(below ? counts.end() : counts.begin(), nearest.streams);
  // t_E grows with the work: proportionally to P from the nearest tuning.
  const double kernelSeconds = nearest.kernelSeconds * static_cast<double>(extent) /
                               static_cast<double>(std::max(1LL, nearest.extent));
  if (const std::optional<RunConfig> fewest =
          fewestStreamsWithinTie(config, counts, kernelSeconds, *model))
    return {*fewest, side + ": its variant with " + withinTie(extent)};
  return {config, side + ": its winner as it is (the model could not predict it)"};
}

} // namespace

SizeChoice chooseBySize(const TunedSize* sizes, int count, long long extent, long long granules,
                        SizePredictor* model) {
  const TunedSize* end = sizes + count;
  const TunedSize* upper = std::lower_bound(
      sizes, end, extent, [](const TunedSize& size, long long p) { return size.extent < p; });
  if (upper != end && upper->extent == extent)
    return {configOf(*upper), "tuned at " + at(*upper)};
  if (upper == sizes)
    return beyond(*sizes, true, extent, granules, model);
  if (upper == end)
    return beyond(*(end - 1), false, extent, granules, model);
  return between(*(upper - 1), *upper, extent, model);
}

} // namespace overlap
