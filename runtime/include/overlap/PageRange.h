// The page ranges a call's host arrays occupy. CUDA registers whole pages and refuses to register
// a page twice, so arrays that share a page (several arrays carved from one allocation, or two
// arrays whose ends meet inside a page) must be registered as one range. Pure address arithmetic,
// no CUDA: HostArrayPinning.h and RegistrationCache.h build on it.
#pragma once

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

// The pages [begin, end) of `bytes` bytes at `host`.
PageRange pagesOf(const void* host, std::size_t bytes, std::size_t pageSize);

// Groups the arrays whose index is in `candidates` (nonempty ones) into disjoint page ranges:
// arrays whose page ranges overlap share one range. Sorted by address.
std::vector<PageRange> groupPageRanges(const std::vector<HostArrayUse>& uses,
                                       const std::vector<int>& candidates, std::size_t pageSize);

// The host's page size (sysconf), 4096 where it cannot be asked.
std::size_t hostPageSize();

} // namespace overlap
