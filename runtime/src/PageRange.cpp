#include "overlap/PageRange.h"

#include <unistd.h>

#include <algorithm>

namespace overlap {

PageRange pagesOf(const void* host, std::size_t bytes, std::size_t pageSize) {
  const auto first = reinterpret_cast<std::uintptr_t>(host);
  PageRange range;
  range.begin = first / pageSize * pageSize;
  range.end = (first + bytes + pageSize - 1) / pageSize * pageSize;
  return range;
}

std::vector<PageRange> groupPageRanges(const std::vector<HostArrayUse>& uses,
                                       const std::vector<int>& candidates, std::size_t pageSize) {
  std::vector<PageRange> ranges;
  for (int i : candidates) {
    const HostArrayUse& use = uses[static_cast<std::size_t>(i)];
    if (use.bytes == 0)
      continue;
    PageRange range = pagesOf(use.host, use.bytes, pageSize);
    range.written = use.written;
    range.mapped = use.mapped;
    range.arrays.push_back(i);
    ranges.push_back(std::move(range));
  }
  std::sort(ranges.begin(), ranges.end(),
            [](const PageRange& a, const PageRange& b) { return a.begin < b.begin; });
  std::vector<PageRange> merged;
  for (PageRange& range : ranges) {
    // Only overlapping ranges merge: touching ones may belong to different allocations, and a
    // registration spanning the boundary could include pages that are not mapped at all.
    if (!merged.empty() && range.begin < merged.back().end) {
      PageRange& last = merged.back();
      last.end = std::max(last.end, range.end);
      last.written = last.written || range.written;
      last.mapped = last.mapped || range.mapped;
      last.arrays.insert(last.arrays.end(), range.arrays.begin(), range.arrays.end());
    } else {
      merged.push_back(std::move(range));
    }
  }
  for (PageRange& range : merged)
    std::sort(range.arrays.begin(), range.arrays.end());
  return merged;
}

std::size_t hostPageSize() {
  static const std::size_t size = [] {
    const long value = sysconf(_SC_PAGESIZE);
    return value > 0 ? static_cast<std::size_t>(value) : std::size_t{4096};
  }();
  return size;
}

} // namespace overlap
