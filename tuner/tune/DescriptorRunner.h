// Runs the candidates of one generated kernel on the GPU through its descriptor: allocates every
// array from the annotation's extents in host memory (pinned by default; registered, pageable or
// managed on request),
// fills the inputs with fresh random data of the right element kind, keeps Explicit's outputs as
// the reference, verifies every candidate's outputs against them before timing it, and times the
// whole call (transfers included) with the host's clock, since that is what the caller waits for.
// Optional arrays are allocated and filled like the others (the runner passes every pointer).
#pragma once

#include "overlap/CallMemory.h"
#include "overlap/Descriptor.h"
#include "tune/ArgumentSlots.h"
#include "tune/CandidateRunner.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace overlap::tune {

struct RunnerOptions {
  // Registered: malloc'ed, then cudaHostRegister'ed; Managed: cudaMallocManaged.
  CallMemory memory = CallMemory::Pinned;
  double tolerance = 0; // relative, for floating-point outputs; 0: exact
  std::uint64_t seed = 0;
};

class DescriptorRunner final : public CandidateRunner {
public:
  // `integerArguments`: the value of every integer scalar parameter, by name (sizes, counts);
  // see ArgumentSlots for the other parameters. Returns nullptr with
  // `error` set when an argument is missing or memory cannot be allocated.
  static std::unique_ptr<DescriptorRunner>
  create(const KernelDescriptor& descriptor,
         const std::map<std::string, long long>& integerArguments, const RunnerOptions& options,
         std::string* error);
  ~DescriptorRunner() override;

  ArgPointers arguments() const { return slots_.pointers(); }
  std::size_t hostBytes() const; // of one copy of every array

  RunResult runReference(const TimingPlan& plan) override;
  RunResult runCandidate(const model::Candidate& candidate, const TimingPlan& plan) override;
  RunResult timeCandidate(const model::Candidate& candidate, const TimingPlan& plan) override;

private:
  struct HostArray;
  DescriptorRunner(const KernelDescriptor& descriptor, const RunnerOptions& options);

  // The comparison's tolerance for an output: the options', or for a floating-point Sum or
  // Product reduction the larger one that the atomics' order needs (reductionTolerance).
  double toleranceOf(const ArrayDescriptor& array) const;
  void restoreInputs();      // every array, before a verified run
  void restoreInoutArrays(); // before every timed repeat, outside the timed region
  Sample runOnce(const RunConfig& config);
  TimedSamples time(const RunConfig& config, const TimingPlan& plan);
  // time() with every array registered for it; nullopt where one could not be.
  std::optional<TimedSamples> timePageLocked(const RunConfig& config, const TimingPlan& plan);

  const KernelDescriptor& descriptor_;
  RunnerOptions options_;
  ArgumentSlots slots_;
  std::vector<std::unique_ptr<HostArray>> arrays_;
  // A run that failed or computed a wrong result may have written where it should only read, so
  // the next timing restores every array first.
  bool inputsSuspect_ = false;
};

} // namespace overlap::tune
