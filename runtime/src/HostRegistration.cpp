#include "overlap/HostRegistration.h"

#include <cuda_runtime_api.h>

#include <utility>

namespace overlap {

HostRegistration::HostRegistration(HostRegistration&& other) noexcept
    : begin_(std::exchange(other.begin_, nullptr)), bytes_(std::exchange(other.bytes_, 0)) {}

HostRegistration& HostRegistration::operator=(HostRegistration&& other) noexcept {
  if (this != &other) {
    (void)release();
    begin_ = std::exchange(other.begin_, nullptr);
    bytes_ = std::exchange(other.bytes_, 0);
  }
  return *this;
}

HostRegistration::~HostRegistration() {
  (void)release();
}

Status HostRegistration::registerRange(void* begin, std::size_t bytes, unsigned flags,
                                       HostRegistration* out) {
  (void)out->release();
  const cudaError_t error = OVERLAP_CUDA_CALL(cudaHostRegister(begin, bytes, flags));
  if (error != cudaSuccess) {
    (void)cudaGetLastError();
    return OVERLAP_STATUS_OF(cudaHostRegister(begin, bytes, flags), error);
  }
  out->begin_ = begin;
  out->bytes_ = bytes;
  return Status::success();
}

Status HostRegistration::release() {
  if (begin_ == nullptr)
    return Status::success();
  // Forgotten only once unregistered: after a failure the range stays pinned, and a later
  // release() (the destructor's, at the latest) tries again instead of leaving it pinned for good.
  const cudaError_t error = OVERLAP_CUDA_CALL(cudaHostUnregister(begin_));
  if (error != cudaSuccess) {
    (void)cudaGetLastError();
    return OVERLAP_STATUS_OF(cudaHostUnregister(begin_), error);
  }
  begin_ = nullptr;
  bytes_ = 0;
  return Status::success();
}

} // namespace overlap
