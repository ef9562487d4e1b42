// The search: runs Explicit as the reference, derives t_E, asks the model for predictions and the
// pruned set, runs those candidates (or all with `exhaustive`) through a CandidateRunner, and picks
// the winner. Progress goes to a callback; every measured candidate is saved to the cache at once,
// so an interrupted tuning resumes where it stopped. CUDA-free.
#pragma once

#include "model/CandidateSet.h"
#include "model/Workload.h"
#include "overlap/HardwareProfile.h"
#include "tune/CandidateRunner.h"
#include "tune/CandidateWatch.h"
#include "tune/FinalRound.h"
#include "tune/StableTiming.h"
#include "tune/TuningCache.h"
#include "tune/TuningRun.h"
#include "tune/WinnerChoice.h"

#include <functional>
#include <optional>
#include <string>

namespace overlap::tune {

inline constexpr int kMostFinalRounds = 3;

struct TunerOptions {
  bool exhaustive = false; // run every enumerated candidate, to check the pruning
  model::SearchOptions search;
  NoiseOptions noise;
  TimingPlan timing;
  // Interleaved rounds of the final round (FinalRound.h); 0: the winner is picked from each
  // candidate's own timing. A winner that is not settled (WinnerChoice::settled) gets as many
  // again, up to kMostFinalRounds times these in all, and then the fastest wins (keepFastest).
  int finalRounds = 7;
  // t_E given by the user; otherwise inferred from Explicit's measured time (see
  // inferKernelSeconds).
  std::optional<double> kernelSeconds;
  // How long one candidate (verification and timing) may take before a supervisor stops it;
  // nullopt: candidateTimeBound's default.
  std::optional<double> candidateTimeoutSeconds;
};

// Without --candidate-timeout, the reference may take this long: nothing is known of the kernel
// yet.
inline constexpr double kDefaultReferenceBoundSeconds = 600;
// ...and a candidate at least this long, so a short kernel's bound is not at the mercy of jitter.
inline constexpr double kMinimumCandidateBoundSeconds = 60;
// ...or ten times what it would take at Explicit's speed with every run the timing plan allows
// (verification, warm-ups, the most repeats), so a candidate ten times slower than Explicit is not
// mistaken for a hung one.
inline constexpr double kCandidateBoundSlowdown = 10;

// The bound of one candidate: the given timeout, else the defaults above from Explicit's median
// (nullopt for the reference itself, which has not been measured yet).
double candidateTimeBound(const TunerOptions& options,
                          const std::optional<double>& explicitMedianSeconds);

// What is being tuned, filled in by the caller: the identity fields of `header` (kernel, source,
// arguments, device, profile, model, date, pinned_inputs, tolerance) and the call's workload with
// launch.kernelSeconds still unknown.
struct TuningSetup {
  TuningRun header;
  const HardwareProfile* profile = nullptr;
  const model::PerformanceModel* model = nullptr;
  model::Workload workload;
  // Distinguishes kernels of the same name and line (e.g. parameter types); part of the cache key.
  std::string kernelIdentity;
};

using Progress = std::function<void(const std::string& line)>;

// The cache key of a setup under these options.
std::string cacheKey(const TuningSetup& setup, const TunerOptions& options);

// t_E from the reference's measured wall time (Explicit's, or out of core its substitute's): what
// the model's prediction of that candidate leaves for the kernel once its transfers are predicted.
// Never below 1 % of the measured time, since a profile of another machine can predict transfers
// slower than this one's whole call. `source` says how it was obtained.
double inferKernelSeconds(const model::PerformanceModel& model, const HardwareProfile& profile,
                          model::Workload workload, double measuredSeconds, std::string* source,
                          const model::Candidate& measured = model::Candidate{});

// Predictions only, nothing run: the report of a machine without a GPU.
TuningRun predictOnly(const TuningSetup& setup, const TunerOptions& options, double kernelSeconds,
                      const std::string& kernelSecondsSource);

// `watch`, if given, hears of every run of the reference and of each candidate; the tuning is
// saved to the cache before the first candidate starts, so a supervisor can record in it a
// candidate it had to stop.
TuningRun tune(CandidateRunner& runner, const TuningSetup& setup, const TunerOptions& options,
               const TuningCache& cache, const Progress& progress, CandidateWatch* watch = nullptr);

} // namespace overlap::tune
