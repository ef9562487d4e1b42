// Which GPUs a multi-GPU call runs on and which part of its partition each one takes
// (templates/overlap/detail/MultiDevice.cuh). Each GPU of a host has its own PCIe link, so a
// transfer-bound call split across G of them can move up to G times the bytes in the same time.
#pragma once

#include "overlap/Device.h"
#include "overlap/KernelTypes.h"
#include "overlap/Status.h"

#include <cstdint>
#include <string>
#include <vector>

namespace overlap {

// OVERLAP_DEVICES's value (null or empty: unset), a comma-separated list of device ordinals such
// as "0,1", against `visible` devices; an ordinal out of range, repeated or malformed makes the
// whole setting an error (every visible device is used then). CUDA-free, for the tests.
struct DeviceListSetting {
  std::vector<int> devices; // empty: unset
  std::string error;
};
DeviceListSetting parseDeviceList(const char* value, int visible);

// The devices of a call asking for `count` of them (StreamsConfig::devices; 0: all): those of
// `mask` (bit d: device d) when it is not 0, else `listed` (OVERLAP_DEVICES) when not empty, else
// devices 0 .. visible - 1; the first `count` of them. Asking for more than there are, or for a
// device in the mask that is not visible, is an error naming both. CUDA-free.
Status chooseDevices(int count, std::uint64_t mask, const std::vector<int>& listed, int visible,
                     std::vector<int>* devices);

// chooseDevices with cudaGetDeviceCount and OVERLAP_DEVICES (read once; a malformed value is
// reported on stderr once and ignored).
Status selectDevices(int count, std::uint64_t mask, std::vector<int>* devices);

// One device's part of a partition: [begin, end), whole granules from the partition's begin.
struct DeviceRange {
  int device = 0;
  long long begin = 0;
  long long end = 0;
};

// Cuts `partition` into contiguous ranges of whole granules, one per device in order, their
// granule counts proportional to `weights` (> 0; rounded so that they add up to the partition's).
// Devices whose share rounds to no granule get no range: a partition of fewer granules than
// devices runs on fewer devices. CUDA-free.
std::vector<DeviceRange> splitPartition(const Partition& partition, const std::vector<int>& devices,
                                        const std::vector<double>& weights);

// A device's share of a split: its link's bandwidth per direction as NVML reports generation and
// width (GB/s), or 1 where the link is unknown (every device then takes an equal share).
// CUDA-free.
double linkWeight(const PcieLink& link);

// linkWeight of `device`, described once per process.
Status deviceSplitWeight(int device, double* weight);

// The CPUs of a Linux CPU list ("0-31,64-95", as sysfs's local_cpulist); empty where it is
// malformed. CUDA-free.
std::vector<int> parseCpuList(const std::string& text);

// On a host of several NUMA nodes, keeps the calling thread on the CPUs near `device`
// (DeviceDescription::localCpus), so that a split call's thread for that device issues from there
// and the pinned memory it first touches (its staging slots) lies on the device's node. Nothing
// on a host of one node, or where the placement is unknown; a failure to move the thread only
// costs the placement, so it is not an error.
void placeThreadNearDevice(int device);

} // namespace overlap
