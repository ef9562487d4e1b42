#include "overlap/PinnedBuffer.h"

#include <utility>

namespace overlap {

PinnedBuffer::PinnedBuffer(PinnedBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), bytes_(std::exchange(other.bytes_, 0)) {}

PinnedBuffer& PinnedBuffer::operator=(PinnedBuffer&& other) noexcept {
  if (this != &other) {
    (void)reset();
    data_ = std::exchange(other.data_, nullptr);
    bytes_ = std::exchange(other.bytes_, 0);
  }
  return *this;
}

PinnedBuffer::~PinnedBuffer() {
  (void)reset();
}

Status PinnedBuffer::allocate(std::size_t bytes, PinnedBuffer* out, unsigned flags) {
  OVERLAP_TRY(out->reset());
  if (bytes == 0)
    return Status::success();
  void* data = nullptr;
  OVERLAP_CUDA_TRY(cudaHostAlloc(&data, bytes, flags));
  out->data_ = data;
  out->bytes_ = bytes;
  return Status::success();
}

Status PinnedBuffer::reset() {
  if (data_ == nullptr)
    return Status::success();
  void* const data = std::exchange(data_, nullptr);
  bytes_ = 0;
  OVERLAP_CUDA_TRY(cudaFreeHost(data));
  return Status::success();
}

} // namespace overlap
