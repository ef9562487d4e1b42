// The kernels the calibration launches, callable from host C++ (implemented in a .cu file).
// Each launch first clears the runtime's record of an earlier, already reported error, so the
// status it returns is the launch's own.
#pragma once

#include "overlap/Status.h"

#include <cuda_runtime_api.h>

#include <cstddef>

namespace overlap::calibration {

// One thread that spins until the host sets *open to non-zero through mapped memory, so work
// queued behind it starts only once the host has issued all of it; after `timeoutNs` it gives up
// and sets *timedOut, which the caller turns into an error. Both pointers are device pointers of
// mapped host memory.
Status launchGate(const int* open, int* timedOut, long long timeoutNs, cudaStream_t stream);

// Does nothing: what launch overhead is measured with (paper 002 §4.1.3).
Status launchEmpty(cudaStream_t stream);

enum class MappedAccess : unsigned char { Read, Write };

// Reads or writes `bytes` of mapped host memory (`mapped` is its device pointer), 16 bytes per
// access, over `blocks` blocks: the traffic of the Mapped and Hybrid variants. Reads are folded
// into sink[blockIdx.x] so they are not optimized away. With `stop` null the kernel makes one
// pass; otherwise it repeats passes until the host sets *stop (a device pointer of mapped
// memory), so its traffic lasts as long as whatever it is meant to disturb, and gives up after
// `timeoutNs`, setting *timedOut.
struct MappedTraffic {
  MappedAccess access = MappedAccess::Read;
  void* mapped = nullptr;
  std::size_t bytes = 0;
  unsigned long long* sink = nullptr;
  int blocks = 1;
  const int* stop = nullptr;
  int* timedOut = nullptr;
  long long timeoutNs = 0;
};
Status launchMappedTraffic(const MappedTraffic& traffic, cudaStream_t stream);

// One pass over `bytes` of mapped host memory in elements of `element_bytes` (1, 2, 4, 8 or 16),
// thread i of the grid touching element i, then i + grid size, ...: a warp asks for 32
// consecutive elements at once, as `out[i] = f(in[i])` over uchar, short, float, double or float4
// does. Reads are folded into sink[blockIdx.x]. `bytes` must be a multiple of the width.
struct MappedWidthTraffic {
  MappedAccess access = MappedAccess::Read;
  int elementBytes = 16;
  void* mapped = nullptr;
  std::size_t bytes = 0;
  unsigned long long* sink = nullptr;
  int blocks = 1;
};
Status launchMappedWidthTraffic(const MappedWidthTraffic& traffic, cudaStream_t stream);

// One pass that reads `bytes` of one mapped host buffer and writes `bytes` of another, 16-byte
// elements, thread i reading element i of `in` and writing element i of `out`, then i + grid
// size, ...: `out[i] = f(in[i])`, so reads and writes cross the link both ways at once, in the
// proportion a kernel with one input and one output moves them. Each stored value depends on
// the loaded one, so neither can be elided. `in` and `out` are device pointers of mapped host
// memory and must not overlap; `bytes` must be a multiple of 16.
struct MappedBothWaysTraffic {
  const void* in = nullptr;
  void* out = nullptr;
  std::size_t bytes = 0;
  int blocks = 1;
};
Status launchMappedBothWays(const MappedBothWaysTraffic& traffic, cudaStream_t stream);

constexpr int kMappedKernelThreads = 256;

} // namespace overlap::calibration
