// What the strategies keep per device between calls: the stream/event pool, the device memory
// cache, the staging ring's slots and threads, and the device's answers they consult on every
// call.
//
// Thread safety: one context per device, created on first use. A strategy call leases its
// device's context for the whole call (DeviceContextLease holds the context's mutex), because the
// cached device memory and the pooled streams belong to one call at a time. Calls on different
// devices run concurrently; calls on one device from several threads take turns.
#pragma once

#include "overlap/DeviceMemoryCache.h"
#include "overlap/GraphCache.h"
#include "overlap/StagingRing.h"
#include "overlap/Status.h"
#include "overlap/StreamEventPool.h"
#include "overlap/StreamOrderedMemory.h"

#include <cstddef>
#include <mutex>

namespace overlap {

class DeviceContext {
public:
  explicit DeviceContext(int device) : device_(device), staging_(device), asyncMemory_(device) {}
  DeviceContext(const DeviceContext&) = delete;
  DeviceContext& operator=(const DeviceContext&) = delete;

  int device() const { return device_; }
  StreamEventPool& pool() { return pool_; }
  DeviceMemoryCache& memory() { return memory_; }
  StagingResources& staging() { return staging_; }
  // The device memory of asynchronous calls, which outlives the lease (StreamOrderedMemory.h).
  StreamOrderedMemory& asyncMemory() { return asyncMemory_; }
  // Executable graphs of earlier calls (StreamsConfig::graph).
  GraphCache& graphs() { return graphs_; }
  // cudaDevAttrHostRegisterReadOnlySupported, asked once.
  Status readOnlyRegistrationSupported(bool* supported);
  // The device's page size for paged arrays (PagedArrays.h), 0 where it has none; asked once.
  Status pageBytes(std::size_t* bytes);

  // Both wait for the call holding the context, so neither may run inside a lease of it. Release
  // (of the device memory, the staging slots and what asynchronous calls no longer hold) makes
  // this context's device current (cudaFree must run there) and leaves it current.
  Status releaseMemoryWhenIdle();
  std::size_t cachedBytesWhenIdle();
  GraphCacheStats graphStatsWhenIdle();
  Status scribbleMemoryWhenIdle(unsigned char value);

private:
  friend class DeviceContextLease;

  const int device_;
  std::mutex mutex_;
  StreamEventPool pool_;
  DeviceMemoryCache memory_;
  StagingResources staging_;
  StreamOrderedMemory asyncMemory_;
  GraphCache graphs_;
  int readOnlySupported_ = -1; // -1: not asked yet
  std::size_t pageBytes_ = 0;
  bool pageBytesAsked_ = false;
};

// The current device's context, locked while the lease lives.
class DeviceContextLease {
public:
  DeviceContextLease() = default;
  DeviceContextLease(const DeviceContextLease&) = delete;
  DeviceContextLease& operator=(const DeviceContextLease&) = delete;

  // cudaGetDevice, then the context of that device (created on first use), then its lock.
  Status acquire();
  DeviceContext& context() const { return *context_; }

private:
  DeviceContext* context_ = nullptr;
  std::unique_lock<std::mutex> lock_;
};

// Frees the device memory, the staging slots and the graphs every context cached (waiting for
// synchronous calls in flight on each device; asynchronous ones keep their memory until their
// streams reach its end), so that the memory is the program's again. Streams and events stay
// pooled. The first failure is returned; the other devices are still released.
Status releaseCachedDeviceMemory();

// Bytes the current device's cache holds now (0 when the device was never used).
std::size_t cachedDeviceMemoryBytes();

// Debugging aid, like glibc's MALLOC_PERTURB_: overwrites every byte of the current device's
// cache with `value` (and waits for it), so that a strategy that forgets to copy an element reads
// garbage instead of whatever an earlier call left at the same place. The tests call it between
// runs; it is never needed for correct results.
Status scribbleCachedDeviceMemory(unsigned char value);

} // namespace overlap
