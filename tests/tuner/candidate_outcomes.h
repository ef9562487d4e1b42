// Candidates as the tuner records them once they ran and verified: for the CPU tests of the
// winner choice, the final round and the search.
#pragma once

#include "tune/tuning_run.h"

#include <utility>
#include <vector>

namespace overlap::tune::testing {

// `c` ran and verified (Explicit as the reference), `samples` its timed repeats.
inline void record_samples(CandidateOutcome& c, std::vector<double> samples) {
  c.run = true;
  c.verification =
      c.candidate == model::Candidate{} ? Verification::Reference : Verification::Passed;
  c.samples = std::move(samples);
  c.timing = summarize(c.samples);
}

inline CandidateOutcome measured(const model::Candidate& candidate, std::vector<double> samples) {
  CandidateOutcome c;
  c.candidate = candidate;
  record_samples(c, std::move(samples));
  return c;
}

} // namespace overlap::tune::testing
