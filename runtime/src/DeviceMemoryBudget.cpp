#include "overlap/DeviceMemoryBudget.h"

#include "overlap/ByteSize.h"

#include <cuda_runtime_api.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>

namespace overlap {
namespace {

std::atomic<std::size_t> processBudget{0};

std::size_t environmentBudget() {
  static const std::size_t bytes = [] {
    const DeviceMemoryBudgetSetting setting =
        parseDeviceMemoryBudgetSetting(std::getenv("OVERLAP_DEVICE_MEMORY_BUDGET"));
    if (!setting.error.empty())
      std::fprintf(stderr, "overlap: %s\n", setting.error.c_str());
    return setting.bytes;
  }();
  return bytes;
}

} // namespace

void setDeviceMemoryBudget(std::size_t bytes) {
  processBudget.store(bytes, std::memory_order_relaxed);
}

DeviceMemoryBudgetSetting parseDeviceMemoryBudgetSetting(const char* value) {
  DeviceMemoryBudgetSetting setting;
  if (value == nullptr || *value == '\0')
    return setting;
  if (!parseMemorySize(value, &setting.bytes))
    setting.error = std::string("OVERLAP_DEVICE_MEMORY_BUDGET='") + value +
                    "' is not a size such as 2G or 512MiB; the automatic budget holds";
  return setting;
}

Status resolveDeviceMemoryBudget(std::size_t asked, std::size_t held, std::size_t needed,
                                 DeviceMemoryBudget* budget) {
  if (asked > 0) {
    *budget = {asked, "StreamsConfig::deviceMemoryBudget"};
    return Status::success();
  }
  if (const std::size_t process = processBudget.load(std::memory_order_relaxed); process > 0) {
    *budget = {process, "setDeviceMemoryBudget"};
    return Status::success();
  }
  if (const std::size_t environment = environmentBudget(); environment > 0) {
    *budget = {environment, "OVERLAP_DEVICE_MEMORY_BUDGET"};
    return Status::success();
  }
  if (needed <= held) {
    *budget = {held, "device memory Overlap holds"};
    return Status::success();
  }
  std::size_t free = 0;
  std::size_t total = 0;
  OVERLAP_CUDA_TRY(cudaMemGetInfo(&free, &total));
  const std::size_t available = free + held;
  *budget = {available > kDeviceMemoryMargin ? available - kDeviceMemoryMargin : 0,
             "free device memory less 256 MiB; OVERLAP_DEVICE_MEMORY_BUDGET sets another"};
  return Status::success();
}

Status overBudget(const std::string& what, std::size_t needed, const DeviceMemoryBudget& budget,
                  const std::string& advice) {
  return {cudaErrorMemoryAllocation,
          persistentText(what + " needs " + formatBytes(static_cast<double>(needed)) +
                         " of device memory; the budget is " +
                         formatBytes(static_cast<double>(budget.bytes)) + " (" + budget.source +
                         ")" + advice),
          __FILE__, __LINE__};
}

} // namespace overlap
