// Fake runs for the tuner's CPU tests: a CandidateRunner whose times come from a function of the
// candidate, and which can be told to fail or to return wrong results for chosen candidates.
#pragma once

#include "model/CandidateSet.h"
#include "tune/CandidateRunner.h"
#include "tune/Tuner.h"

#include <functional>
#include <optional>
#include <vector>

namespace overlap::tune::testing {

class FakeRunner final : public CandidateRunner {
public:
  using Seconds = std::function<double(const model::Candidate&)>;
  explicit FakeRunner(Seconds seconds) : seconds_(std::move(seconds)) {}

  std::vector<model::Candidate> failing;
  std::vector<model::Candidate> wrong;
  std::vector<model::Candidate> ran; // every runCandidate call, in order
  int referenceRuns = 0;
  std::optional<double> pageLockedSeconds; // the reference's time with its arrays page-locked

  RunResult runReference(const TimingPlan& plan) override {
    ++referenceRuns;
    RunResult result = timed(model::Candidate{}, Verification::Reference, plan);
    if (pageLockedSeconds)
      result.pageLockedTiming = measureUntilStable(
          [&] {
            return Sample{*pageLockedSeconds, {}};
          },
          plan);
    return result;
  }
  RunResult runCandidate(const model::Candidate& candidate, const TimingPlan& plan) override {
    ran.push_back(candidate);
    for (const model::Candidate& c : failing)
      if (c == candidate) {
        RunResult result;
        result.verification = Verification::Failed;
        result.error = "cudaMalloc(&p, bytes) failed: out of memory";
        return result;
      }
    for (const model::Candidate& c : wrong)
      if (c == candidate) {
        RunResult result;
        result.verification = Verification::WrongResult;
        result.error = "y: 3 of 100 elements differ";
        return result;
      }
    return timed(candidate, Verification::Passed, plan);
  }

private:
  RunResult timed(const model::Candidate& candidate, Verification verification,
                  const TimingPlan& plan) {
    RunResult result;
    result.verification = verification;
    const double seconds = seconds_(candidate);
    result.timing = measureUntilStable([&] { return Sample{seconds, {}}; }, plan);
    return result;
  }
  Seconds seconds_;
};

// A saxpy-like call: 256 MiB in, 256 MiB in-out, on an H100-like link.
inline model::Workload saxpyWorkload() {
  model::Workload w;
  w.partition.extent = 1 << 26;
  w.transfers.h2dBytes = 2.0 * 4 * (1 << 26);
  w.transfers.d2hBytes = 4.0 * (1 << 26);
  w.transfers.inoutD2hBytes = w.transfers.d2hBytes;
  w.transfers.h2dCopiesPerChunk = 2;
  w.transfers.explicitH2dCopies = 2;
  return w;
}

} // namespace overlap::tune::testing
