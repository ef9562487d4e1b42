// Makes the user's arrays usable for one strategy call: pageable arrays are page-locked with
// cudaHostRegister for the call's duration, so that their copies run asynchronously (Streams,
// Hybrid) and kernels can address them (Mapped; Hybrid's outputs).
//
// Cost: registering pins every page of the range, which takes time of the order of a pageable
// copy of the same bytes, and unregistering is not free either; a pageable array thus pays about
// one extra copy per call. Users who call repeatedly should allocate their arrays pinned (for
// example overlap::PinnedBuffer, cudaMallocHost, or one cudaHostRegister of their own): pinned,
// device and managed memory is used as is and costs nothing here. The Explicit strategy never
// pins (its copies are synchronous anyway).
//
// Several arrays may lie in one allocation, or share a page at their ends; CUDA registers whole
// pages and refuses to register a page twice, so the page ranges of all pageable arrays are
// merged where they overlap and each merged range is registered once.
#pragma once

#include "overlap/host_memory_kind.h"
#include "overlap/host_registration.h"
#include "overlap/status.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace overlap {

struct HostArrayUse {
  const void* host = nullptr;
  std::size_t bytes = 0;
  bool written = false; // the call writes it: never registered read-only
  bool mapped = false;  // kernels address it: pinning it is required, not an optimization
};

// A page-aligned range [begin, end) covering the arrays listed, all of which it registers.
struct PageRange {
  std::uintptr_t begin = 0;
  std::uintptr_t end = 0;
  bool written = false; // some member is written
  bool mapped = false;  // some member is mapped
  std::vector<int> arrays;
};

// Groups the arrays whose index is in `candidates` (nonempty ones) into disjoint page ranges:
// arrays whose page ranges overlap share one range. Sorted by address.
std::vector<PageRange> group_page_ranges(const std::vector<HostArrayUse>& uses,
                                         const std::vector<int>& candidates, std::size_t page_size);

class HostArrayPinning {
public:
  // Classifies every array and registers the pageable ones. A range with a mapped member that
  // cannot be registered is an error; any other registration failure leaves its arrays pageable
  // (copies from them stay correct, only synchronous). A page range somebody else registered
  // meanwhile (cudaErrorHostMemoryAlreadyRegistered) counts as pinned. Input-only ranges are
  // registered read-only where the device supports it, and read-only as a second try where the
  // plain registration fails (memory the process mapped read-only).
  Status pin(const std::vector<HostArrayUse>& uses, bool read_only_supported);

  // Where kernels address array i: its mapped device pointer. Set for arrays used as mapped.
  void* device_pointer(int i) const { return device_pointers_[static_cast<std::size_t>(i)]; }
  // Copies to and from array i can run asynchronously (it is pinned, device or managed memory).
  bool page_locked(int i) const { return page_locked_[static_cast<std::size_t>(i)]; }

  // Unregisters what pin() registered; the first failure is returned. Call it only once nothing
  // issued on the arrays still runs.
  Status release();
  ~HostArrayPinning() { (void)release(); }

private:
  Status register_range(const PageRange& range, bool read_only_supported, bool* locked);

  std::vector<HostRegistration> registrations_;
  std::vector<void*> device_pointers_;
  std::vector<bool> page_locked_;
};

} // namespace overlap
