#include "tune/FinalRound.h"

#include "tune/CandidateSearch.h"

#include <algorithm>
#include <cassert>
#include <map>
#include <utility>

namespace overlap::tune {

std::vector<std::size_t> finalRoundCandidates(const std::vector<CandidateOutcome>& candidates,
                                              const WinnerChoice& first) {
  std::vector<std::size_t> chosen = first.withinNoise;
  const auto add = [&chosen](std::size_t index) {
    if (std::find(chosen.begin(), chosen.end(), index) == chosen.end())
      chosen.push_back(index);
  };
  for (const auto& [family, index] : fastestOfEachFamily(candidates))
    add(index);
  if (first.fastest) {
    std::vector<std::size_t> byMedian;
    for (std::size_t i = 0; i < candidates.size(); ++i)
      if (candidates[i].usable())
        byMedian.push_back(i);
    std::stable_sort(byMedian.begin(), byMedian.end(), [&](std::size_t a, std::size_t b) {
      return candidates[a].timing.median < candidates[b].timing.median;
    });
    const double bound = candidates[*first.fastest].timing.median * (1 + kFinalistMargin);
    for (std::size_t i : byMedian)
      if (chosen.size() < kMostFinalists && candidates[i].timing.median <= bound)
        add(i);
  }
  std::sort(chosen.begin(), chosen.end());
  if (chosen.size() < 2)
    chosen.clear();
  return chosen;
}

void runFinalRound(CandidateRunner& runner, std::vector<CandidateOutcome>& candidates,
                   const std::vector<std::size_t>& finalists, int rounds,
                   const std::function<void(std::size_t)>& beforeRun,
                   const std::function<void(std::size_t)>& afterRun, const TimingPlan& turn) {
  std::map<std::size_t, std::vector<double>> roundSamples;
  for (std::size_t i : finalists) {
    assert(i < candidates.size() && candidates[i].usable() && "finalists are usable candidates");
    roundSamples[i];
  }
  for (int round = 0; round < rounds; ++round) {
    for (std::size_t k = 0; k < finalists.size(); ++k) {
      const std::size_t i = finalists[(k + static_cast<std::size_t>(round)) % finalists.size()];
      CandidateOutcome& outcome = candidates[i];
      if (!outcome.usable())
        continue; // failed in an earlier round
      beforeRun(i);
      // Every finalist was verified when it was first timed.
      const RunResult result = runner.timeCandidate(outcome.candidate, turn);
      afterRun(i);
      const std::string error = !result.error.empty() ? result.error : result.timing.error;
      if (!error.empty() || result.timing.seconds.empty()) {
        outcome.verification = result.verification == Verification::WrongResult
                                   ? Verification::WrongResult
                                   : Verification::Failed;
        outcome.error = "in the final round: " + (error.empty() ? "no time" : error);
        outcome.timing = {};
        continue;
      }
      roundSamples[i].push_back(result.timing.stats.median);
    }
  }
  for (auto& [i, samples] : roundSamples) {
    CandidateOutcome& outcome = candidates[i];
    if (!outcome.usable())
      continue;
    if (outcome.screeningSamples.empty()) {
      outcome.screeningSamples = std::move(outcome.samples);
      outcome.samples = std::move(samples);
    } else { // more rounds of the same final round
      outcome.samples.insert(outcome.samples.end(), samples.begin(), samples.end());
    }
    outcome.timing = summarize(outcome.samples);
  }
}

} // namespace overlap::tune
