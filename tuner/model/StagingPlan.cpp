#include "model/StagingPlan.h"

#include <cstddef>
#include <vector>

namespace overlap::model {

StagingPlan planStaging(const ModernModel& model, const HardwareProfile& profile,
                        const Workload& workload, Candidate candidate, int maxThreads) {
  constexpr std::size_t kKiB = 1024;
  candidate.pageable = PageableMode::Stage;
  std::vector<StagingPlan> tried; // in order of preference: fewer threads, then smaller slots
  double fastest = 0;
  for (int threads : {1, 2, 4, 8}) {
    if (threads > 1 && threads > maxThreads)
      break;
    for (std::size_t slot : {256 * kKiB, 1024 * kKiB, 4096 * kKiB, 16384 * kKiB}) {
      candidate.staging = StagingConfig{threads, slot, 2 * threads + 2};
      const std::optional<double> seconds = model.predictSeconds(profile, workload, candidate);
      if (!seconds)
        continue;
      tried.push_back({candidate.staging, *seconds});
      if (fastest <= 0 || *seconds < fastest)
        fastest = *seconds;
    }
  }
  for (const StagingPlan& plan : tried)
    if (plan.seconds <= fastest * 1.01)
      return plan;
  return {};
}

} // namespace overlap::model
