#include "overlap/device.h"

#include "device_nvml.h"

#include <sstream>

namespace overlap {

bool has_implicit_synchronization(int compute_capability_major, int compute_capability_minor) {
  return compute_capability_major < 3 ||
         (compute_capability_major == 3 && compute_capability_minor < 5);
}

DeviceCategory categorize_device(int compute_capability_major, int compute_capability_minor,
                                 int copy_engines) {
  if (copy_engines <= 0)
    return DeviceCategory::NoConcurrentCopy;
  // Paper 001 puts the Tesla C2050 (2 copy engines) in category 1 too: implicit synchronization
  // decides the overlap such a device can reach, not its copy engines.
  if (has_implicit_synchronization(compute_capability_major, compute_capability_minor))
    return DeviceCategory::ImplicitSynchronization;
  return copy_engines == 1 ? DeviceCategory::OneCopyEngine : DeviceCategory::TwoCopyEngines;
}

const char* describe(DeviceCategory category) {
  switch (category) {
  case DeviceCategory::NoConcurrentCopy:
    return "no concurrent copy (asyncEngineCount 0): outside paper 001's categories";
  case DeviceCategory::ImplicitSynchronization:
    return "category 1 (implicit synchronization)";
  case DeviceCategory::OneCopyEngine:
    return "category 2 (no implicit synchronization, 1 copy engine)";
  case DeviceCategory::TwoCopyEngines:
    return "category 3 (no implicit synchronization, 2+ copy engines)";
  }
  return "unknown category";
}

std::string PcieLink::describe() const {
  if (!known())
    return "unknown";
  return "Gen" + std::to_string(max_generation) + " x" + std::to_string(max_width);
}

std::string current_device_name() {
  int device = 0;
  cudaDeviceProp properties{};
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaGetDeviceProperties(&properties, device) != cudaSuccess) {
    cudaGetLastError();
    return "";
  }
  return properties.name;
}

Status describe_device(int device, DeviceDescription* description) {
  DeviceDescription d;
  d.ordinal = device;
  cudaDeviceProp properties{};
  OVERLAP_CUDA_TRY(cudaGetDeviceProperties(&properties, device));
  d.name = properties.name;
  d.compute_capability_major = properties.major;
  d.compute_capability_minor = properties.minor;
  d.multiprocessors = properties.multiProcessorCount;
  d.copy_engines = properties.asyncEngineCount;
  d.concurrent_kernels = properties.concurrentKernels != 0;
  d.can_map_host_memory = properties.canMapHostMemory != 0;
  d.unified_addressing = properties.unifiedAddressing != 0;
  d.pageable_memory_access = properties.pageableMemoryAccess != 0;
  OVERLAP_CUDA_TRY(cudaDriverGetVersion(&d.cuda_driver_version));
  OVERLAP_CUDA_TRY(cudaRuntimeGetVersion(&d.cuda_runtime_version));

  char bus_id[32] = {};
  OVERLAP_CUDA_TRY(cudaDeviceGetPCIBusId(bus_id, static_cast<int>(sizeof(bus_id)), device));
  d.pci_bus_id = bus_id;
  detail::NvmlDeviceInfo nvml = detail::query_nvml(d.pci_bus_id);
  d.pcie = nvml.pcie;
  d.driver_version = nvml.driver_version.empty() ? "unknown" : nvml.driver_version;
  d.nvml_problem = nvml.problem;

  *description = std::move(d);
  return Status::success();
}

namespace {
std::string cuda_version(int version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}
const char* yes_no(bool value) {
  return value ? "yes" : "no";
}
} // namespace

std::string to_text(const DeviceDescription& d) {
  std::ostringstream out;
  out << "device " << d.ordinal << ": " << d.name << "\n"
      << "  compute capability: " << d.compute_capability_major << "." << d.compute_capability_minor
      << ", " << d.multiprocessors << " multiprocessors\n"
      << "  copy engines (asyncEngineCount): " << d.copy_engines << "\n"
      << "  concurrent kernels: " << yes_no(d.concurrent_kernels)
      << ", can map host memory: " << yes_no(d.can_map_host_memory)
      << ", unified addressing: " << yes_no(d.unified_addressing)
      << ", pageable memory access: " << yes_no(d.pageable_memory_access) << "\n"
      << "  paper 001 category: " << describe(d.category()) << "\n"
      << "  PCIe: " << d.pcie.describe();
  if (d.pcie.generation > 0)
    out << " (now Gen" << d.pcie.generation << " x" << d.pcie.width << ")";
  out << ", bus " << d.pci_bus_id << "\n"
      << "  driver: " << d.driver_version << " (CUDA driver " << cuda_version(d.cuda_driver_version)
      << ", runtime " << cuda_version(d.cuda_runtime_version) << ")\n";
  if (!d.nvml_problem.empty())
    out << "  NVML: " << d.nvml_problem << "\n";
  return out.str();
}

} // namespace overlap
