#include "overlap/CudaPageRegistrar.h"

#include "overlap/PageRange.h"

#include <cuda_runtime_api.h>
#include <sys/mman.h>

#include <algorithm>
#include <vector>

namespace overlap {

HostMemoryKind CudaPageRegistrar::classify(const void* pointer) {
  return classifyHostMemory(pointer);
}

Status CudaPageRegistrar::registerPages(void* begin, std::size_t bytes, bool readOnly) {
  const unsigned flags = cudaHostRegisterMapped | cudaHostRegisterPortable |
                         (readOnly ? cudaHostRegisterReadOnly : 0u);
  const cudaError_t error = OVERLAP_CUDA_CALL(cudaHostRegister(begin, bytes, flags));
  if (error != cudaSuccess) {
    (void)cudaGetLastError();
    return OVERLAP_STATUS_OF(cudaHostRegister(begin, bytes, flags), error);
  }
  return Status::success();
}

Status CudaPageRegistrar::unregisterPages(void* begin) {
  const cudaError_t error = OVERLAP_CUDA_CALL(cudaHostUnregister(begin));
  if (error != cudaSuccess) {
    (void)cudaGetLastError();
    return OVERLAP_STATUS_OF(cudaHostUnregister(begin), error);
  }
  return Status::success();
}

bool CudaPageRegistrar::stillRegistered(void* begin) {
  unsigned flags = 0;
  if (cudaHostGetFlags(&flags, begin) != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  return true;
}

bool CudaPageRegistrar::pagesResident(void* begin, std::size_t bytes) {
  const std::size_t page = hostPageSize();
  // In windows of 64 Ki pages (256 MiB of 4 KiB pages), so that the vector stays small.
  constexpr std::size_t kWindowPages = 64 * 1024;
  std::vector<unsigned char> resident(std::min(kWindowPages, (bytes + page - 1) / page));
  auto* const first = static_cast<unsigned char*>(begin);
  for (std::size_t offset = 0; offset < bytes; offset += kWindowPages * page) {
    const std::size_t length = std::min(bytes - offset, kWindowPages * page);
    if (mincore(first + offset, length, resident.data()) != 0)
      return false; // ENOMEM: some page is not mapped any more
    const std::size_t pages = (length + page - 1) / page;
    for (std::size_t i = 0; i < pages; ++i)
      if ((resident[i] & 1) == 0)
        return false;
  }
  return true;
}

} // namespace overlap
