#include "DispatchDevice.h"

#include <cuda_runtime_api.h>

#include <atomic>
#include <map>
#include <memory>
#include <mutex>

namespace overlap::detail {
namespace {

constexpr int kMaxOrdinals = 64;

// Created on first use and never destroyed, as the choices that refer to it.
struct Devices {
  std::mutex mutex;
  std::atomic<const DispatchDevice*> byOrdinal[kMaxOrdinals] = {};
  // By "<ordinal>:<name>" for current devices (two GPUs of one model are two devices), by "=name"
  // for named ones.
  std::map<std::string, std::unique_ptr<DispatchDevice>> interned;
  const DispatchDevice none{};
};

Devices& devices() {
  static Devices* const instance = new Devices;
  return *instance;
}

const DispatchDevice& intern(Devices& table, const std::string& key, const std::string& name) {
  std::unique_ptr<DispatchDevice>& device = table.interned[key];
  if (!device)
    device.reset(new DispatchDevice{static_cast<unsigned>(table.interned.size()), name});
  return *device;
}

} // namespace

const DispatchDevice& currentDispatchDevice() {
  Devices& table = devices();
  int ordinal = 0;
  if (cudaGetDevice(&ordinal) != cudaSuccess) {
    cudaGetLastError(); // no device: the call itself will report it
    return table.none;
  }
  if (ordinal < 0 || ordinal >= kMaxOrdinals)
    return table.none;
  if (const DispatchDevice* known = table.byOrdinal[ordinal].load(std::memory_order_acquire))
    return *known;
  cudaDeviceProp properties{};
  const bool described = cudaGetDeviceProperties(&properties, ordinal) == cudaSuccess;
  if (!described)
    cudaGetLastError();
  const std::lock_guard<std::mutex> lock(table.mutex);
  // A device that cannot be described now will not be later in this process.
  const DispatchDevice& device =
      described ? intern(table, std::to_string(ordinal) + ":" + properties.name, properties.name)
                : table.none;
  table.byOrdinal[ordinal].store(&device, std::memory_order_release);
  return device;
}

const DispatchDevice& namedDispatchDevice(const std::string& name) {
  Devices& table = devices();
  const std::lock_guard<std::mutex> lock(table.mutex);
  return intern(table, "=" + name, name);
}

} // namespace overlap::detail
