// OVERLAP_PIN_CACHE, which says whether the process's registration cache (PinCache.h) is used
// and how many bytes it keeps registered. CUDA-free, so that its parsing is unit-tested.
//
//   unset        calls that ask for PageableMode::CachedRegister use the cache, with the default
//                budget; Default calls register per call
//   on           every call with pageable arrays uses the cache (Default means CachedRegister)
//   <bytes>      the same, with this budget: 268435456, 512M, 4G, 1.5GiB (K, M, G, T: powers of
//                1024; a trailing B or iB is accepted)
//   off, 0       no cache: CachedRegister means Register
#pragma once

#include <cstddef>
#include <string>

namespace overlap {

struct PinCacheSettings {
  bool enabled = true;    // false: no cache at all
  bool everyCall = false; // PageableMode::Default means CachedRegister
  std::size_t budgetBytes = 0;
  std::string error; // a malformed value: why it was ignored (the defaults hold)
};

// A quarter of the physical memory: pinned pages can be neither swapped nor migrated, so the
// cache must leave the system most of its memory (NVIDIA warns that page-locking too much
// degrades the whole system), while a quarter still holds the working set of any loop whose
// arrays fit the GPU's memory on the machines Overlap targets (an H100 node: 80 GB of GPU
// memory, 1-2 TB of host memory). Arrays beyond the budget are still registered for their call.
std::size_t defaultPinCacheBudget(std::size_t physicalBytes);

// `value` is the variable's value, null when it is unset.
PinCacheSettings parsePinCacheSetting(const char* value, std::size_t physicalBytes);

// The host's physical memory (sysconf), 0 where it cannot be asked.
std::size_t physicalMemoryBytes();

} // namespace overlap
