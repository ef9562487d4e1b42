#include "device_nvml.h"

#include <dlfcn.h>

namespace overlap::detail {

namespace {

// The few NVML entry points used, declared by hand: nvml.h is not part of every toolkit
// installation, and these signatures are part of NVML's stable C ABI.
using NvmlReturn = int;
constexpr NvmlReturn kNvmlSuccess = 0;
using NvmlDevice = struct NvmlDeviceOpaque*;

using InitFn = NvmlReturn (*)();
using ShutdownFn = NvmlReturn (*)();
using ErrorStringFn = const char* (*)(NvmlReturn);
using HandleByBusIdFn = NvmlReturn (*)(const char*, NvmlDevice*);
using UnsignedQueryFn = NvmlReturn (*)(NvmlDevice, unsigned int*);
using DriverVersionFn = NvmlReturn (*)(char*, unsigned int);

class NvmlLibrary {
public:
  NvmlLibrary() { handle_ = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL); }
  ~NvmlLibrary() {
    if (handle_)
      dlclose(handle_);
  }
  NvmlLibrary(const NvmlLibrary&) = delete;
  NvmlLibrary& operator=(const NvmlLibrary&) = delete;

  bool loaded() const { return handle_ != nullptr; }

  template <class Fn> Fn symbol(const char* name) const {
    return reinterpret_cast<Fn>(dlsym(handle_, name));
  }

private:
  void* handle_ = nullptr;
};

std::string describe_failure(ErrorStringFn error_string, const char* call, NvmlReturn code) {
  const std::string reason =
      error_string ? std::string(error_string(code)) : "NVML error " + std::to_string(code);
  return std::string(call) + " failed: " + reason;
}

} // namespace

NvmlDeviceInfo query_nvml(const std::string& pci_bus_id) {
  NvmlDeviceInfo info;
  NvmlLibrary library;
  if (!library.loaded()) {
    info.problem = "libnvidia-ml.so.1 could not be loaded";
    return info;
  }
  auto init = library.symbol<InitFn>("nvmlInit_v2");
  auto shutdown = library.symbol<ShutdownFn>("nvmlShutdown");
  auto error_string = library.symbol<ErrorStringFn>("nvmlErrorString");
  auto by_bus_id = library.symbol<HandleByBusIdFn>("nvmlDeviceGetHandleByPciBusId_v2");
  auto driver_version = library.symbol<DriverVersionFn>("nvmlSystemGetDriverVersion");
  if (!init || !shutdown || !by_bus_id || !driver_version) {
    info.problem = "libnvidia-ml.so.1 lacks nvmlInit_v2, nvmlShutdown, "
                   "nvmlDeviceGetHandleByPciBusId_v2 or nvmlSystemGetDriverVersion";
    return info;
  }
  NvmlReturn status = init();
  if (status != kNvmlSuccess) {
    info.problem = describe_failure(error_string, "nvmlInit_v2", status);
    return info;
  }

  char version[96] = {};
  status = driver_version(version, sizeof(version));
  if (status == kNvmlSuccess)
    info.driver_version = version;
  else
    info.problem = describe_failure(error_string, "nvmlSystemGetDriverVersion", status);

  NvmlDevice device = nullptr;
  status = by_bus_id(pci_bus_id.c_str(), &device);
  if (status != kNvmlSuccess) {
    info.problem = describe_failure(error_string, "nvmlDeviceGetHandleByPciBusId_v2", status);
  } else {
    const struct {
      const char* name;
      int* target;
    } queries[] = {{"nvmlDeviceGetCurrPcieLinkGeneration", &info.pcie.generation},
                   {"nvmlDeviceGetCurrPcieLinkWidth", &info.pcie.width},
                   {"nvmlDeviceGetMaxPcieLinkGeneration", &info.pcie.max_generation},
                   {"nvmlDeviceGetMaxPcieLinkWidth", &info.pcie.max_width}};
    for (const auto& query : queries) {
      auto fn = library.symbol<UnsignedQueryFn>(query.name);
      unsigned int value = 0;
      const NvmlReturn result = fn ? fn(device, &value) : -1;
      if (result == kNvmlSuccess)
        *query.target = static_cast<int>(value);
      else if (info.problem.empty())
        info.problem = fn ? describe_failure(error_string, query.name, result)
                          : std::string(query.name) + " not found in libnvidia-ml.so.1";
    }
  }
  shutdown();
  return info;
}

} // namespace overlap::detail
