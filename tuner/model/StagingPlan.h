// The staging ring a staged call (PageableMode::Stage) should run with, chosen by the model: the
// thread count and slot size whose simulated call is fastest on the profile (its host copy costs
// and link), for one candidate and workload. The runtime's automatic choice (resolvedStaging)
// needs no profile; a tuned call passes this one in StreamsConfig::staging.
#pragma once

#include "model/ModernModel.h"
#include "model/PerformanceModel.h"
#include "model/Workload.h"
#include "overlap/HardwareProfile.h"

namespace overlap::model {

struct StagingPlan {
  StagingConfig staging; // every field set
  double seconds = 0;    // the predicted call with it
};

// Tries 1, 2, 4 and 8 threads (no more than `maxThreads`) and slots of 256 KiB, 1 MiB, 4 MiB and
// 16 MiB, two slots per thread and two more (the runtime's rule); keeps the fastest, preferring
// fewer threads and then smaller slots among those within 1 % of it (threads and pinned memory
// that buy nothing measurable are better left to the program). `candidate` is taken as staged
// whatever its pageable mode says.
StagingPlan planStaging(const ModernModel& model, const HardwareProfile& profile,
                        const Workload& workload, Candidate candidate, int maxThreads);

} // namespace overlap::model
