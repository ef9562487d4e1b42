#include "tune/CandidateSearch.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <utility>

namespace overlap::tune {
namespace {

Family familyOf(const model::Candidate& c) {
  return {c.variant, c.pageable};
}

bool isExplicit(const CandidateOutcome& c) {
  return c.candidate == model::Candidate{};
}

void add(std::vector<std::size_t>& chosen, std::vector<CandidateOutcome>& candidates, std::size_t i,
         const std::string& reason) {
  if (candidates[i].run || isExplicit(candidates[i]) ||
      std::find(chosen.begin(), chosen.end(), i) != chosen.end())
    return;
  candidates[i].runReason = reason;
  chosen.push_back(i);
}

// Where a candidate lies on one of the two axes the local search walks.
enum class Axis { Streams, Chunks };

int coordinate(const model::Candidate& c, Axis axis) {
  return axis == Axis::Streams ? c.streams : model::askedChunks(c);
}

// Whether `other` lies on `c`'s line along `axis`: the same but for the stream count with as many
// chunks per stream (one each, or the same multiple), or the same but for the chunk count.
bool onLine(const model::Candidate& c, const model::Candidate& other, Axis axis) {
  model::Candidate same = other;
  if (axis == Axis::Chunks) {
    same.chunks = c.chunks;
    return same == c;
  }
  same.streams = c.streams;
  same.chunks = c.chunks;
  return same == c && static_cast<long long>(other.chunks) * c.streams ==
                          static_cast<long long>(c.chunks) * other.streams;
}

// The neighbour of `from` along `axis`: the next smaller (direction -1) or larger (+1) stream
// count, or chunk count at its stream count (the enumeration's powers of two per stream),
// enumerated.
std::optional<std::size_t> along(const std::vector<CandidateOutcome>& candidates, std::size_t from,
                                 Axis axis, int direction) {
  const model::Candidate& c = candidates[from].candidate;
  const int at = coordinate(c, axis);
  std::optional<std::size_t> best;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const model::Candidate& other = candidates[i].candidate;
    const int there = coordinate(other, axis);
    if (!onLine(c, other, axis) || (there - at) * direction <= 0)
      continue;
    if (!best ||
        std::abs(there - at) < std::abs(coordinate(candidates[*best].candidate, axis) - at))
      best = i;
  }
  return best;
}

std::optional<std::size_t> otherOrder(const std::vector<CandidateOutcome>& candidates,
                                      std::size_t from) {
  const model::Candidate& c = candidates[from].candidate;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const model::Candidate& other = candidates[i].candidate;
    model::Candidate sameButOrder = other;
    sameButOrder.order = c.order;
    if (sameButOrder == c && other.order != c.order)
      return i;
  }
  return std::nullopt;
}

} // namespace

std::vector<std::size_t> seedCandidates(std::vector<CandidateOutcome>& candidates) {
  std::vector<std::size_t> chosen;
  for (std::size_t i = 0; i < candidates.size(); ++i)
    if (candidates[i].keptByModel)
      add(chosen, candidates, i, "kept by the model");
  std::map<Family, std::size_t> bestPredicted;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    if (!candidates[i].predictedSeconds)
      continue;
    const auto [it, inserted] = bestPredicted.emplace(familyOf(candidates[i].candidate), i);
    if (!inserted && *candidates[i].predictedSeconds < *candidates[it->second].predictedSeconds)
      it->second = i;
  }
  for (const auto& [family, i] : bestPredicted)
    add(chosen, candidates, i,
        std::string("the best predicted of ") + model::to_string(family.first) +
            (family.second == PageableMode::Default
                 ? std::string()
                 : std::string(" (") + overlap::to_string(family.second) + ")") +
            " (every family is measured)");
  std::sort(chosen.begin(), chosen.end());
  return chosen;
}

double leadingMargin(const std::vector<CandidateOutcome>& candidates, double noise) {
  std::vector<double> errors;
  for (const CandidateOutcome& c : candidates)
    if (c.usable() && c.predictedSeconds && c.timing.median > 0)
      errors.push_back(std::fabs(*c.predictedSeconds - c.timing.median) / c.timing.median);
  double margin = noise;
  if (!errors.empty()) {
    std::nth_element(errors.begin(), errors.begin() + errors.size() / 2, errors.end());
    margin = std::max(margin, errors[errors.size() / 2]);
  }
  return std::min(margin, 0.5);
}

std::map<Family, std::size_t> fastestOfEachFamily(const std::vector<CandidateOutcome>& candidates) {
  std::map<Family, std::size_t> fastest;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    if (!candidates[i].usable())
      continue;
    const auto [it, inserted] = fastest.emplace(familyOf(candidates[i].candidate), i);
    if (!inserted && candidates[i].timing.median < candidates[it->second].timing.median)
      it->second = i;
  }
  return fastest;
}

std::vector<std::size_t> nextNeighbours(std::vector<CandidateOutcome>& candidates, double noise) {
  const std::map<Family, std::size_t> bestMeasured = fastestOfEachFamily(candidates);
  std::optional<double> fastest;
  for (const auto& [family, i] : bestMeasured)
    if (!fastest || candidates[i].timing.median < *fastest)
      fastest = candidates[i].timing.median;
  std::vector<std::size_t> chosen;
  if (!fastest)
    return chosen;
  const double margin = leadingMargin(candidates, noise);
  for (const auto& [family, best] : bestMeasured) {
    if (family.first != Variant::Streams && family.first != Variant::Hybrid)
      continue; // no stream count to search
    if (candidates[best].timing.median > *fastest * (1 + margin))
      continue;
    const std::string reason = "a neighbour of " + model::describe(candidates[best].candidate) +
                               ", the measured best of its family (local search)";
    for (const std::optional<std::size_t> next :
         {along(candidates, best, Axis::Streams, -1), along(candidates, best, Axis::Streams, +1),
          along(candidates, best, Axis::Chunks, -1), along(candidates, best, Axis::Chunks, +1),
          otherOrder(candidates, best)})
      if (next)
        add(chosen, candidates, *next, reason);
  }
  std::sort(chosen.begin(), chosen.end());
  return chosen;
}

} // namespace overlap::tune
