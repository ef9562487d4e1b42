// The device memory of asynchronous calls (K_<variant>_async): allocated and freed in the order of
// the caller's stream (cudaMallocFromPoolAsync, cudaFreeAsync), so that every call in flight has
// buffers of its own while the synchronous calls keep their one cached block (DeviceMemoryCache.h),
// and a buffer is reused only once the work of the call that freed it is done. The pool is the
// device's own, not the device's default pool, whose settings belong to the program; its release
// threshold is unlimited, so that a loop of calls reuses its memory instead of mapping it anew
// after every synchronization, until releaseCachedDeviceMemory() trims it.
#pragma once

#include "overlap/Status.h"

#include <cuda_runtime_api.h>

#include <cstddef>

namespace overlap {

class StreamOrderedMemory {
public:
  explicit StreamOrderedMemory(int device) : device_(device) {}
  StreamOrderedMemory(const StreamOrderedMemory&) = delete;
  StreamOrderedMemory& operator=(const StreamOrderedMemory&) = delete;
  // Keeps the pool, for the reason DeviceMemoryCache keeps its memory.
  ~StreamOrderedMemory() = default;

  // `bytes` (> 0) of the current device (this object's), usable by work ordered after what
  // `stream` holds now.
  Status allocate(std::size_t bytes, cudaStream_t stream, void** block);
  // Gives `block` back once the work `stream` holds now is done.
  Status free(void* block, cudaStream_t stream);
  // Returns to the device what no call holds (the memory of calls in flight stays theirs).
  Status trim();
  // A lower bound of what the pool holds from the device (in use or kept): the largest block it
  // handed out since it was last trimmed. Counted here, since a stream being captured into a graph
  // may not ask the pool (cudaMemPoolGetAttribute invalidates the capture).
  std::size_t heldBytes() const { return largest_; }

private:
  Status create();

  const int device_;
  cudaMemPool_t pool_ = nullptr;
  std::size_t largest_ = 0;
};

} // namespace overlap
