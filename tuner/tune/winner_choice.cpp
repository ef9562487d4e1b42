#include "tune/winner_choice.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
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

// Rounds fewer than this are too few to compare two candidates by.
constexpr std::size_t kFewestRounds = 3;

// A finalist's samples are the final round's, one per round in round order (final_round.h).
bool has_rounds(const CandidateOutcome& c) {
  return !c.screening_samples.empty() && c.samples.size() >= kFewestRounds;
}

// Two finalists' times taken round by round (final_round.h): their ratios, one per round. The
// link's drift between rounds hits both alike, so the ratios scatter less than either's samples.
std::optional<SampleStats> round_ratios(const CandidateOutcome& a, const CandidateOutcome& b) {
  if (!has_rounds(a) || !has_rounds(b) || a.samples.size() != b.samples.size())
    return std::nullopt;
  std::vector<double> ratios;
  for (std::size_t k = 0; k < a.samples.size(); ++k) {
    if (!(b.samples[k] > 0))
      return std::nullopt;
    ratios.push_back(a.samples[k] / b.samples[k]);
  }
  return summarize(ratios);
}

// When every usable candidate was timed in the same final rounds: each one's median over the
// rounds of its time against the round's fastest, so that a slow stretch of rounds (a host
// disturbance hitting every finalist alike) does not decide which is fastest. Empty otherwise.
std::vector<double> round_scores(const std::vector<CandidateOutcome>& candidates) {
  std::size_t rounds = 0;
  for (const CandidateOutcome& c : candidates) {
    if (!c.usable())
      continue;
    if (!has_rounds(c) || (rounds != 0 && c.samples.size() != rounds))
      return {};
    rounds = c.samples.size();
  }
  std::vector<double> fastest_of_round(rounds, 0);
  for (std::size_t r = 0; r < rounds; ++r)
    for (const CandidateOutcome& c : candidates)
      if (c.usable() && (fastest_of_round[r] == 0 || c.samples[r] < fastest_of_round[r]))
        fastest_of_round[r] = c.samples[r];
  std::vector<double> scores(candidates.size(), 0);
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    if (!candidates[i].usable())
      continue;
    std::vector<double> relative;
    for (std::size_t r = 0; r < rounds; ++r)
      relative.push_back(fastest_of_round[r] > 0 ? candidates[i].samples[r] / fastest_of_round[r]
                                                 : 1);
    scores[i] = summarize(relative).median;
  }
  return scores;
}

// Twice the standard error of a median over `stats.count` samples, relative to it: the IQR of a
// normal sample is 1.349 sigma, and its median's standard error 1.2533 sigma / sqrt(count).
// Rounds that disagree widen it; more rounds narrow it.
double median_uncertainty(const SampleStats& stats) {
  if (!(stats.median > 0) || stats.count < 1)
    return 0;
  const double sigma = stats.iqr() / 1.349;
  return 2 * 1.2533 * sigma / std::sqrt(static_cast<double>(stats.count)) / stats.median;
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
  const std::vector<double> scores = round_scores(candidates);
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    if (!candidates[i].usable())
      continue;
    const auto better = [&](std::size_t other) {
      const double a = scores.empty() ? candidates[i].timing.median : scores[i];
      const double b = scores.empty() ? candidates[other].timing.median : scores[other];
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
  std::vector<std::size_t> unsettled; // ties only within the rounds' uncertainty
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    if (!candidates[i].usable())
      continue;
    bool within = false;
    if (const std::optional<SampleStats> ratio = round_ratios(candidates[i], fastest)) {
      within = ratio->median <= 1 + std::max(options.relative_noise, median_uncertainty(*ratio));
      if (within && ratio->median > 1 + options.relative_noise)
        unsettled.push_back(i);
    } else {
      const double noise = std::max({options.relative_noise, relative_spread(fastest.timing),
                                     relative_spread(candidates[i].timing)});
      within = candidates[i].timing.median <= fastest.timing.median * (1 + noise);
    }
    if (within)
      choice.within_noise.push_back(i);
  }
  choice.winner = choice.within_noise.front();
  for (std::size_t i : choice.within_noise)
    if (simpler(candidates[i].candidate, candidates[*choice.winner].candidate))
      choice.winner = i;
  choice.settled = std::find(unsettled.begin(), unsettled.end(), *choice.winner) == unsettled.end();

  const std::string fastest_name = model::describe(fastest.candidate);
  if (*choice.winner == *choice.fastest) {
    choice.reason = fastest_name + (scores.empty() ? " has the smallest median"
                                                   : " is the fastest round by round");
    if (choice.within_noise.size() > 1)
      choice.reason += " and is the simplest of the " + std::to_string(choice.within_noise.size()) +
                       " candidates within noise";
  } else {
    const CandidateOutcome& winner = candidates[*choice.winner];
    const std::optional<SampleStats> ratio = round_ratios(winner, fastest);
    const double slower =
        ratio ? ratio->median - 1 : winner.timing.median / fastest.timing.median - 1;
    choice.reason = model::describe(winner.candidate) + " is within measurement noise (" +
                    percent(slower) + " slower) of " + fastest_name +
                    " and simpler, so it is preferred";
  }
  return choice;
}

} // namespace overlap::tune
