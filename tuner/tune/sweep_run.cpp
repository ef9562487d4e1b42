#include "tune/sweep_run.h"

#include "tune/size_sweep.h"

namespace overlap::tune {

std::optional<double> candidate_seconds(const TuningRun& run, std::size_t index) {
  const CandidateOutcome& c = run.candidates[index];
  if (c.usable())
    return c.timing.median;
  if (run.model_only && c.predicted_seconds && !c.predicted_is_lower_bound)
    return c.predicted_seconds;
  return std::nullopt;
}

std::optional<std::size_t> sweep_winner(const TuningRun& run) {
  if (run.winner || !run.model_only)
    return run.winner;
  std::optional<std::size_t> best;
  for (std::size_t i = 0; i < run.candidates.size(); ++i) {
    const std::optional<double> seconds = candidate_seconds(run, i);
    if (seconds && (!best || *seconds < *candidate_seconds(run, *best)))
      best = i;
  }
  return best;
}

std::vector<std::size_t> best_of_each_family(const TuningRun& run) {
  std::vector<std::size_t> best;
  for (Variant variant : {Variant::Explicit, Variant::Mapped, Variant::Streams, Variant::Hybrid})
    for (IssueOrder order : {IssueOrder::DepthFirst, IssueOrder::BreadthFirst}) {
      std::optional<std::size_t> fastest;
      for (std::size_t i = 0; i < run.candidates.size(); ++i) {
        const model::Candidate& c = run.candidates[i].candidate;
        const std::optional<double> seconds = candidate_seconds(run, i);
        // Explicit and Mapped are depth-first only: one family each.
        if (c.variant == variant && c.order == order && seconds &&
            (!fastest || *seconds < *candidate_seconds(run, *fastest)))
          fastest = i;
      }
      if (fastest)
        best.push_back(*fastest);
    }
  return best;
}

std::vector<Crossover> crossovers(const SweepRun& sweep) {
  std::vector<Crossover> found;
  std::optional<std::size_t> previous;
  for (std::size_t i = 0; i < sweep.points.size(); ++i) {
    const TuningRun& run = sweep.points[i].run;
    const std::optional<std::size_t> winner = sweep_winner(run);
    if (!winner)
      continue;
    if (previous) {
      const TuningRun& before = sweep.points[*previous].run;
      if (!same_family(before.candidates[*sweep_winner(before)].candidate,
                       run.candidates[*winner].candidate))
        found.push_back({*previous, i});
    }
    previous = i;
  }
  return found;
}

} // namespace overlap::tune
