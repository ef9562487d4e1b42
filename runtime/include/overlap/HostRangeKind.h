// What a host range is, for a caller that picks its strategy by the memory it was given (a tuned
// call dispatching on pinned or pageable arrays): CUDA's view of the pointer, and whether the
// process's registration cache (PinCache.h) is what pinned it.
#pragma once

#include <cstddef>

namespace overlap {

enum class HostRangeKind : unsigned char {
  Pageable, // ordinary memory nobody registered
  Pinned,   // cudaMallocHost / cudaHostAlloc, or registered by the user
  Cached,   // pageable memory the registration cache holds registered: pinned for now
  Device,   // cudaMalloc
  Managed   // cudaMallocManaged
};

// Cheap: a look-up in the cache (under its lock, no CUDA call) and, for ranges it does not hold,
// one cudaPointerGetAttributes (about a microsecond) on the first byte. Partly cached ranges are
// Cached. A null pointer or an empty range is Pageable.
HostRangeKind classifyHostRange(const void* pointer, std::size_t bytes);

const char* to_string(HostRangeKind kind);

} // namespace overlap
