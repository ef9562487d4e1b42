#include "overlap/HostMemoryKind.h"

#include <cuda_runtime_api.h>

namespace overlap {

HostMemoryKind classifyHostMemory(const void* pointer) {
  cudaPointerAttributes attributes{};
  if (cudaPointerGetAttributes(&attributes, pointer) != cudaSuccess) {
    (void)cudaGetLastError();
    return HostMemoryKind::Pageable;
  }
  switch (attributes.type) {
  case cudaMemoryTypeHost:
    return HostMemoryKind::Pinned;
  case cudaMemoryTypeDevice:
    return HostMemoryKind::Device;
  case cudaMemoryTypeManaged:
    return HostMemoryKind::Managed;
  case cudaMemoryTypeUnregistered:
  default:
    return HostMemoryKind::Pageable;
  }
}

} // namespace overlap
