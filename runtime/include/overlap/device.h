// What the runtime, the model and the tuner need to know about one CUDA device: its overlap
// capabilities, its host link, and its category in the sense of paper 001 §IV.
#pragma once

#include "overlap/status.h"

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

DeviceCategory categorize_device(int compute_capability_major, int compute_capability_minor,
                                 int copy_engines);
bool has_implicit_synchronization(int compute_capability_major, int compute_capability_minor);
// "category 3 (no implicit synchronization, 2+ copy engines)"
const char* describe(DeviceCategory category);

// The PCIe link as NVML reports it; 0 where it could not be read.
struct PcieLink {
  int generation = 0;     // current: may be lower while the link idles to save power
  int width = 0;          // current lane count
  int max_generation = 0; // the best the device and the system can do
  int max_width = 0;

  bool known() const { return max_generation > 0 && max_width > 0; }
  // "Gen5 x16" (from the maximum), or "unknown".
  std::string describe() const;
};

struct DeviceDescription {
  int ordinal = 0;
  std::string name;
  int compute_capability_major = 0;
  int compute_capability_minor = 0;
  int multiprocessors = 0;
  int copy_engines = 0; // asyncEngineCount
  bool concurrent_kernels = false;
  bool can_map_host_memory = false;
  bool unified_addressing = false;
  bool pageable_memory_access = false;
  std::string pci_bus_id; // "0000:01:00.0"
  PcieLink pcie;
  std::string driver_version;   // NVML's string, e.g. "580.159.04", or "unknown"
  int cuda_driver_version = 0;  // cudaDriverGetVersion, e.g. 13000
  int cuda_runtime_version = 0; // cudaRuntimeGetVersion
  // Why the NVML fields are unknown, e.g. "libnvidia-ml.so.1 not found"; empty when read.
  std::string nvml_problem;

  bool implicit_synchronization() const {
    return has_implicit_synchronization(compute_capability_major, compute_capability_minor);
  }
  DeviceCategory category() const {
    return categorize_device(compute_capability_major, compute_capability_minor, copy_engines);
  }
};

// Reads the CUDA properties of `device` and, when the NVML library can be loaded at run time, the
// PCIe link and driver version (a machine without the driver library still gets the rest).
Status describe_device(int device, DeviceDescription* description);

// The current device's name as cudaGetDeviceProperties spells it; empty without a device (the
// CUDA error is cleared).
std::string current_device_name();

// Several lines of "key: value", for tools and logs.
std::string to_text(const DeviceDescription& description);

} // namespace overlap
