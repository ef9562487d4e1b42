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
// merged where they overlap and each merged range is registered once (PageRange.h).
#pragma once

#include "overlap/HostMemoryKind.h"
#include "overlap/HostRegistration.h"
#include "overlap/PageRange.h"
#include "overlap/RegistrationCache.h"
#include "overlap/Status.h"

#include <vector>

namespace overlap {

// How pin() treats pageable arrays: the strategy's PageableMode, resolved (PinCache.h).
struct PinningPolicy {
  // The process's registration cache, null when it is off. Arrays whose pages it holds go through
  // it whatever the mode: they are registered already, and holding them keeps another call from
  // unregistering them during this one.
  RegistrationCache* cache = nullptr;
  bool cacheEveryArray = false; // CachedRegister: every pageable array through the cache
  bool stageCopied = false;     // Stage: pageable arrays kernels do not address stay pageable
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
  Status pin(const std::vector<HostArrayUse>& uses, bool readOnlySupported,
             const PinningPolicy& policy = {});

  // Where kernels address array i: its mapped device pointer. Set for arrays used as mapped.
  void* devicePointer(int i) const { return devicePointers_[static_cast<std::size_t>(i)]; }
  // Copies to and from array i can run asynchronously (it is pinned, device or managed memory).
  bool pageLocked(int i) const { return pageLocked_[static_cast<std::size_t>(i)]; }
  // Array i is pageable and left to the staging ring (PinningPolicy::stageCopied).
  bool staged(int i) const { return staged_[static_cast<std::size_t>(i)]; }

  // Unregisters what pin() registered for the call and lets go of the cached registrations it
  // holds; the first failure is returned. Call it only once nothing issued on the arrays still
  // runs.
  Status release();
  ~HostArrayPinning() { (void)release(); }

private:
  Status registerRange(const PageRange& range, bool readOnlySupported, bool* locked);
  Status pinThroughCache(RegistrationCache& cache, const std::vector<PageRange>& ranges);

  std::vector<HostRegistration> registrations_;
  RegistrationCache::Hold cached_;
  std::vector<void*> devicePointers_;
  std::vector<bool> pageLocked_;
  std::vector<bool> staged_;
};

} // namespace overlap
