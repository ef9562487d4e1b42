// The final round of a tuning (issue 21): the link of a shared machine drifts between seconds, so a
// candidate timed in a slow window loses to one timed in a fast window. After every candidate has
// been timed on its own, the finalists (every candidate within noise of the fastest, and the
// fastest of each other variant family) are timed again in turn, one repeat of each per round,
// the round's order rotated each time: a slow window then hits them all alike. The winner is
// picked from that round alone. CUDA-free: the tests script the timings.
#pragma once

#include "tune/CandidateRunner.h"
#include "tune/StableTiming.h"
#include "tune/TuningRun.h"
#include "tune/WinnerChoice.h"

#include <cstddef>
#include <functional>
#include <vector>

namespace overlap::tune {

// A candidate timed in a slow window of the link measured up to 1.4x its time in the rounds (an
// H100, a frame histogram's 0.09 ms call screened at 0.124 ms), so the final round also takes
// candidates that far behind the fastest, the fastest of them first, up to kMostFinalists in all.
inline constexpr double kFinalistMargin = 0.5;
inline constexpr std::size_t kMostFinalists = 8;

// The candidates to time again: those of `first` within noise, the fastest usable candidate of
// each variant family, then the others within kFinalistMargin of the fastest while there are
// fewer than kMostFinalists; ascending by index. Empty when fewer than two.
std::vector<std::size_t> finalRoundCandidates(const std::vector<CandidateOutcome>& candidates,
                                              const WinnerChoice& first);

// A finalist's turn in a round as the tuner takes it: one untimed call, then timed calls until
// their spread is within 2 %, they add up to 1 ms, or there are 9 (the turn's time is their
// median): one for a call of a millisecond or more, several for a short call, whose single times
// scatter by several percent. The untimed call: the call before it in the round is another
// candidate's, and a Mapped call right after the host had read and restored the arrays ran
// 1.2-1.6x slower on an H100 (frame histogram, 147-239 frames: 24 us screened, 28-48 us in the
// round), enough to hand a tie to Explicit.
inline constexpr TimingPlan kFinalRoundTurn{1, 1, 9, 0.02, 1e-3};

// Runs `rounds` interleaved rounds over `finalists` through `runner`
// (CandidateRunner::timeCandidate: each finalist was verified when first timed; a turn is timed by
// `turn`, and a round's time is the median of its repeats). `beforeRun` is called with each
// candidate's index before it runs (the tuner's watch). Afterwards a finalist's `screeningSamples`
// hold its first timing and `samples`/`timing` the final round's; a finalist that fails in the
// round is recorded as failed with the reason, as it would have been the first time. Called again
// over the same finalists, it adds rounds: their samples are appended.
void runFinalRound(CandidateRunner& runner, std::vector<CandidateOutcome>& candidates,
                   const std::vector<std::size_t>& finalists, int rounds,
                   const std::function<void(std::size_t)>& beforeRun,
                   const std::function<void(std::size_t)>& afterRun,
                   const TimingPlan& turn = kFinalRoundTurn);

} // namespace overlap::tune
