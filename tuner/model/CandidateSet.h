// The candidates the tuner could run for one call, their predicted times, and the pruned set it
// does run: paper 001 §VI says the estimates "may be used to limit the search space for
// (auto-)tuning the number of streams"; this is where that happens.
#pragma once

#include "model/PerformanceModel.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace overlap::model {

// The tolerance pruning can afford. A candidate predicted more than `t` slower than one the tuner
// runs is skipped; with every prediction within `modelError` of its measurement (relative), the
// skipped one then cannot measure more than `acceptableLoss` faster than the one run when
// t = (1 + e) / ((1 − e)(1 + M)) − 1 (0 when negative: run only the predicted best).
constexpr double pruningTolerance(double modelError, double acceptableLoss) {
  const double t = (1 + modelError) / ((1 - modelError) * (1 + acceptableLoss)) - 1;
  return t > 0 ? t : 0;
}

// How far the pick may be from the best candidate: issue 5's target.
constexpr double kAcceptableLoss = 0.03;
// The model's error bounds the defaults rely on, from the H200 check
// (bench/results/model-check-2026-11-21.md): between variants (different code paths, e.g. Mapped
// against Streams) every prediction of saxpy and matmul's Streams and Hybrid was within 2.1 %;
// along one variant's stream-count curve the errors of neighbouring counts nearly cancel (saxpy:
// the ratios to the curve's best within 0.7 % of the measured ratios).
constexpr double kModelErrorBetweenVariants = 0.02;
constexpr double kModelErrorAlongStreamCounts = 0.01;

struct SearchOptions {
  // Stream counts considered: powers of two and divisors of the partition extent, up to this
  // bound and never above the extent.
  int maxStreams = 64;
  // Pruning keeps a candidate when it is predicted within `tolerance` of the predicted best AND
  // within `streamTolerance` of the best stream count of its own variant and issue order. The
  // defaults follow from kAcceptableLoss and the model's error bounds: 1.05 % between variants,
  // 0 along a curve (only its predicted best runs).
  double tolerance = pruningTolerance(kModelErrorBetweenVariants, kAcceptableLoss);
  double streamTolerance = pruningTolerance(kModelErrorAlongStreamCounts, kAcceptableLoss);
  // If positive, at most this many of the kept candidates (best first) besides Explicit.
  int maxKept = 0;
  // Streams and Hybrid also cut the call into 2, 4, ... up to this many chunks per stream (more
  // chunks on few streams shorten the pipeline's fill and drain); 1: one chunk per stream only.
  int maxChunksPerStream = 8;
  // ...but only while each chunk still moves at least this many bytes over the link (both
  // directions together): below it the per-copy latency and the launches dominate.
  double minChunkBytes = 1 << 20;
  // GPUs a call may be split across: above 1, every candidate also comes split across this
  // many (Candidate::devices), unless the call has reduction arrays, which cannot be split.
  int devices = 1;
  // Every Streams and Hybrid candidate also comes as its graph form (Candidate::graph) where the
  // call's arrays are pinned and fit the device (on pageable or paged arrays the graph form runs
  // the plain synchronous call). Off by default: the graph form pays for a capture whenever a call
  // brings arrays or scalars its cache does not hold, so it suits calls repeated in a loop, which
  // the tuner cannot see (`overlap-tune --graphs` says so).
  bool graphs = false;
};

// Powers of two and divisors of `extent`, ascending, from 1 up to min(bound, extent); with an
// unknown extent (≤ 0) the powers of two up to `bound`.
std::vector<int> candidateStreamCounts(long long extent, int bound);

// The chunk counts proposed besides one per stream (Candidate::chunks 0) for `streams` streams:
// 2N, 4N, ... up to options.maxChunksPerStream·N, only where P is known, never more than
// ceil(P / G) and each chunk moving at least options.minChunkBytes; out of core only those
// whose ring fits and that differ from the chunks one per stream resolves to (the fewest whose
// ring fits). Ascending.
std::vector<int> candidateChunkCounts(const Workload& workload, Variant variant, int streams,
                                      const SearchOptions& options);

// Explicit, Mapped, then Streams and Hybrid for every stream count, each with one chunk per
// stream and then with the candidateChunkCounts, in both issue orders where the model says they
// differ for its stream count (else depth-first only). Hybrid only when
// the call has pure outputs: without them (in-out arrays are copied back as in Streams) Hybrid
// runs exactly what Streams runs. A Streams or Hybrid candidate that cannot run out of core
// (fitsDeviceMemory) is left out; Explicit never is (it is the reference), but out of core the
// model does not predict it. On pageable memory every candidate but Explicit registers per call
// (PageableMode::Register), and every Streams and Hybrid candidate comes twice: registered and
// staged (PageableMode::Stage); on pinned memory in core, twice too: plain and as a graph
// (SearchOptions::graphs).
std::vector<Candidate> enumerateCandidates(const PerformanceModel& model,
                                           const HardwareProfile& profile, const Workload& workload,
                                           const SearchOptions& options);

// Why enumerateCandidates leaves out or cannot predict candidates that cannot run out of core,
// one sentence per variant; empty when the call fits the device.
std::vector<std::string> deviceMemoryNotes(const Workload& workload, const SearchOptions& options);

struct PredictedCandidate {
  Candidate candidate;
  std::optional<double> seconds; // nullopt: the model does not describe it (then it is kept)
  bool kept = false;
  // `seconds` only bounds the time from below (mappedPredictionIsLowerBound): such a row is
  // kept when it could win but never prunes the others. Last, so {candidate, seconds, kept}
  // initializers keep their meaning.
  bool lower_bound = false;
};

struct Prediction {
  std::vector<PredictedCandidate> rows;   // in enumeration order
  std::optional<std::size_t> best;        // index into rows of the predicted optimum
  std::optional<std::size_t> explicitRow; // index of Explicit, the reference
  double tolerance = 0;
  double streamTolerance = 0;
  // What completeProfile assumed for parameters the profile does not know.
  std::vector<std::string> assumptions;
  // Candidates that cannot run within the device-memory budget (deviceMemoryNotes).
  std::vector<std::string> excluded;

  std::vector<Candidate> kept() const;
  // The predicted best of one variant, if any of its rows has a prediction.
  std::optional<std::size_t> bestOf(Variant variant) const;
};

// Sets `prediction`'s best, Explicit and kept rows from its rows' predicted times, as described
// for predict() below. Separate so that the rows of a committed tuning report can be pruned again
// under a changed rule without the workload that produced them. Mapped's predictions are lower
// bounds where mappedIsLowerBound, and splits' where splitsAreLowerBounds.
void selectPrunedSet(Prediction& prediction, bool mappedIsLowerBound, bool splitsAreLowerBounds,
                     const SearchOptions& options);

// Predicts every candidate on the completed profile (ProfileCompletion.h) and marks the pruned
// set: the candidates within both tolerances (see SearchOptions), Explicit always, and every
// candidate the model cannot predict. A Mapped prediction that is only a lower bound
// (mappedPredictionIsLowerBound) is kept when within `tolerance` of the best of the others,
// but is neither the predicted best nor the reference the others are measured against. Among equal
// predictions the simpler candidate is the best (Explicit < Mapped < Streams < Hybrid, fewer
// streams, fewer chunks, depth-first), as the tuner prefers it too. Chunk counts join their
// variant and order's curve: streamTolerance compares a candidate with the best prediction over
// every stream and chunk count of its variant and order.
Prediction predict(const PerformanceModel& model, const HardwareProfile& profile,
                   const Workload& workload, const SearchOptions& options = {});

} // namespace overlap::model
