// The NVML part of overlap::describe_device: loaded with dlopen at run time instead of linked, so
// programs start on machines whose driver library is missing (containers, CI) and only lose the
// PCIe and driver fields.
#pragma once

#include "overlap/device.h"

#include <string>

namespace overlap::detail {

struct NvmlDeviceInfo {
  PcieLink pcie;
  std::string driver_version; // empty when unknown
  std::string problem;        // why something is unknown; empty when all was read
};

// `pci_bus_id` as cudaDeviceGetPCIBusId writes it.
NvmlDeviceInfo query_nvml(const std::string& pci_bus_id);

} // namespace overlap::detail
