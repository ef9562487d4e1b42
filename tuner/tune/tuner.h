// The search: runs Explicit as the reference, derives t_E, asks the model for predictions and the
// pruned set, runs those candidates (or all with `exhaustive`) through a CandidateRunner, and picks
// the winner. Progress goes to a callback; every measured candidate is saved to the cache at once,
// so an interrupted tuning resumes where it stopped. CUDA-free.
#pragma once

#include "model/candidate_set.h"
#include "model/workload.h"
#include "overlap/hardware_profile.h"
#include "tune/candidate_runner.h"
#include "tune/stable_timing.h"
#include "tune/tuning_cache.h"
#include "tune/tuning_run.h"
#include "tune/winner_choice.h"

#include <functional>
#include <optional>
#include <string>

namespace overlap::tune {

struct TunerOptions {
  bool exhaustive = false; // run every enumerated candidate, to check the pruning
  model::SearchOptions search;
  NoiseOptions noise;
  TimingPlan timing;
  // t_E given by the user; otherwise inferred from Explicit's measured time (see
  // infer_kernel_seconds).
  std::optional<double> kernel_seconds;
};

// What is being tuned, filled in by the caller: the identity fields of `header` (kernel, source,
// arguments, device, profile, model, date, pinned_inputs, tolerance) and the call's workload with
// kernel_seconds still unknown.
struct TuningSetup {
  TuningRun header;
  const HardwareProfile* profile = nullptr;
  const model::PerformanceModel* model = nullptr;
  model::Workload workload;
  // Distinguishes kernels of the same name and line (e.g. parameter types); part of the cache key.
  std::string kernel_identity;
};

using Progress = std::function<void(const std::string& line)>;

// The cache key of a setup under these options.
std::string cache_key(const TuningSetup& setup, const TunerOptions& options);

// t_E from Explicit's measured wall time: what the model's Explicit (copies in, kernel, copies out)
// leaves for the kernel once its transfers are predicted. Never below 1 % of the measured time,
// since a profile of another machine can predict transfers slower than this one's whole call.
// `source` says how it was obtained.
double infer_kernel_seconds(const model::PerformanceModel& model, const HardwareProfile& profile,
                            model::Workload workload, double explicit_seconds, std::string* source);

// Predictions only, nothing run: the report of a machine without a GPU.
TuningRun predict_only(const TuningSetup& setup, const TunerOptions& options, double kernel_seconds,
                       const std::string& kernel_seconds_source);

TuningRun tune(CandidateRunner& runner, const TuningSetup& setup, const TunerOptions& options,
               const TuningCache& cache, const Progress& progress);

} // namespace overlap::tune
