#include "tune/candidate_search.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <utility>

namespace overlap::tune {
namespace {

Family family_of(const model::Candidate& c) {
  return {c.variant, c.pageable};
}

bool is_explicit(const CandidateOutcome& c) {
  return c.candidate == model::Candidate{};
}

void add(std::vector<std::size_t>& chosen, std::vector<CandidateOutcome>& candidates, std::size_t i,
         const std::string& reason) {
  if (candidates[i].run || is_explicit(candidates[i]) ||
      std::find(chosen.begin(), chosen.end(), i) != chosen.end())
    return;
  candidates[i].run_reason = reason;
  chosen.push_back(i);
}

// The neighbour of `from` along its variant and order's stream counts: the next smaller
// (direction -1) or larger (+1) count enumerated.
std::optional<std::size_t> along_curve(const std::vector<CandidateOutcome>& candidates,
                                       std::size_t from, int direction) {
  const model::Candidate& c = candidates[from].candidate;
  std::optional<std::size_t> best;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const model::Candidate& other = candidates[i].candidate;
    model::Candidate same_curve = other;
    same_curve.streams = c.streams;
    if (same_curve != c || (other.streams - c.streams) * direction <= 0)
      continue;
    if (!best || std::abs(other.streams - c.streams) <
                     std::abs(candidates[*best].candidate.streams - c.streams))
      best = i;
  }
  return best;
}

std::optional<std::size_t> other_order(const std::vector<CandidateOutcome>& candidates,
                                       std::size_t from) {
  const model::Candidate& c = candidates[from].candidate;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const model::Candidate& other = candidates[i].candidate;
    model::Candidate same_but_order = other;
    same_but_order.order = c.order;
    if (same_but_order == c && other.order != c.order)
      return i;
  }
  return std::nullopt;
}

} // namespace

std::vector<std::size_t> seed_candidates(std::vector<CandidateOutcome>& candidates) {
  std::vector<std::size_t> chosen;
  for (std::size_t i = 0; i < candidates.size(); ++i)
    if (candidates[i].kept_by_model)
      add(chosen, candidates, i, "kept by the model");
  std::map<Family, std::size_t> best_predicted;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    if (!candidates[i].predicted_seconds)
      continue;
    const auto [it, inserted] = best_predicted.emplace(family_of(candidates[i].candidate), i);
    if (!inserted && *candidates[i].predicted_seconds < *candidates[it->second].predicted_seconds)
      it->second = i;
  }
  for (const auto& [family, i] : best_predicted)
    add(chosen, candidates, i,
        std::string("the best predicted of ") + model::to_string(family.first) +
            (family.second == PageableMode::Default
                 ? std::string()
                 : std::string(" (") + overlap::to_string(family.second) + ")") +
            " (every family is measured)");
  std::sort(chosen.begin(), chosen.end());
  return chosen;
}

double leading_margin(const std::vector<CandidateOutcome>& candidates, double noise) {
  std::vector<double> errors;
  for (const CandidateOutcome& c : candidates)
    if (c.usable() && c.predicted_seconds && c.timing.median > 0)
      errors.push_back(std::fabs(*c.predicted_seconds - c.timing.median) / c.timing.median);
  double margin = noise;
  if (!errors.empty()) {
    std::nth_element(errors.begin(), errors.begin() + errors.size() / 2, errors.end());
    margin = std::max(margin, errors[errors.size() / 2]);
  }
  return std::min(margin, 0.5);
}

std::map<Family, std::size_t>
fastest_of_each_family(const std::vector<CandidateOutcome>& candidates) {
  std::map<Family, std::size_t> fastest;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    if (!candidates[i].usable())
      continue;
    const auto [it, inserted] = fastest.emplace(family_of(candidates[i].candidate), i);
    if (!inserted && candidates[i].timing.median < candidates[it->second].timing.median)
      it->second = i;
  }
  return fastest;
}

std::vector<std::size_t> next_neighbours(std::vector<CandidateOutcome>& candidates, double noise) {
  const std::map<Family, std::size_t> best_measured = fastest_of_each_family(candidates);
  std::optional<double> fastest;
  for (const auto& [family, i] : best_measured)
    if (!fastest || candidates[i].timing.median < *fastest)
      fastest = candidates[i].timing.median;
  std::vector<std::size_t> chosen;
  if (!fastest)
    return chosen;
  const double margin = leading_margin(candidates, noise);
  for (const auto& [family, best] : best_measured) {
    if (family.first != Variant::Streams && family.first != Variant::Hybrid)
      continue; // no stream count to search
    if (candidates[best].timing.median > *fastest * (1 + margin))
      continue;
    const std::string reason = "a neighbour of " + model::describe(candidates[best].candidate) +
                               ", the measured best of its family (local search)";
    for (const std::optional<std::size_t> next :
         {along_curve(candidates, best, -1), along_curve(candidates, best, +1),
          other_order(candidates, best)})
      if (next)
        add(chosen, candidates, *next, reason);
  }
  std::sort(chosen.begin(), chosen.end());
  return chosen;
}

} // namespace overlap::tune
