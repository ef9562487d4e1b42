// Makes the user's arrays usable for one strategy call: pageable arrays are page-locked with
// cudaHostRegister, so that their copies run asynchronously (Streams, Hybrid) and kernels can
// address them (Mapped; Hybrid's outputs), for the call's duration or through the process's
// registration cache (PinningPolicy); or, for the staging ring (PageableMode::Stage), left
// pageable.
//
// Cost: registering pins every page of the range, which takes time of the order of a pageable
// copy of the same bytes, and unregistering is not free either; a pageable array registered per
// call thus pays about one extra copy per call. Users who call repeatedly allocate their arrays
// pinned (for example overlap::PinnedBuffer, cudaMallocHost, or one cudaHostRegister of their
// own), or use the registration cache: pinned, device and managed memory is used as is and costs
// nothing here. The Explicit strategy never pins (its copies are synchronous anyway).
//
// Several arrays may lie in one allocation, or share a page at their ends; CUDA registers whole
// pages and refuses to register a page twice, so the page ranges of all pageable arrays are
// merged where they overlap and each merged range is registered once (page_range.h).
#pragma once

#include "overlap/host_memory_kind.h"
#include "overlap/host_registration.h"
#include "overlap/page_range.h"
#include "overlap/registration_cache.h"
#include "overlap/status.h"

#include <vector>

namespace overlap {

// How pin() treats pageable arrays: the strategy's PageableMode, resolved (pin_cache.h).
struct PinningPolicy {
  // The process's registration cache, null when it is off. Arrays whose pages it holds go through
  // it whatever the mode: they are registered already, and holding them keeps another call from
  // unregistering them during this one.
  RegistrationCache* cache = nullptr;
  bool cache_every_array = false; // CachedRegister: every pageable array through the cache
  bool stage_copied = false;      // Stage: pageable arrays kernels do not address stay pageable
};

class HostArrayPinning {
public:
  // Classifies every array and registers the pageable ones (but those the policy stages). A range
  // with a mapped member that cannot be registered is an error; any other registration failure
  // leaves its arrays pageable (copies from them stay correct, only synchronous). A page range
  // somebody else registered meanwhile (cudaErrorHostMemoryAlreadyRegistered) counts as pinned.
  // Per call, input-only ranges are registered read-only where the device supports it, and
  // read-only as a second try where the plain registration fails (memory the process mapped
  // read-only); the cache registers them writable first, since a later call may write them.
  Status pin(const std::vector<HostArrayUse>& uses, bool read_only_supported,
             const PinningPolicy& policy = {});

  // Where kernels address array i: its mapped device pointer. Set for arrays used as mapped.
  void* device_pointer(int i) const { return device_pointers_[static_cast<std::size_t>(i)]; }
  // Copies to and from array i can run asynchronously (it is pinned, device or managed memory).
  bool page_locked(int i) const { return page_locked_[static_cast<std::size_t>(i)]; }
  // Array i is pageable and left to the staging ring (PinningPolicy::stage_copied).
  bool staged(int i) const { return staged_[static_cast<std::size_t>(i)]; }

  // Unregisters what pin() registered for the call and lets go of the cached registrations it
  // holds; the first failure is returned. Call it only once nothing issued on the arrays still
  // runs.
  Status release();
  ~HostArrayPinning() { (void)release(); }

private:
  Status register_range(const PageRange& range, bool read_only_supported, bool* locked);
  Status pin_through_cache(RegistrationCache& cache, const std::vector<PageRange>& ranges);

  std::vector<HostRegistration> registrations_;
  RegistrationCache::Hold cached_;
  std::vector<void*> device_pointers_;
  std::vector<bool> page_locked_;
  std::vector<bool> staged_;
};

} // namespace overlap
