#include "tune/winner_choice.h"

#include <algorithm>
#include <cstdio>
#include <tuple>

namespace overlap::tune {
namespace {

int rank(Variant variant) {
  switch (variant) {
  case Variant::Explicit:
    return 0;
  case Variant::Mapped:
    return 1;
  case Variant::Streams:
    return 2;
  case Variant::Hybrid:
    return 3;
  }
  return 4;
}

double relative_spread(const SampleStats& stats) {
  return stats.median > 0 ? stats.iqr() / stats.median : 0;
}

std::string percent(double fraction) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f %%", fraction * 100);
  return text;
}

} // namespace

bool simpler(const model::Candidate& a, const model::Candidate& b) {
  const bool a_depth = a.order == IssueOrder::DepthFirst;
  const bool b_depth = b.order == IssueOrder::DepthFirst;
  return std::make_tuple(rank(a.variant), a.streams, !a_depth) <
         std::make_tuple(rank(b.variant), b.streams, !b_depth);
}

WinnerChoice choose_winner(const std::vector<CandidateOutcome>& candidates,
                           const NoiseOptions& options) {
  WinnerChoice choice;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    if (!candidates[i].usable())
      continue;
    const auto better = [&](std::size_t other) {
      const double a = candidates[i].timing.median;
      const double b = candidates[other].timing.median;
      return a < b || (a == b && simpler(candidates[i].candidate, candidates[other].candidate));
    };
    if (!choice.fastest || better(*choice.fastest))
      choice.fastest = i;
  }
  if (!choice.fastest) {
    choice.reason = "no candidate ran and verified";
    return choice;
  }
  const CandidateOutcome& fastest = candidates[*choice.fastest];
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    if (!candidates[i].usable())
      continue;
    const double noise = std::max({options.relative_noise, relative_spread(fastest.timing),
                                   relative_spread(candidates[i].timing)});
    if (candidates[i].timing.median <= fastest.timing.median * (1 + noise))
      choice.within_noise.push_back(i);
  }
  choice.winner = choice.within_noise.front();
  for (std::size_t i : choice.within_noise)
    if (simpler(candidates[i].candidate, candidates[*choice.winner].candidate))
      choice.winner = i;

  const std::string fastest_name = model::describe(fastest.candidate);
  if (*choice.winner == *choice.fastest) {
    choice.reason = fastest_name + " has the smallest median";
    if (choice.within_noise.size() > 1)
      choice.reason += " and is the simplest of the " + std::to_string(choice.within_noise.size()) +
                       " candidates within noise";
  } else {
    const CandidateOutcome& winner = candidates[*choice.winner];
    choice.reason = model::describe(winner.candidate) + " is within measurement noise (" +
                    percent(winner.timing.median / fastest.timing.median - 1) + " slower) of " +
                    fastest_name + " and simpler, so it is preferred";
  }
  return choice;
}

} // namespace overlap::tune
