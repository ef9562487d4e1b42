#include "overlap/StreamOrderedMemory.h"

namespace overlap {

Status StreamOrderedMemory::create() {
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = device_;
  OVERLAP_CUDA_TRY(cudaMemPoolCreate(&pool_, &props));
  unsigned long long unlimited = ~0ULL; // the attribute is a cuuint64_t
  const cudaError_t error = OVERLAP_CUDA_CALL(
      cudaMemPoolSetAttribute(pool_, cudaMemPoolAttrReleaseThreshold, &unlimited));
  if (error != cudaSuccess) {
    (void)cudaMemPoolDestroy(pool_);
    pool_ = nullptr;
    return OVERLAP_STATUS_OF(
        cudaMemPoolSetAttribute(pool_, cudaMemPoolAttrReleaseThreshold, &unlimited), error);
  }
  return Status::success();
}

Status StreamOrderedMemory::allocate(std::size_t bytes, cudaStream_t stream, void** block) {
  if (pool_ == nullptr)
    OVERLAP_TRY(create());
  OVERLAP_CUDA_TRY(cudaMallocFromPoolAsync(block, bytes, pool_, stream));
  largest_ = bytes > largest_ ? bytes : largest_;
  return Status::success();
}

Status StreamOrderedMemory::free(void* block, cudaStream_t stream) {
  if (block == nullptr)
    return Status::success();
  OVERLAP_CUDA_TRY(cudaFreeAsync(block, stream));
  return Status::success();
}

Status StreamOrderedMemory::trim() {
  if (pool_ == nullptr)
    return Status::success();
  OVERLAP_CUDA_TRY(cudaMemPoolTrimTo(pool_, 0));
  largest_ = 0;
  return Status::success();
}

} // namespace overlap
