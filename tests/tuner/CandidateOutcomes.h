// Candidates as the tuner records them once they ran: for the CPU tests of the winner choice, the
// final round, the search and the reports.
#pragma once

#include "tune/TuningRun.h"

#include <string>
#include <utility>
#include <vector>

namespace overlap::tune::testing {

// `c` ran and verified (Explicit as the reference), `samples` its timed repeats.
inline void recordSamples(CandidateOutcome& c, std::vector<double> samples) {
  c.run = true;
  c.verification =
      c.candidate == model::Candidate{} ? Verification::Reference : Verification::Passed;
  c.samples = std::move(samples);
  c.timing = summarize(c.samples);
}

inline CandidateOutcome measured(const model::Candidate& candidate, std::vector<double> samples) {
  CandidateOutcome c;
  c.candidate = candidate;
  recordSamples(c, std::move(samples));
  return c;
}

// `candidate` as recorded after a run that ended in `verification` (NotRun: it never ran).
inline CandidateOutcome outcomeOf(const model::Candidate& candidate, Verification verification,
                                  std::vector<double> samples, std::string error = {}) {
  CandidateOutcome c;
  c.candidate = candidate;
  c.run = verification != Verification::NotRun;
  c.verification = verification;
  c.error = std::move(error);
  c.samples = std::move(samples);
  c.timing = summarize(c.samples);
  return c;
}

} // namespace overlap::tune::testing
