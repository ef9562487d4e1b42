#include "DeviceNvml.h"

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

std::string describeFailure(ErrorStringFn errorString, const char* call, NvmlReturn code) {
  const std::string reason =
      errorString ? std::string(errorString(code)) : "NVML error " + std::to_string(code);
  return std::string(call) + " failed: " + reason;
}

} // namespace

NvmlDeviceInfo queryNvml(const std::string& pciBusId) {
  NvmlDeviceInfo info;
  NvmlLibrary library;
  if (!library.loaded()) {
    info.problem = "libnvidia-ml.so.1 could not be loaded";
    return info;
  }
  auto init = library.symbol<InitFn>("nvmlInit_v2");
  auto shutdown = library.symbol<ShutdownFn>("nvmlShutdown");
  auto errorString = library.symbol<ErrorStringFn>("nvmlErrorString");
  auto byBusId = library.symbol<HandleByBusIdFn>("nvmlDeviceGetHandleByPciBusId_v2");
  auto driverVersion = library.symbol<DriverVersionFn>("nvmlSystemGetDriverVersion");
  if (!init || !shutdown || !byBusId || !driverVersion) {
    info.problem = "libnvidia-ml.so.1 lacks nvmlInit_v2, nvmlShutdown, "
                   "nvmlDeviceGetHandleByPciBusId_v2 or nvmlSystemGetDriverVersion";
    return info;
  }
  NvmlReturn status = init();
  if (status != kNvmlSuccess) {
    info.problem = describeFailure(errorString, "nvmlInit_v2", status);
    return info;
  }

  char version[96] = {};
  status = driverVersion(version, sizeof(version));
  if (status == kNvmlSuccess)
    info.driverVersion = version;
  else
    info.problem = describeFailure(errorString, "nvmlSystemGetDriverVersion", status);

  NvmlDevice device = nullptr;
  status = byBusId(pciBusId.c_str(), &device);
  if (status != kNvmlSuccess) {
    info.problem = describeFailure(errorString, "nvmlDeviceGetHandleByPciBusId_v2", status);
  } else {
    const struct {
      const char* name;
      int* target;
    } queries[] = {{"nvmlDeviceGetCurrPcieLinkGeneration", &info.pcie.generation},
                   {"nvmlDeviceGetCurrPcieLinkWidth", &info.pcie.width},
                   {"nvmlDeviceGetMaxPcieLinkGeneration", &info.pcie.maxGeneration},
                   {"nvmlDeviceGetMaxPcieLinkWidth", &info.pcie.maxWidth}};
    for (const auto& query : queries) {
      auto fn = library.symbol<UnsignedQueryFn>(query.name);
      unsigned int value = 0;
      const NvmlReturn result = fn ? fn(device, &value) : -1;
      if (result == kNvmlSuccess)
        *query.target = static_cast<int>(value);
      else if (info.problem.empty())
        info.problem = fn ? describeFailure(errorString, query.name, result)
                          : std::string(query.name) + " not found in libnvidia-ml.so.1";
    }
  }
  shutdown();
  return info;
}

} // namespace overlap::detail
