#include "tune/WinnerChoice.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <optional>

namespace overlap::tune {
namespace {

double relativeSpread(const SampleStats& stats) {
  return stats.median > 0 ? stats.iqr() / stats.median : 0;
}

// Rounds fewer than this are too few to compare two candidates by.
constexpr std::size_t kFewestRounds = 3;

// A finalist's samples are the final round's, one per round in round order (FinalRound.h).
bool hasRounds(const CandidateOutcome& c) {
  return !c.screeningSamples.empty() && c.samples.size() >= kFewestRounds;
}

// Two finalists' times taken round by round (FinalRound.h): their ratios, one per round. The
// link's drift between rounds hits both alike, so the ratios scatter less than either's samples.
std::optional<SampleStats> roundRatios(const CandidateOutcome& a, const CandidateOutcome& b) {
  if (!hasRounds(a) || !hasRounds(b) || a.samples.size() != b.samples.size())
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
std::vector<double> roundScores(const std::vector<CandidateOutcome>& candidates) {
  std::size_t rounds = 0;
  for (const CandidateOutcome& c : candidates) {
    if (!c.usable())
      continue;
    if (!hasRounds(c) || (rounds != 0 && c.samples.size() != rounds))
      return {};
    rounds = c.samples.size();
  }
  std::vector<double> fastestOfRound(rounds, 0);
  for (std::size_t r = 0; r < rounds; ++r)
    for (const CandidateOutcome& c : candidates)
      if (c.usable() && (fastestOfRound[r] == 0 || c.samples[r] < fastestOfRound[r]))
        fastestOfRound[r] = c.samples[r];
  std::vector<double> scores(candidates.size(), 0);
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    if (!candidates[i].usable())
      continue;
    std::vector<double> relative;
    for (std::size_t r = 0; r < rounds; ++r)
      relative.push_back(fastestOfRound[r] > 0 ? candidates[i].samples[r] / fastestOfRound[r] : 1);
    scores[i] = summarize(relative).median;
  }
  return scores;
}

// Twice the standard error of a median over `stats.count` samples, relative to it: the IQR of a
// normal sample is 1.349 sigma, and its median's standard error 1.2533 sigma / sqrt(count).
// Rounds that disagree widen it; more rounds narrow it.
double medianUncertainty(const SampleStats& stats) {
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

WinnerChoice chooseWinner(const std::vector<CandidateOutcome>& candidates,
                          const NoiseOptions& options) {
  WinnerChoice choice;
  const std::vector<double> scores = roundScores(candidates);
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    if (!candidates[i].usable())
      continue;
    const auto better = [&](std::size_t other) {
      const double a = scores.empty() ? candidates[i].timing.median : scores[i];
      const double b = scores.empty() ? candidates[other].timing.median : scores[other];
      return a < b ||
             (a == b && model::simpler(candidates[i].candidate, candidates[other].candidate));
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
    if (const std::optional<SampleStats> ratio = roundRatios(candidates[i], fastest)) {
      // Both the rounds' ratios and the medians the reports show: a candidate whose rounds tie
      // but whose median is further behind is not picked for simplicity.
      const double slower =
          std::max(ratio->median, candidates[i].timing.median / fastest.timing.median);
      within = slower <= 1 + std::max(options.relativeNoise, medianUncertainty(*ratio));
      if (within && slower > 1 + options.relativeNoise)
        unsettled.push_back(i);
    } else {
      const double noise = std::max({options.relativeNoise, relativeSpread(fastest.timing),
                                     relativeSpread(candidates[i].timing)});
      within = candidates[i].timing.median <= fastest.timing.median * (1 + noise);
    }
    if (within)
      choice.withinNoise.push_back(i);
  }
  choice.winner = choice.withinNoise.front();
  for (std::size_t i : choice.withinNoise)
    if (model::simpler(candidates[i].candidate, candidates[*choice.winner].candidate))
      choice.winner = i;
  choice.settled = std::find(unsettled.begin(), unsettled.end(), *choice.winner) == unsettled.end();

  const std::string fastestName = model::describe(fastest.candidate);
  if (*choice.winner == *choice.fastest) {
    choice.reason = fastestName + (scores.empty() ? " has the smallest median"
                                                  : " is the fastest round by round");
    if (choice.withinNoise.size() > 1)
      choice.reason += " and is the simplest of the " + std::to_string(choice.withinNoise.size()) +
                       " candidates within noise";
  } else {
    const CandidateOutcome& winner = candidates[*choice.winner];
    const std::optional<SampleStats> ratio = roundRatios(winner, fastest);
    const double slower =
        ratio ? ratio->median - 1 : winner.timing.median / fastest.timing.median - 1;
    choice.reason = model::describe(winner.candidate) + " is within measurement noise (" +
                    percent(slower) + " slower) of " + fastestName +
                    " and simpler, so it is preferred";
  }
  return choice;
}

void keepFastest(WinnerChoice& choice, const std::vector<CandidateOutcome>& candidates) {
  assert(choice.winner && choice.fastest && "a choice among usable candidates");
  if (choice.settled || *choice.winner == *choice.fastest)
    return;
  choice.reason = model::describe(candidates[*choice.fastest].candidate) +
                  " is the fastest round by round; " +
                  model::describe(candidates[*choice.winner].candidate) +
                  ", simpler, tied it only within the rounds' uncertainty (slower by more than "
                  "the noise), so the fastest is kept";
  choice.winner = choice.fastest;
  choice.settled = true;
}

} // namespace overlap::tune
