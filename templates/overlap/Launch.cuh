// Launch-configuration helpers for generated glue: a grid sized for grid-stride kernels and
// checked narrowing of the annotation's grid/block expressions to the unsigned dim3 fields (a
// grid dimension may be 0: nothing to launch for that chunk).
#pragma once

#include "overlap/Status.h"

#include <cuda_runtime.h>

#include <climits>
#include <cstddef>

namespace overlap {

// The largest grid.x CUDA accepts, and the bound checked_dim applies by default.
constexpr long long kMaxGridX = 2147483647LL;

// Stores v into *out when 1 <= v <= max. Otherwise returns cudaErrorInvalidConfiguration with
// `what` as the status's call text, so the message names the dimension and its expression; `what`
// must outlive the status (generated glue passes a string literal). For block dimensions (and
// any other that must not be zero); grid dimensions use checked_grid_dim.
inline Status checkedDim(long long v, long long max, const char* what, unsigned* out) {
  if (v < 1 || v > max)
    return Status{cudaErrorInvalidConfiguration, what, __FILE__, __LINE__};
  *out = static_cast<unsigned>(v);
  return Status::success();
}

inline Status checkedDim(long long v, const char* what, unsigned* out) {
  return checkedDim(v, kMaxGridX, what, out);
}

// A grid dimension: stores v into *out when 0 <= v <= max, otherwise fails as checked_dim does.
// Zero is a grid without blocks, not an error: the chunk holds nothing for the kernel to do (as
// `grid: len / 256` says of a chunk of 100), and launch() launches nothing and succeeds
// (LaunchConfig::empty()). A negative value still means the expression is wrong for the data.
inline Status checkedGridDim(long long v, long long max, const char* what, unsigned* out) {
  if (v == 0) {
    *out = 0;
    return Status::success();
  }
  return checkedDim(v, max, what, out);
}

// The status of the launch just issued, named `call` ("saxpy<<<...>>>"): configuration errors and
// earlier asynchronous faults. Fault injection (FaultInjection.h, test builds) may fail it under
// that name; the launch error state is cleared either way, so an injected launch fault leaves no
// real error pending behind it (the kernel itself may have been queued, as with a real
// asynchronous fault).
inline Status launchStatus(const char* call) {
#if OVERLAP_FAULT_INJECTION
  const cudaError_t injected = fault::intercept(call);
#else
  const cudaError_t injected = cudaSuccess;
#endif
  const cudaError_t error = cudaGetLastError();
  if (injected != cudaSuccess)
    return Status{injected, call, __FILE__, __LINE__};
  if (error != cudaSuccess)
    return Status{error, call, __FILE__, __LINE__};
  return Status::success();
}

// The launch configuration of one chunk, as the generated binding's launchConfig() computes it
// for both its launch() and the descriptor's launchGeometry(), so the two cannot disagree.
struct LaunchConfig {
  dim3 grid;
  dim3 block;
  std::size_t sharedBytes = 0;
  bool gridStride = false;

  // A grid of no blocks (checked_grid_dim): launch() returns success without launching.
  bool empty() const { return grid.x == 0 || grid.y == 0 || grid.z == 0; }
};

// The dynamic shared memory every kernel may use; more must be opted into per kernel.
constexpr std::size_t kDefaultDynamicSharedBytes = 48 * 1024;

// Opts `kernel` into `sharedBytes` of dynamic shared memory where that is over the default
// (attention and row-cached softmax kernels take 64 KiB and more): without it every launch would
// fail. A request beyond the device's opt-in limit fails here, naming the call.
template <class K> Status allowDynamicShared(K kernel, std::size_t sharedBytes) {
  if (sharedBytes <= kDefaultDynamicSharedBytes)
    return Status::success();
  if (sharedBytes > static_cast<std::size_t>(INT_MAX))
    return Status{cudaErrorInvalidValue,
                  "cudaFuncSetAttribute(cudaFuncAttributeMaxDynamicSharedMemorySize): the shared "
                  "memory asked for is over 2 GiB",
                  __FILE__, __LINE__};
  OVERLAP_CUDA_TRY(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        static_cast<int>(sharedBytes)));
  return Status::success();
}

// Blocks of `kernel` one multiprocessor keeps resident at this block size and dynamic shared
// memory; a kernel none of whose blocks fits is a configuration error.
template <class K>
Status residentBlocksPerMultiprocessor(K kernel, int blockThreads, std::size_t sharedBytes,
                                       int* blocks) {
  int resident = 0;
  OVERLAP_CUDA_TRY(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, kernel, blockThreads, sharedBytes));
  if (resident < 1)
    return Status{cudaErrorInvalidConfiguration,
                  "cudaOccupancyMaxActiveBlocksPerMultiprocessor: no block of this size and "
                  "shared memory fits on a multiprocessor",
                  __FILE__, __LINE__};
  *blocks = resident;
  return Status::success();
}

// A grid for a grid-stride kernel: as many blocks as the device keeps resident at once (SMs times
// the occupancy of `kernel` at this block size and dynamic shared memory), so every block is
// resident and loops over the range instead of waiting for a slot.
template <class K>
Status gridStrideGrid(K kernel, int blockThreads, std::size_t sharedBytes, unsigned* grid) {
  int device = 0;
  OVERLAP_CUDA_TRY(cudaGetDevice(&device));
  int multiprocessors = 0;
  OVERLAP_CUDA_TRY(
      cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
  int blocksPerMultiprocessor = 0;
  OVERLAP_TRY(
      residentBlocksPerMultiprocessor(kernel, blockThreads, sharedBytes, &blocksPerMultiprocessor));
  *grid = static_cast<unsigned>(multiprocessors) * static_cast<unsigned>(blocksPerMultiprocessor);
  return Status::success();
}

} // namespace overlap
