// The candidates the tuner could run for one call, their predicted times, and the pruned set it
// does run: paper 001 §VI says the estimates "may be used to limit the search space for
// (auto-)tuning the number of streams"; this is where that happens.
#pragma once

#include "model/performance_model.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace overlap::model {

struct SearchOptions {
  // Stream counts considered: powers of two and divisors of the partition extent, up to this
  // bound and never above the extent.
  int max_streams = 64;
  // Pruning keeps a candidate when it is predicted within `tolerance` of the predicted best AND
  // within `stream_tolerance` of the best stream count of its own variant and issue order. The
  // two differ because the model's errors do: between different code paths (Mapped against
  // Streams) they are of the order of the model's accuracy target (median 5 %), so 10 % keeps a
  // variant the model misjudges by that much either way; along one variant's stream-count curve
  // the systematic errors (link G, t_E) shift all points alike, so the curve's shape is trusted
  // more and only counts within 3 % of its best are run.
  double tolerance = 0.10;
  double stream_tolerance = 0.03;
  // If positive, at most this many of the kept candidates (best first) besides Explicit.
  int max_kept = 0;
};

// Powers of two and divisors of `extent`, ascending, from 1 up to min(bound, extent); with an
// unknown extent (≤ 0) the powers of two up to `bound`.
std::vector<int> candidate_stream_counts(long long extent, int bound);

// Explicit, Mapped, then Streams and Hybrid for every stream count, in both issue orders where the
// model says they differ (else depth-first only). Hybrid only when the call has pure outputs:
// without them (in-out arrays are copied back as in Streams) Hybrid runs exactly what Streams
// runs.
std::vector<Candidate> enumerate_candidates(const PerformanceModel& model,
                                            const HardwareProfile& profile,
                                            const Workload& workload, const SearchOptions& options);

struct PredictedCandidate {
  Candidate candidate;
  std::optional<double> seconds; // nullopt: the model does not describe it (then it is kept)
  bool kept = false;
};

struct Prediction {
  std::vector<PredictedCandidate> rows;    // in enumeration order
  std::optional<std::size_t> best;         // index into rows of the predicted optimum
  std::optional<std::size_t> explicit_row; // index of Explicit, the reference
  double tolerance = 0;
  double stream_tolerance = 0;
  // What complete_profile assumed for parameters the profile does not know.
  std::vector<std::string> assumptions;

  std::vector<Candidate> kept() const;
  // The predicted best of one variant, if any of its rows has a prediction.
  std::optional<std::size_t> best_of(Variant variant) const;
};

// Predicts every candidate on the completed profile (profile_completion.h) and marks the pruned
// set: the candidates within both tolerances (see SearchOptions), Explicit always, and every
// candidate the model cannot predict. Among equal
// predictions the simpler candidate is the best (Explicit < Mapped < Streams < Hybrid, fewer
// streams, depth-first), as the tuner prefers it too.
Prediction predict(const PerformanceModel& model, const HardwareProfile& profile,
                   const Workload& workload, const SearchOptions& options = {});

} // namespace overlap::model
