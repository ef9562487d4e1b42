#include "tune/ResultsRegistration.h"

#include "overlap/Dispatch.h"

#include <deque>
#include <mutex>
#include <string>
#include <vector>

namespace overlap::tune {
namespace {

// One entry's strings and sizes, which the registered BakedChoice points into.
struct KeptEntry {
  std::string kernel;
  std::string device;
  std::vector<TunedSize> sizes;
};

} // namespace

bool registerResults(const ResultsFile& file) {
  static std::mutex mutex;
  static std::deque<KeptEntry>* const kept = new std::deque<KeptEntry>; // never destroyed
  std::vector<BakedChoice> choices;
  {
    const std::lock_guard<std::mutex> lock(mutex);
    for (const ResultsEntry& entry : file.entries) {
      KeptEntry& copy = kept->emplace_back();
      copy.kernel = entry.kernel;
      copy.device = entry.device;
      for (const ResultsSize& size : entry.sizes)
        copy.sizes.push_back({size.extent, size.choice.variant, size.choice.streams,
                              size.choice.order, size.medianSeconds, size.predictedSeconds,
                              size.kernelSeconds, size.choice.pageable, size.choice.chunks,
                              size.choice.devices, size.choice.graph, size.choice.staging.threads});
      choices.push_back({copy.kernel.c_str(), copy.device.c_str(), copy.sizes.data(),
                         static_cast<int>(copy.sizes.size()), entry.memory});
    }
  }
  // registerBakedChoices copies the BakedChoice values; what they point to is kept above.
  return registerBakedChoices(choices.data(), static_cast<int>(choices.size()));
}

} // namespace overlap::tune
