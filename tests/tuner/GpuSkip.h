// Why the GPU tests cannot run here (empty when a CUDA device is present), and the skip that
// names it.
#pragma once

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <string>

namespace overlap::tune::testing {

inline std::string gpuUnavailableReason() {
  int count = 0;
  const cudaError_t code = cudaGetDeviceCount(&count);
  if (code != cudaSuccess) {
    cudaGetLastError();
    return std::string("no CUDA device: cudaGetDeviceCount failed: ") + cudaGetErrorName(code);
  }
  return count == 0 ? "no CUDA device: cudaGetDeviceCount returned 0" : "";
}

} // namespace overlap::tune::testing

#define SKIP_WITHOUT_GPU()                                                                         \
  do {                                                                                             \
    const std::string reason = ::overlap::tune::testing::gpuUnavailableReason();                   \
    if (!reason.empty())                                                                           \
      GTEST_SKIP() << reason;                                                                      \
  } while (0)
