// How much device memory one strategy call may take. The first of: the call's own budget
// (StreamsConfig::deviceMemoryBudget), the process's (setDeviceMemoryBudget), the environment's
// OVERLAP_DEVICE_MEMORY_BUDGET (a size: 2G, 512MiB, 1073741824), else what the device has free
// plus what Overlap's cache already holds there, less kDeviceMemoryMargin. A call over its budget
// runs out of core (Streams, Hybrid: DeviceBuffers) or fails saying what it needs (Explicit).
#pragma once

#include "overlap/Status.h"

#include <cstddef>
#include <string>

namespace overlap {

// Left free by the automatic budget: the CUDA context grows on its own (a kernel's local memory,
// the printf buffer, libraries the program calls between Overlap calls).
constexpr std::size_t kDeviceMemoryMargin = std::size_t{256} << 20;

// The process's budget for every call that does not name its own; 0: back to the environment's,
// else the automatic one. Thread-safe.
void setDeviceMemoryBudget(std::size_t bytes);

// OVERLAP_DEVICE_MEMORY_BUDGET's value (null: unset) as bytes, 0 meaning automatic, and why a
// malformed value was ignored. CUDA-free, for the tests.
struct DeviceMemoryBudgetSetting {
  std::size_t bytes = 0;
  std::string error;
};
DeviceMemoryBudgetSetting parseDeviceMemoryBudgetSetting(const char* value);

struct DeviceMemoryBudget {
  std::size_t bytes = 0;
  const char* source = ""; // where `bytes` came from, for messages
};

// The budget of a call that asked for `asked` bytes (0: none of its own) on the current device,
// where Overlap's cache holds `held` bytes already. The automatic budget asks the device only
// when `needed` exceeds `held`: what is held fits by definition.
Status resolveDeviceMemoryBudget(std::size_t asked, std::size_t held, std::size_t needed,
                                 DeviceMemoryBudget* budget);

// A refused call's status: "<what> needs <needed> of device memory; the budget is <budget>
// (<source>)<advice>", as cudaErrorMemoryAllocation.
Status overBudget(const std::string& what, std::size_t needed, const DeviceMemoryBudget& budget,
                  const std::string& advice);

} // namespace overlap
