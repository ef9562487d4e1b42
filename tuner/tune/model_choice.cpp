#include "tune/model_choice.h"

#include "model/candidate_set.h"
#include "model/profile_completion.h"
#include "model/workload_from_descriptor.h"
#include "overlap/dispatch.h"
#include "overlap/profile_catalog.h"

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
const ProfileChoice& profile_for(const std::string& device_name) {
  static std::mutex mutex;
  static std::map<std::string, ProfileChoice> chosen;
  std::lock_guard<std::mutex> lock(mutex);
  const auto known = chosen.find(device_name);
  if (known != chosen.end())
    return known->second;
  ProfileChoice& choice = chosen[device_name];
  CatalogEntry entry;
  bool measured_here = false;
  std::vector<ProfileError> skipped;
  if (profile_for_device(device_name, &entry, &measured_here, &skipped))
    choice = {true, entry.profile,
              measured_here ? entry.origin
                            : entry.origin + ", embedded: no calibrated profile of this device",
              model::complete_profile(entry.profile).profile};
  // Library code prints nothing: the reason (OVERLAP_DISPATCH_LOG, last_dispatch_choice) says it.
  for (const ProfileError& problem : skipped)
    choice.origin += "; skipped unreadable profile " + problem.message();
  return choice;
}

} // namespace

bool choose_by_model(const KernelDescriptor& kernel, ArgPointers args,
                     const std::string& device_name, RunConfig* config, std::string* why) {
  const ProfileChoice& profile = profile_for(device_name);
  if (!profile.found)
    return false;
  const std::unique_ptr<model::PerformanceModel> model =
      model::make_model(model::ModelKind::Modern);
  const model::Workload workload = model::workload_from_descriptor(kernel, args, 0);
  const model::Prediction prediction = model::predict(*model, profile.profile, workload);
  if (!prediction.best)
    return false;
  const model::Candidate best = prediction.rows[*prediction.best].candidate;
  config->variant = best.variant;
  config->streams = model::streams_config(best);
  *why = "model's predicted best on " + profile.profile.name + " (" + profile.origin + ")";
  return true;
}

bool predict_by_model(const KernelDescriptor& kernel, ArgPointers args,
                      const std::string& device_name, CallMemory memory, double kernel_seconds,
                      const RunConfig* configs, int count, std::optional<double>* seconds) {
  const ProfileChoice& profile = profile_for(device_name);
  if (!profile.found)
    return false;
  const std::unique_ptr<model::PerformanceModel> model =
      model::make_model(model::ModelKind::Modern);
  model::Workload workload = model::workload_from_descriptor(kernel, args, kernel_seconds);
  workload.host_memory_pinned = memory == CallMemory::Pinned;
  for (int i = 0; i < count; ++i) {
    const bool streamed =
        configs[i].variant == Variant::Streams || configs[i].variant == Variant::Hybrid;
    // Explicit and Mapped are candidates of one stream, as the tuner enumerates them.
    model::Candidate candidate{configs[i].variant, streamed ? configs[i].streams.streams : 1,
                               streamed ? configs[i].streams.order : IssueOrder::DepthFirst};
    if (configs[i].variant != Variant::Explicit)
      candidate.pageable = configs[i].streams.pageable;
    seconds[i] = model->predict_seconds(profile.completed, workload, candidate);
  }
  return true;
}

bool install_model_dispatch() {
  return set_model_chooser(&choose_by_model) && set_model_predictor(&predict_by_model);
}

} // namespace overlap::tune
