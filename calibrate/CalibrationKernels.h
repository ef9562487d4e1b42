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

// One pass over `bytes` of mapped host memory, `mapped` its device pointer, in elements of
// `element_bytes` (1, 2, 4, 8 or 16; `bytes` a multiple of it) over `blocks` blocks of 256
// threads, thread i of the grid touching element i, then i + grid size, ...: a warp asks for 32
// consecutive elements at once, as `out[i] = f(in[i])` over uchar, short, float, double or
// float4 does. The traffic of the Mapped and Hybrid variants. Reads are folded into
// sink[blockIdx.x] (one per block) so they are not optimized away.
Status launchMappedTraffic(MappedAccess access, int elementBytes, void* mapped, std::size_t bytes,
                           unsigned long long* sink, int blocks, cudaStream_t stream);

} // namespace overlap::calibration
