#include "overlap/host_registration.h"

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

Status HostRegistration::register_range(void* begin, std::size_t bytes, unsigned flags,
                                        HostRegistration* out) {
  (void)out->release();
  const cudaError_t error = cudaHostRegister(begin, bytes, flags);
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
  void* const begin = std::exchange(begin_, nullptr);
  bytes_ = 0;
  OVERLAP_CUDA_TRY(cudaHostUnregister(begin));
  return Status::success();
}

} // namespace overlap
