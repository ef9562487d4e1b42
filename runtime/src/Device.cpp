#include "overlap/Device.h"

#include "DeviceNvml.h"

#include <cctype>
#include <fstream>
#include <sstream>
#include <string>

namespace overlap {

bool hasImplicitSynchronization(int computeCapabilityMajor, int computeCapabilityMinor) {
  return computeCapabilityMajor < 3 || (computeCapabilityMajor == 3 && computeCapabilityMinor < 5);
}

DeviceCategory categorizeDevice(int computeCapabilityMajor, int computeCapabilityMinor,
                                int copyEngines) {
  if (copyEngines <= 0)
    return DeviceCategory::NoConcurrentCopy;
  // Paper 001 puts the Tesla C2050 (2 copy engines) in category 1 too: implicit synchronization
  // decides the overlap such a device can reach, not its copy engines.
  if (hasImplicitSynchronization(computeCapabilityMajor, computeCapabilityMinor))
    return DeviceCategory::ImplicitSynchronization;
  return copyEngines == 1 ? DeviceCategory::OneCopyEngine : DeviceCategory::TwoCopyEngines;
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
  return "Gen" + std::to_string(maxGeneration) + " x" + std::to_string(maxWidth);
}

std::string currentDeviceName() {
  int device = 0;
  cudaDeviceProp properties{};
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaGetDeviceProperties(&properties, device) != cudaSuccess) {
    cudaGetLastError();
    return "";
  }
  return properties.name;
}

namespace {

// The NUMA node and local CPUs of the device's PCI function (sysfs names it in lower case).
void readHostPlacement(DeviceDescription* d) {
  std::string bus = d->pciBusId;
  for (char& c : bus)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const std::string dir = "/sys/bus/pci/devices/" + bus + "/";
  std::ifstream node(dir + "numa_node");
  if (!(node >> d->numaNode))
    d->numaNode = -1;
  std::ifstream cpus(dir + "local_cpulist");
  std::getline(cpus, d->localCpus);
}

} // namespace

Status describeDevice(int device, DeviceDescription* description) {
  DeviceDescription d;
  d.ordinal = device;
  cudaDeviceProp properties{};
  OVERLAP_CUDA_TRY(cudaGetDeviceProperties(&properties, device));
  d.name = properties.name;
  d.computeCapabilityMajor = properties.major;
  d.computeCapabilityMinor = properties.minor;
  d.multiprocessors = properties.multiProcessorCount;
  d.copyEngines = properties.asyncEngineCount;
  d.concurrentKernels = properties.concurrentKernels != 0;
  d.canMapHostMemory = properties.canMapHostMemory != 0;
  d.unifiedAddressing = properties.unifiedAddressing != 0;
  d.pageableMemoryAccess = properties.pageableMemoryAccess != 0;
  OVERLAP_CUDA_TRY(cudaDriverGetVersion(&d.cudaDriverVersion));
  OVERLAP_CUDA_TRY(cudaRuntimeGetVersion(&d.cudaRuntimeVersion));

  char busId[32] = {};
  OVERLAP_CUDA_TRY(cudaDeviceGetPCIBusId(busId, static_cast<int>(sizeof(busId)), device));
  d.pciBusId = busId;
  detail::NvmlDeviceInfo nvml = detail::queryNvml(d.pciBusId);
  d.pcie = nvml.pcie;
  d.driverVersion = nvml.driverVersion.empty() ? "unknown" : nvml.driverVersion;
  d.nvmlProblem = nvml.problem;
  readHostPlacement(&d);

  *description = std::move(d);
  return Status::success();
}

namespace {
std::string cudaVersion(int version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}
const char* yesNo(bool value) {
  return value ? "yes" : "no";
}
} // namespace

std::string toText(const DeviceDescription& d) {
  std::ostringstream out;
  out << "device " << d.ordinal << ": " << d.name << "\n"
      << "  compute capability: " << d.computeCapabilityMajor << "." << d.computeCapabilityMinor
      << ", " << d.multiprocessors << " multiprocessors\n"
      << "  copy engines (asyncEngineCount): " << d.copyEngines << "\n"
      << "  concurrent kernels: " << yesNo(d.concurrentKernels)
      << ", can map host memory: " << yesNo(d.canMapHostMemory)
      << ", unified addressing: " << yesNo(d.unifiedAddressing)
      << ", pageable memory access: " << yesNo(d.pageableMemoryAccess) << "\n"
      << "  paper 001 category: " << describe(d.category()) << "\n"
      << "  PCIe: " << d.pcie.describe();
  if (d.pcie.generation > 0)
    out << " (now Gen" << d.pcie.generation << " x" << d.pcie.width << ")";
  out << ", bus " << d.pciBusId << "\n"
      << "  host: NUMA node " << (d.numaNode >= 0 ? std::to_string(d.numaNode) : "unknown")
      << ", CPUs " << (d.localCpus.empty() ? "unknown" : d.localCpus) << "\n"
      << "  driver: " << d.driverVersion << " (CUDA driver " << cudaVersion(d.cudaDriverVersion)
      << ", runtime " << cudaVersion(d.cudaRuntimeVersion) << ")\n";
  if (!d.nvmlProblem.empty())
    out << "  NVML: " << d.nvmlProblem << "\n";
  return out.str();
}

} // namespace overlap
