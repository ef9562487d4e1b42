// The kernels the calibration launches, callable from host C++ (implemented in a .cu file).
#pragma once

#include "overlap/status.h"

#include <cuda_runtime_api.h>

#include <cstddef>

namespace overlap::calibration {

// One thread that spins until the host sets *open to non-zero through mapped memory, so work
// queued behind it starts only once the host has issued all of it; after `timeout_ns` it gives up
// and sets *timed_out, which the caller turns into an error. Both pointers are device pointers of
// mapped host memory.
Status launch_gate(const int* open, int* timed_out, long long timeout_ns, cudaStream_t stream);

// Does nothing: what launch overhead is measured with (paper 002 §4.1.3).
Status launch_empty(cudaStream_t stream);

// Read or write `bytes` of mapped host memory (a device pointer of it), 16 bytes per access,
// over `blocks` blocks: the traffic of the Mapped and Hybrid variants. The read kernel folds what
// it reads into sink[blockIdx.x] so the loads are not optimized away.
Status launch_mapped_read(const void* mapped, std::size_t bytes, unsigned long long* sink,
                          int blocks, cudaStream_t stream);
Status launch_mapped_write(void* mapped, std::size_t bytes, int blocks, cudaStream_t stream);

constexpr int kMappedKernelThreads = 256;

} // namespace overlap::calibration
