// What kind of memory a user's pointer refers to, which decides whether a strategy may copy from
// it asynchronously or map it as is, or must pin it first.
#pragma once

namespace overlap {

enum class HostMemoryKind : unsigned char {
  Pageable, // ordinary malloc/new/stack memory: copies are staged, kernels cannot read it
  Pinned,   // cudaMallocHost/cudaHostAlloc or cudaHostRegister'ed: DMA-able and mappable
  Device,   // cudaMalloc'ed: kernels read it directly, copies are device to device
  Managed   // cudaMallocManaged: kernels read it directly
};

// Asks cudaPointerGetAttributes. Unknown pointers are pageable: CUDA 11+ reports them as
// cudaMemoryTypeUnregistered, older drivers fail with cudaErrorInvalidValue; that failure is
// cleared from the runtime's last-error state so later status checks do not see it. (Clearing also
// drops an unrelated error the caller left unchecked; such an error is asynchronous or sticky and
// shows again at the next synchronization, which every strategy performs.)
HostMemoryKind classifyHostMemory(const void* pointer);

} // namespace overlap
