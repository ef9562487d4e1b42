// Page-locked host memory from cudaHostAlloc, freed when the object ends: what a user allocates
// once to avoid the per-call pinning of pageable arrays (HostArrayPinning.h).
#pragma once

#include "overlap/Status.h"

#include <cuda_runtime_api.h>

#include <cstddef>

namespace overlap {

class PinnedBuffer {
public:
  // Portable: usable from every device. Mapped: kernels of the Mapped and Hybrid strategies can
  // address it without a registration.
  static constexpr unsigned kDefaultFlags = cudaHostAllocPortable | cudaHostAllocMapped;

  PinnedBuffer() = default;
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  PinnedBuffer(PinnedBuffer&& other) noexcept;
  PinnedBuffer& operator=(PinnedBuffer&& other) noexcept;
  ~PinnedBuffer(); // frees, ignoring a failure; reset() reports it

  // Replaces *out's memory by `bytes` new bytes (none for 0).
  static Status allocate(std::size_t bytes, PinnedBuffer* out, unsigned flags = kDefaultFlags);

  Status reset(); // frees now

  void* data() const { return data_; }
  std::size_t bytes() const { return bytes_; }
  template <class T> T* as() const { return static_cast<T*>(data_); }

private:
  void* data_ = nullptr;
  std::size_t bytes_ = 0;
};

} // namespace overlap
