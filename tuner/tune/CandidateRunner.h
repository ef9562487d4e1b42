// What the tuner needs from whatever runs the candidates: the GPU runner over a generated
// descriptor (DescriptorRunner.h) in the tool, fake timings in the tests.
#pragma once

#include "model/PerformanceModel.h"
#include "tune/StableTiming.h"
#include "tune/TuningRun.h"

#include <optional>
#include <string>

namespace overlap::tune {

struct RunResult {
  Verification verification = Verification::NotRun;
  std::string error; // why it failed or differs
  TimedSamples timing;
  // runReference only: the candidate whose outputs are the reference and whose timing this is,
  // when Explicit could not run the call (over the device-memory budget), and why it could not.
  std::optional<model::Candidate> substitute;
  std::string explicitError;
  // runReference on pageable memory: the reference timed again with its arrays page-locked.
  // Pageable copies run at the host memory's speed, which drifts and which the profile prices far
  // less surely than the link, so the kernel's time is inferred from this timing instead.
  std::optional<TimedSamples> pageLockedTiming;
};

class CandidateRunner {
public:
  virtual ~CandidateRunner() = default;
  // Runs Explicit on fresh random inputs, keeps its outputs as the reference, then times it (on
  // pageable memory also page-locked: RunResult::pageLockedTiming).
  // Verification is Reference on success, Failed otherwise. Where Explicit does not fit the
  // device-memory budget, Streams on one stream, which runs out of core, makes the reference
  // instead (RunResult::substitute).
  virtual RunResult runReference(const TimingPlan& plan) = 0;
  // Runs the candidate once on the reference's inputs and compares its outputs; only a candidate
  // that passes is timed.
  virtual RunResult runCandidate(const model::Candidate& candidate, const TimingPlan& plan) = 0;
  // Times a candidate that runCandidate has verified, without verifying it again: the final
  // round's turns, where a verification (every array restored and compared on the host) would
  // cost more than the timed call. By default it verifies anyway.
  virtual RunResult timeCandidate(const model::Candidate& candidate, const TimingPlan& plan) {
    return runCandidate(candidate, plan);
  }
};

} // namespace overlap::tune
