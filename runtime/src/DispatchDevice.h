// The device a dispatch (Dispatch.h) chooses for: the current CUDA device, whose name is read once
// per device ordinal, or a device given by name (tests, tools). Each has a small id that the kept
// choices are keyed by. Private to the runtime.
#pragma once

#include <string>

namespace overlap::detail {

struct DispatchDevice {
  unsigned id = 0;  // 0: no device could be asked (no GPU, no driver)
  std::string name; // CUDA device name; "" for id 0
};

// The current device (cudaGetDevice per call, nothing more once its ordinal is known).
const DispatchDevice& currentDispatchDevice();
// A device of this name, whatever the current one is; the same object for the same name.
const DispatchDevice& namedDispatchDevice(const std::string& name);

} // namespace overlap::detail
