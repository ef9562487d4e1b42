#include "tune/SweepRun.h"

#include "tune/SizeSweep.h"

namespace overlap::tune {

std::optional<double> candidateSeconds(const TuningRun& run, std::size_t index) {
  const CandidateOutcome& c = run.candidates[index];
  if (c.usable())
    return c.timing.median;
  if (run.modelOnly && c.predictedSeconds && !c.predictedIsLowerBound)
    return c.predictedSeconds;
  return std::nullopt;
}

std::optional<std::size_t> sweepWinner(const TuningRun& run) {
  if (run.winner || !run.modelOnly)
    return run.winner;
  std::optional<std::size_t> best;
  for (std::size_t i = 0; i < run.candidates.size(); ++i) {
    const std::optional<double> seconds = candidateSeconds(run, i);
    if (seconds && (!best || *seconds < *candidateSeconds(run, *best)))
      best = i;
  }
  return best;
}

std::vector<std::size_t> bestOfEachFamily(const TuningRun& run) {
  std::vector<std::size_t> best;
  for (Variant variant : {Variant::Explicit, Variant::Mapped, Variant::Streams, Variant::Hybrid})
    for (IssueOrder order : {IssueOrder::DepthFirst, IssueOrder::BreadthFirst}) {
      std::optional<std::size_t> fastest;
      for (std::size_t i = 0; i < run.candidates.size(); ++i) {
        const model::Candidate& c = run.candidates[i].candidate;
        const std::optional<double> seconds = candidateSeconds(run, i);
        // Explicit and Mapped are depth-first only: one family each.
        if (c.variant == variant && c.order == order && seconds &&
            (!fastest || *seconds < *candidateSeconds(run, *fastest)))
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
    const std::optional<std::size_t> winner = sweepWinner(run);
    if (!winner)
      continue;
    if (previous) {
      const TuningRun& before = sweep.points[*previous].run;
      if (!sameFamily(before.candidates[*sweepWinner(before)].candidate,
                      run.candidates[*winner].candidate))
        found.push_back({*previous, i});
    }
    previous = i;
  }
  return found;
}

} // namespace overlap::tune
