// What the runtime, the model and the tuner need to know about one CUDA device: its overlap
// capabilities, its host link, and its category in the sense of paper 001 §IV.
#pragma once

#include "overlap/Status.h"

#include <string>

namespace overlap {

// Paper 001 §IV sorts devices by whether a streamed kernel launch implicitly synchronizes with
// earlier work (compute capability < 3.5) and by the number of copy engines.
enum class DeviceCategory : unsigned char {
  NoConcurrentCopy,        // asyncEngineCount == 0: copies never overlap kernels (no category)
  ImplicitSynchronization, // category 1, e.g. Fermi, GTX 680: whatever the copy-engine count
  OneCopyEngine,           // category 2, e.g. GTX Titan: copies in one direction at a time
  TwoCopyEngines,          // category 3, e.g. Tesla K20, H100: both directions at once
};

DeviceCategory categorizeDevice(int computeCapabilityMajor, int computeCapabilityMinor,
                                int copyEngines);
bool hasImplicitSynchronization(int computeCapabilityMajor, int computeCapabilityMinor);
// "category 3 (no implicit synchronization, 2+ copy engines)"
const char* describe(DeviceCategory category);

// The PCIe link as NVML reports it; 0 where it could not be read.
struct PcieLink {
  int generation = 0;    // current: may be lower while the link idles to save power
  int width = 0;         // current lane count
  int maxGeneration = 0; // the best the device and the system can do
  int maxWidth = 0;

  bool known() const { return maxGeneration > 0 && maxWidth > 0; }
  // "Gen5 x16" (from the maximum), or "unknown".
  std::string describe() const;
};

struct DeviceDescription {
  int ordinal = 0;
  std::string name;
  int computeCapabilityMajor = 0;
  int computeCapabilityMinor = 0;
  int multiprocessors = 0;
  int copyEngines = 0; // asyncEngineCount
  bool concurrentKernels = false;
  bool canMapHostMemory = false;
  bool unifiedAddressing = false;
  bool pageableMemoryAccess = false;
  std::string pciBusId; // "0000:01:00.0"
  // Where the device sits in the host, as Linux's sysfs says: its NUMA node (-1: unknown or
  // none) and the CPUs near it ("0-31,64-95"; empty: unknown).
  int numaNode = -1;
  std::string localCpus;
  PcieLink pcie;
  std::string driverVersion;  // NVML's string, e.g. "580.159.04", or "unknown"
  int cudaDriverVersion = 0;  // cudaDriverGetVersion, e.g. 13000
  int cudaRuntimeVersion = 0; // cudaRuntimeGetVersion
  // Why the NVML fields are unknown, e.g. "libnvidia-ml.so.1 not found"; empty when read.
  std::string nvmlProblem;

  bool implicitSynchronization() const {
    return hasImplicitSynchronization(computeCapabilityMajor, computeCapabilityMinor);
  }
  DeviceCategory category() const {
    return categorizeDevice(computeCapabilityMajor, computeCapabilityMinor, copyEngines);
  }
};

// Reads the CUDA properties of `device` and, when the NVML library can be loaded at run time, the
// PCIe link and driver version (a machine without the driver library still gets the rest).
Status describeDevice(int device, DeviceDescription* description);

// The current device's name as cudaGetDeviceProperties spells it; empty without a device (the
// CUDA error is cleared).
std::string currentDeviceName();

// Several lines of "key: value", for tools and logs.
std::string toText(const DeviceDescription& description);

} // namespace overlap
