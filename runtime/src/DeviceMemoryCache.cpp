#include "overlap/DeviceMemoryCache.h"

#include <cuda_runtime_api.h>

namespace overlap {

Status DeviceMemoryCache::reserve(std::size_t bytes, void** base) {
  if (bytes <= capacity_ && base_ != nullptr) {
    *base = base_;
    return Status::success();
  }
  OVERLAP_TRY(release());
  if (bytes == 0) {
    *base = nullptr;
    return Status::success();
  }
  void* block = nullptr;
  const cudaError_t error = OVERLAP_CUDA_CALL(cudaMalloc(&block, bytes));
  if (error != cudaSuccess) {
    // Out of memory is not sticky: clear it so the caller's later checks see only their own.
    (void)cudaGetLastError();
    return OVERLAP_STATUS_OF(cudaMalloc(&block, bytes), error);
  }
  base_ = block;
  capacity_ = bytes;
  *base = block;
  return Status::success();
}

Status DeviceMemoryCache::release() {
  if (base_ == nullptr)
    return Status::success();
  // Forgotten only once freed: a block whose cudaFree failed is still allocated, and a later
  // release() tries again instead of leaking it.
  OVERLAP_CUDA_TRY(cudaFree(base_));
  base_ = nullptr;
  capacity_ = 0;
  return Status::success();
}

} // namespace overlap
