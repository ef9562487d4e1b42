// Picks the winner among the verified, timed candidates. Medians closer than the measurement noise
// are not a real difference: among those the simplest candidate wins (model::simpler: Explicit <
// Mapped < Streams < Hybrid, then fewer streams, then fewer chunks, ...), so repeated tunings on
// the same machine keep picking the same code instead of whichever happened to be lucky this time.
// After a final round (FinalRound.h) the finalists are compared round by round instead: the fastest
// has the smallest median of its time over each round's fastest, and a tie is a median per-round
// ratio, and a ratio of the rounds' medians, within the noise or within twice that ratio's standard
// error.
#pragma once

#include "tune/TuningRun.h"

#include <optional>
#include <string>
#include <vector>

namespace overlap::tune {

struct NoiseOptions {
  // Medians within this relative difference of the fastest are ties. A candidate's own spread
  // (interquartile range over median) widens it when the repeats disagree more than that; for two
  // finalists of the final round, the standard error of their per-round ratios' median does.
  double relativeNoise = 0.02;
};

struct WinnerChoice {
  std::optional<std::size_t> winner;    // nullopt: no candidate was usable
  std::optional<std::size_t> fastest;   // the smallest median
  std::vector<std::size_t> withinNoise; // ties with the fastest, the fastest included
  // False when the winner ties with the fastest only because the rounds leave the difference
  // uncertain (slower by more than the noise, within twice the standard error): more rounds
  // settle it.
  bool settled = true;
  std::string reason; // one sentence for the reports
};

WinnerChoice chooseWinner(const std::vector<CandidateOutcome>& candidates,
                          const NoiseOptions& options);

// A choice still not settled once the final round has run all the rounds it may: the simpler
// winner's rounds put it slower than the fastest by more than the noise, only not surely, so the
// fastest is kept (the best estimate), not the simpler.
void keepFastest(WinnerChoice& choice, const std::vector<CandidateOutcome>& candidates);

} // namespace overlap::tune
