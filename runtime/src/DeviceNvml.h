// The NVML part of overlap::describeDevice: loaded with dlopen at run time instead of linked, so
// programs start on machines whose driver library is missing (containers, CI) and only lose the
// PCIe and driver fields.
#pragma once

#include "overlap/Device.h"

#include <string>

namespace overlap::detail {

struct NvmlDeviceInfo {
  PcieLink pcie;
  std::string driverVersion; // empty when unknown
  std::string problem;       // why something is unknown; empty when all was read
};

// `pciBusId` as cudaDeviceGetPCIBusId writes it.
NvmlDeviceInfo queryNvml(const std::string& pciBusId);

} // namespace overlap::detail
