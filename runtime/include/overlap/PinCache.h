// The process's registration cache (RegistrationCache.h), which calls with
// PageableMode::CachedRegister share, and what users do with it. OVERLAP_PIN_CACHE configures it
// (PinCacheSettings.h); it is read once, at the first call that asks.
//
// The contract, as cuFile's for its buffer registration: a pageable buffer a call pinned through
// the cache stays registered after the call, so before the buffer is freed (delete, free, a
// vector's destruction or growth, munmap) it is unpinned:
//
//   std::vector<float> x(n), y(n);
//   {
//     overlap::UnpinGuard unpinX(x.data(), x.size() * sizeof(float)); // ends before x does
//     overlap::UnpinGuard unpinY(y.data(), y.size() * sizeof(float));
//     for (int step = 0; step < steps; ++step)
//       saxpy_descriptor.run(args, config);  // config.streams.pageable = CachedRegister
//   }
//
// A buffer freed while registered leaves the driver pinning its old pages; a later allocation at
// the same address would be copied from and to those. The cache notices before reusing an entry
// when the registration is gone or some page is unmapped or was never touched since (it
// registers the range again), not when the address was reused and written: a process that cannot
// keep the contract leaves CachedRegister alone or sets OVERLAP_PIN_CACHE=off.
#pragma once

#include "overlap/HostArrayPinning.h"
#include "overlap/KernelTypes.h"
#include "overlap/PinCacheSettings.h"
#include "overlap/RegistrationCache.h"
#include "overlap/Status.h"

#include <cstddef>

namespace overlap {

// OVERLAP_PIN_CACHE as read at the first use (a malformed value is reported on stderr once).
const PinCacheSettings& pinCacheSettings();

// The process's cache, created on first use; null when OVERLAP_PIN_CACHE=off. Never destroyed
// (RegistrationCache.h says why).
RegistrationCache* processRegistrationCache();

// What a call does with its pageable arrays, given what it asked for: Register, CachedRegister or
// Stage (Default and CachedRegister resolved by OVERLAP_PIN_CACHE).
PageableMode resolvePageableMode(PageableMode asked);

// How a call whose mode resolved to `mode` pins its arrays (HostArrayPinning.h). Under Stage,
// the arrays kernels address (Hybrid's outputs) are registered as Default says.
PinningPolicy pinningPolicy(PageableMode mode);

// Unregisters the cached registrations overlapping [pointer, pointer + bytes), waiting for calls
// in flight that use them. The default of one byte unpins the registration holding the pointer's
// page; a buffer that calls used in parts is unpinned with its whole size. Nothing happens for
// memory the cache does not hold. The first cudaHostUnregister failure is returned.
Status unpin(const void* pointer, std::size_t bytes = 1);

// unpin() of every cached registration.
Status unpinAll();

// Unpins its range when it ends: declared after the buffer, it ends before the buffer is freed.
class UnpinGuard {
public:
  UnpinGuard(const void* pointer, std::size_t bytes) : pointer_(pointer), bytes_(bytes) {}
  UnpinGuard(const UnpinGuard&) = delete;
  UnpinGuard& operator=(const UnpinGuard&) = delete;
  ~UnpinGuard() { (void)unpin(pointer_, bytes_); }

private:
  const void* pointer_;
  std::size_t bytes_;
};

// The process cache's counters (all 0 when it is off or unused).
RegistrationCacheStats registrationCacheStats();

} // namespace overlap
