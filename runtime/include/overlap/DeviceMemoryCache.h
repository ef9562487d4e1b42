// Device memory reused across strategy calls: one allocation per device that only grows, so
// repeated calls pay neither cudaMalloc nor cudaFree (which synchronizes the whole device).
#pragma once

#include "overlap/Status.h"

#include <cstddef>

namespace overlap {

class DeviceMemoryCache {
public:
  DeviceMemoryCache() = default;
  DeviceMemoryCache(const DeviceMemoryCache&) = delete;
  DeviceMemoryCache& operator=(const DeviceMemoryCache&) = delete;
  // Keeps the memory: the cache lives as long as the process, whose end releases it (freeing in
  // a static destructor could run after the CUDA runtime itself was torn down).
  ~DeviceMemoryCache() = default;

  // *base gets at least `bytes` bytes of the current device, valid until the next reserve() or
  // release(). Growing frees the old block first, so nothing may still use it. When cudaMalloc
  // fails the cache is empty; when freeing the old block fails the cache keeps it.
  Status reserve(std::size_t bytes, void** base);
  // Frees the block; when cudaFree fails the cache keeps it, to be freed by a later release().
  Status release();
  std::size_t capacity() const { return capacity_; }
  // The whole block, for scribbleCachedDeviceMemory (DeviceContext.h).
  void* block() const { return base_; }

private:
  void* base_ = nullptr;
  std::size_t capacity_ = 0;
};

} // namespace overlap
