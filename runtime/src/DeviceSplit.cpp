#include "overlap/DeviceSplit.h"

#include <cuda_runtime_api.h>

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>

namespace overlap {
namespace {

Status invalidDevice(const std::string& why) {
  return Status{cudaErrorInvalidDevice, persistentText(why), __FILE__, __LINE__};
}

const std::vector<int>& environmentDevices(int visible) {
  static const std::vector<int> devices = [visible] {
    const DeviceListSetting setting = parseDeviceList(std::getenv("OVERLAP_DEVICES"), visible);
    if (!setting.error.empty())
      std::fprintf(stderr, "overlap: %s\n", setting.error.c_str());
    return setting.devices;
  }();
  return devices;
}

// The items of a comma-separated list, empty ones included ("0,,1" has three, "" one).
std::vector<std::string> commaItems(const std::string& text) {
  std::vector<std::string> items;
  std::size_t position = 0;
  for (;;) {
    const std::size_t comma = text.find(',', position);
    items.push_back(text.substr(position, comma - position));
    if (comma == std::string::npos)
      return items;
    position = comma + 1;
  }
}

// A non-negative decimal of at most six digits (device and CPU numbers).
bool isSmallDecimal(const std::string& digits) {
  return !digits.empty() && digits.size() <= 6 &&
         digits.find_first_not_of("0123456789") == std::string::npos;
}

} // namespace

DeviceListSetting parseDeviceList(const char* value, int visible) {
  DeviceListSetting setting;
  if (value == nullptr || *value == '\0')
    return setting;
  const std::string text = value;
  const auto refuse = [&](const std::string& why) {
    setting.devices.clear();
    setting.error = "OVERLAP_DEVICES='" + text + "': " + why + "; every visible device is used";
    return setting;
  };
  for (const std::string& item : commaItems(text)) {
    if (!isSmallDecimal(item))
      return refuse("'" + item + "' is not a device ordinal (a list such as 0,1)");
    const int device = std::atoi(item.c_str());
    if (device >= visible)
      return refuse("device " + item + " is not visible (" + std::to_string(visible) + " device" +
                    (visible == 1 ? "" : "s") + ")");
    for (int earlier : setting.devices)
      if (earlier == device)
        return refuse("device " + item + " is listed twice");
    setting.devices.push_back(device);
  }
  return setting;
}

Status chooseDevices(int count, std::uint64_t mask, const std::vector<int>& listed, int visible,
                     std::vector<int>* devices) {
  if (count < 0)
    return invalidDevice("StreamsConfig::devices < 0");
  std::vector<int> candidates;
  std::string from;
  if (mask != 0) {
    from = "StreamsConfig::deviceMask";
    for (int d = 0; d < 64; ++d) {
      if ((mask >> d & 1u) == 0)
        continue;
      if (d >= visible)
        return invalidDevice(from + " names device " + std::to_string(d) + ", but " +
                             std::to_string(visible) + " device" +
                             (visible == 1 ? " is" : "s are") + " visible");
      candidates.push_back(d);
    }
  } else if (!listed.empty()) {
    from = "OVERLAP_DEVICES";
    candidates = listed;
  } else {
    from = "the visible devices";
    for (int d = 0; d < visible; ++d)
      candidates.push_back(d);
  }
  if (candidates.empty())
    return invalidDevice("a multi-GPU call found no device");
  if (count > static_cast<int>(candidates.size()))
    return invalidDevice("StreamsConfig::devices = " + std::to_string(count) + ", but " + from +
                         " give" + (mask != 0 || !listed.empty() ? "s " : " ") +
                         std::to_string(candidates.size()));
  if (count > 0)
    candidates.resize(static_cast<std::size_t>(count));
  *devices = std::move(candidates);
  return Status::success();
}

Status selectDevices(int count, std::uint64_t mask, std::vector<int>* devices) {
  int visible = 0;
  OVERLAP_CUDA_TRY(cudaGetDeviceCount(&visible));
  return chooseDevices(count, mask, environmentDevices(visible), visible, devices);
}

std::vector<DeviceRange> splitPartition(const Partition& partition, const std::vector<int>& devices,
                                        const std::vector<double>& weights) {
  std::vector<DeviceRange> ranges;
  const long long granules = granuleCount(partition);
  long double total = 0;
  for (double w : weights)
    total += w > 0 ? w : 0;
  long double cumulative = 0;
  long long first = 0;
  if (!(total > 0) || weights.size() != devices.size())
    return ranges; // the caller's invariant: one positive weight per device
  for (std::size_t k = 0; k < devices.size(); ++k) {
    cumulative += weights[k] > 0 ? weights[k] : 0;
    // Rounded cumulative shares: the counts add up to `granules` exactly and never go back.
    const long long end =
        k + 1 == devices.size()
            ? granules
            : std::min(granules,
                       static_cast<long long>(std::llround(granules * (cumulative / total))));
    if (end > first)
      ranges.push_back({devices[k], partition.begin + first * partition.granule,
                        end == granules ? partition.begin + partition.extent
                                        : partition.begin + end * partition.granule});
    first = std::max(first, end);
  }
  return ranges;
}

double linkWeight(const PcieLink& link) {
  if (!link.known())
    return 1.0;
  // GB/s per lane and direction after line coding, generations 1 to 6.
  static constexpr double kLane[] = {0.25, 0.5, 0.985, 1.969, 3.938, 7.563};
  const int generation = std::min(link.maxGeneration, 6);
  return kLane[generation - 1] * link.maxWidth;
}

// describeDevice once per device and process (it asks NVML and reads sysfs).
static Status describedDevice(int device, DeviceDescription* out) {
  static std::mutex mutex;
  static std::map<int, DeviceDescription>* const described = new std::map<int, DeviceDescription>;
  const std::lock_guard<std::mutex> lock(mutex);
  const auto known = described->find(device);
  if (known != described->end()) {
    *out = known->second;
    return Status::success();
  }
  DeviceDescription description;
  OVERLAP_TRY(describeDevice(device, &description));
  *out = (*described)[device] = description;
  return Status::success();
}

Status deviceSplitWeight(int device, double* weight) {
  DeviceDescription description;
  OVERLAP_TRY(describedDevice(device, &description));
  *weight = linkWeight(description.pcie);
  return Status::success();
}

std::vector<int> parseCpuList(const std::string& text) {
  std::vector<int> cpus;
  for (const std::string& item : commaItems(text)) {
    const std::size_t dash = item.find('-');
    const std::string first = item.substr(0, dash);
    const std::string last = dash == std::string::npos ? first : item.substr(dash + 1);
    if (!isSmallDecimal(first) || !isSmallDecimal(last) || std::stoi(last) < std::stoi(first))
      return {};
    for (int cpu = std::stoi(first); cpu <= std::stoi(last); ++cpu)
      cpus.push_back(cpu);
  }
  return cpus;
}

void placeThreadNearDevice(int device) {
  static const bool severalNodes = [] {
    std::ifstream second("/sys/devices/system/node/node1/cpulist");
    return second.good();
  }();
  DeviceDescription description;
  if (!severalNodes || !describedDevice(device, &description).ok())
    return;
  const std::vector<int> cpus = parseCpuList(description.localCpus);
  if (cpus.empty())
    return;
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int cpu : cpus)
    if (cpu < CPU_SETSIZE)
      CPU_SET(cpu, &set);
  (void)pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

} // namespace overlap
