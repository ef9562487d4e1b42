// What the hand-written test bindings share with generated glue.
#pragma once

#include "overlap/launch.cuh"
#include "overlap/status.h"

#include <cuda_runtime_api.h>

namespace overlap::test {

// The status of the launch just issued (configuration errors, and earlier asynchronous faults).
inline Status launch_status(const char* call) {
  const cudaError_t error = cudaGetLastError();
  if (error != cudaSuccess)
    return Status{error, call, __FILE__, __LINE__};
  return Status::success();
}

} // namespace overlap::test
