#include "tune/ModelChoice.h"

#include "model/CandidateSet.h"
#include "model/ProfileCompletion.h"
#include "model/WorkloadFromDescriptor.h"
#include "overlap/Dispatch.h"
#include "overlap/ProfileCatalog.h"

#include <map>
#include <mutex>

namespace overlap::tune {
namespace {

struct ProfileChoice {
  bool found = false;
  HardwareProfile profile;
  std::string origin;
  // With the gaps filled in as model::predict fills them, so that a single prediction agrees with
  // the tuner's (whose predictions the results file holds).
  HardwareProfile completed;
};

// Profiles are read from disk once per device name.
const ProfileChoice& profileFor(const std::string& deviceName) {
  static std::mutex mutex;
  static std::map<std::string, ProfileChoice> chosen;
  std::lock_guard<std::mutex> lock(mutex);
  const auto known = chosen.find(deviceName);
  if (known != chosen.end())
    return known->second;
  ProfileChoice& choice = chosen[deviceName];
  CatalogEntry entry;
  bool measuredHere = false;
  std::vector<ProfileError> skipped;
  if (profileForDevice(deviceName, &entry, &measuredHere, &skipped))
    choice = {true, entry.profile,
              measuredHere ? entry.origin
                           : entry.origin + ", embedded: no calibrated profile of this device",
              model::completeProfile(entry.profile).profile};
  // Library code prints nothing: the reason (OVERLAP_DISPATCH_LOG, lastDispatchChoice) says it.
  for (const ProfileError& problem : skipped)
    choice.origin += "; skipped unreadable profile " + problem.message();
  return choice;
}

} // namespace

bool chooseByModel(const KernelDescriptor& kernel, ArgPointers args, const std::string& deviceName,
                   RunConfig* config, std::string* why) {
  const ProfileChoice& profile = profileFor(deviceName);
  if (!profile.found)
    return false;
  const std::unique_ptr<model::PerformanceModel> model = model::makeModel(model::ModelKind::Modern);
  model::Workload workload = model::workloadFromDescriptor(kernel, args, 0);
  workload.deviceMemory.budgetBytes = model::deviceMemoryBudgetFromEnvironment();
  // One chunk per stream: predicted at the call, on the host's clock, every chunk count of a large
  // call costs a good part of a second (hundreds of simulated pipelines of up to 512 chunks);
  // the tuner measures them instead.
  model::SearchOptions options;
  options.maxChunksPerStream = 1;
  const model::Prediction prediction = model::predict(*model, profile.profile, workload, options);
  if (!prediction.best)
    return false;
  const model::Candidate best = prediction.rows[*prediction.best].candidate;
  config->variant = best.variant;
  config->streams = model::streamsConfig(best);
  *why = "model's predicted best on " + profile.profile.name + " (" + profile.origin + ")";
  return true;
}

bool predictByModel(const KernelDescriptor& kernel, ArgPointers args, const std::string& deviceName,
                    CallMemory memory, double kernelSeconds, const RunConfig* configs, int count,
                    std::optional<double>* seconds) {
  const ProfileChoice& profile = profileFor(deviceName);
  if (!profile.found)
    return false;
  const std::unique_ptr<model::PerformanceModel> model = model::makeModel(model::ModelKind::Modern);
  model::Workload workload = model::workloadFromDescriptor(kernel, args, kernelSeconds);
  workload.transfers.hostMemoryPinned = memory != CallMemory::Pageable;
  workload.deviceMemory.budgetBytes = model::deviceMemoryBudgetFromEnvironment();
  for (int i = 0; i < count; ++i) {
    const model::Candidate candidate = model::candidateOf(configs[i].variant, configs[i].streams);
    seconds[i] = model->predictSeconds(profile.completed, workload, candidate);
  }
  return true;
}

bool installModelDispatch() {
  return setModelChooser(&chooseByModel) && setModelPredictor(&predictByModel);
}

} // namespace overlap::tune
