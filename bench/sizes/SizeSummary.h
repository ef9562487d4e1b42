// The size benchmark's summary (scripts/bench.sh sizes, bench/README.md): per kernel and over
// all, K_tuned's time against the best measured at each call size, and the old size-blind
// choice's, as geometric means and worst cases against issue 19's targets. CUDA-free: it reads
// the per-kernel JSON that SizeMeasure.h writes.
#pragma once

#include <string>
#include <vector>

namespace overlap::bench {

// Issue 19's targets for K_tuned / best over the call sizes.
inline constexpr double kGeomeanTarget = 1.03;
inline constexpr double kWorstTarget = 1.10;

struct RatioStats {
  int count = 0;
  int failed = 0; // sizes where it has no time (its call failed or was wrong): in no ratio
  double geomean = 0;
  double worst = 0;
  long long worstValue = 0; // the call size of the worst
  std::string worstKernel;
};

struct KernelSummary {
  std::string kernel;
  std::string parameter;
  RatioStats tuned; // K_tuned / best
  RatioStats old;   // the size-blind choice / best
};

struct SizeSummary {
  std::vector<KernelSummary> kernels;
  RatioStats tuned;
  RatioStats old;
  std::string markdown; // the ratios, then every kernel's table of sizes
  std::string json;     // schema "overlap-size-benchmark": the ratios and the measurements
};

// `runs`: the JSON texts size_measure writes, one per kernel. A row without a time for K_tuned or
// the size-blind choice (a failed call) counts as failed for it. False with `error` set when a text
// is no such JSON.
bool summarizeSizes(const std::vector<std::string>& runs, const std::string& title,
                    SizeSummary* summary, std::string* error);

} // namespace overlap::bench
