#include "overlap/DeviceLayout.h"

#include <algorithm>
#include <cassert>
#include <cstdint>

namespace overlap {
namespace {

std::size_t alignUp(std::size_t bytes) {
  return (bytes + kDeviceBufferAlignment - 1) / kDeviceBufferAlignment * kDeviceBufferAlignment;
}

std::size_t fullBytes(const LayoutArray& array) {
  return static_cast<std::size_t>(array.extent) * array.elementSize;
}

// Saturating: a sum past SIZE_MAX stays SIZE_MAX, which no budget admits.
void add(std::size_t* total, std::size_t bytes) {
  *total = bytes > SIZE_MAX - *total ? SIZE_MAX : *total + bytes;
}

bool anyNonEmpty(const std::vector<Section>& sections) {
  return std::any_of(sections.begin(), sections.end(), [](const Section& s) { return !s.empty(); });
}

// Where element `begin` of a window sits after the aligned start of its place: the element's
// own offset modulo the alignment, as in a full buffer.
std::size_t misalignment(long long begin, std::size_t elementSize) {
  return static_cast<std::size_t>(begin) * elementSize % kDeviceBufferAlignment;
}

// The layout's per-array vectors, every array on the host to begin with.
DeviceLayout emptyLayout(const std::vector<LayoutArray>& arrays) {
  DeviceLayout layout;
  layout.placement.assign(arrays.size(), ArrayPlacement::Host);
  layout.offset.assign(arrays.size(), 0);
  layout.residentPages.assign(arrays.size(), {});
  layout.residentElements.assign(arrays.size(), {});
  layout.slotPages.assign(arrays.size(), 0);
  layout.reservedPages.assign(arrays.size(), 0);
  for (const LayoutArray& array : arrays)
    layout.elementSize.push_back(array.elementSize);
  return layout;
}

// The pages that hold elements [begin, end) of an array of `elementSize` bytes.
PageRun pagesOf(Section elements, std::size_t elementSize, std::size_t pageBytes) {
  if (elements.empty())
    return {};
  const auto page = static_cast<long long>(pageBytes);
  const auto size = static_cast<long long>(elementSize);
  return {elements.begin * size / page, (elements.end * size + page - 1) / page};
}

// A window's pages less the resident ones: one run, or false where the window reaches past the
// resident pages on both sides.
bool ownPages(PageRun window, PageRun resident, PageRun* own) {
  if (window.empty() || resident.empty() || window.end <= resident.begin ||
      window.begin >= resident.end) {
    *own = window;
    return true;
  }
  const bool before = window.begin < resident.begin;
  const bool after = window.end > resident.end;
  if (before && after)
    return false;
  *own = before  ? PageRun{window.begin, resident.begin}
         : after ? PageRun{resident.end, window.end}
                 : PageRun{};
  return true;
}

// Makes array i paged, or says why it cannot be (layout.unwindowable, layout.why).
void page(DeviceLayout& layout, std::size_t i, const LayoutArray& array,
          const ArrayTransferNeeds& need, int chunks) {
  const auto refuse = [&](const char* why) {
    if (layout.unwindowable < 0) {
      layout.unwindowable = static_cast<int>(i);
      layout.why = why;
    }
  };
  if (layout.pageBytes == 0)
    return refuse("it has broadcast sections beside its chunked ones, which the kernel addresses "
                  "through one pointer, and the device maps no pages of virtual memory");
  if (need.copyOut)
    return refuse("an output with broadcast sections beside its chunked ones");
  if (layout.pageBytes % array.elementSize != 0)
    return refuse("its element size does not divide the device's page size, which paging it "
                  "needs beside its broadcast sections");
  const std::vector<Section> broadcast = mergeSections(need.broadcast);
  const PageRun resident =
      pagesOf({broadcast.front().begin, broadcast.back().end}, array.elementSize, layout.pageBytes);
  const long long perPage = static_cast<long long>(layout.pageBytes / array.elementSize);
  layout.placement[i] = ArrayPlacement::Paged;
  layout.reservedPages[i] = pagesOf({0, array.extent}, array.elementSize, layout.pageBytes).end;
  layout.residentPages[i] = resident;
  layout.residentElements[i] =
      clip({resident.begin * perPage, resident.end * perPage}, array.extent);
  for (int c = 0; c < chunks; ++c) {
    const Section window = layout.windows[static_cast<std::size_t>(c)][i];
    PageRun own;
    if (!ownPages(pagesOf(window, array.elementSize, layout.pageBytes), resident, &own))
      return refuse("a chunk's window reaches past its broadcast sections on both sides");
    layout.chunkPages[static_cast<std::size_t>(c)][i] = own;
    layout.slotPages[i] = std::max(layout.slotPages[i], own.size());
  }
}

} // namespace

std::size_t DeviceLayout::pagedBytes(int array) const {
  const std::size_t i = static_cast<std::size_t>(array);
  if (placement[i] != ArrayPlacement::Paged)
    return 0;
  const double pages = static_cast<double>(residentPages[i].size()) +
                       static_cast<double>(slots) * static_cast<double>(slotPages[i]);
  const double bytes = pages * static_cast<double>(pageBytes);
  return bytes >= static_cast<double>(SIZE_MAX) ? SIZE_MAX : static_cast<std::size_t>(bytes);
}

std::size_t DeviceLayout::blockBytes() const {
  std::size_t total = residentBytes;
  for (int s = 0; s < slots; ++s)
    add(&total, slotBytes);
  return total;
}

std::size_t DeviceLayout::totalBytes() const {
  std::size_t total = blockBytes();
  for (std::size_t i = 0; i < placement.size(); ++i)
    add(&total, pagedBytes(static_cast<int>(i)));
  return total;
}

void* DeviceLayout::base(void* block, int array, int chunk) const {
  const std::size_t i = static_cast<std::size_t>(array);
  const auto address = reinterpret_cast<std::uintptr_t>(block);
  switch (placement[i]) {
  case ArrayPlacement::Host:
    return nullptr;
  case ArrayPlacement::Resident:
    return reinterpret_cast<void*>(address + offset[i]);
  case ArrayPlacement::Paged:
    assert(false && "a paged array's addresses are its PagedArrays'");
    return nullptr;
  case ArrayPlacement::Windowed:
    break;
  }
  assert(ring && chunk >= 0 && "a windowed array has no buffer outside its chunks");
  const Section window = windows[static_cast<std::size_t>(chunk)][i];
  const std::size_t slot = static_cast<std::size_t>(chunk % slots);
  const std::size_t windowStart = residentBytes + slot * slotBytes + offset[i];
  // Element `window.begin` lies at windowStart + its misalignment; element 0, out of the window,
  // where the same arithmetic puts it (unsigned, so it wraps like the kernel's own pointer
  // arithmetic does).
  const std::size_t begin = static_cast<std::size_t>(window.begin) * elementSize[i];
  return reinterpret_cast<void*>(address + windowStart + begin % kDeviceBufferAlignment - begin);
}

PageRun slotMapping(PageRun own, PageRun resident, long long slotPages) {
  if (own.empty())
    return {};
  assert(own.size() <= slotPages && "a chunk's own pages exceed its slot's allocation");
  if (own.begin >= resident.end)
    return {own.begin, own.begin + slotPages};
  assert(own.end <= resident.begin && "a chunk's own pages overlap the resident ones");
  return {own.end - slotPages, own.end};
}

DeviceLayout fullLayout(const std::vector<LayoutArray>& arrays) {
  DeviceLayout layout = emptyLayout(arrays);
  for (std::size_t i = 0; i < arrays.size(); ++i) {
    if (!arrays[i].onDevice)
      continue;
    layout.placement[i] = ArrayPlacement::Resident;
    layout.offset[i] = layout.residentBytes;
    add(&layout.residentBytes, alignUp(fullBytes(arrays[i])));
  }
  return layout;
}

DeviceLayout ringLayout(const std::vector<LayoutArray>& arrays,
                        const std::vector<ArrayTransferNeeds>& needs, int chunks, int slots,
                        std::size_t pageBytes) {
  assert(needs.size() == arrays.size() && chunks >= 1 && slots >= 1);
  DeviceLayout layout = emptyLayout(arrays);
  layout.ring = true;
  layout.slots = std::min(slots, chunks);
  layout.pageBytes = pageBytes;
  layout.windows.assign(static_cast<std::size_t>(chunks), std::vector<Section>(arrays.size()));
  layout.chunkPages.assign(static_cast<std::size_t>(chunks), std::vector<PageRun>(arrays.size()));
  std::vector<std::size_t> capacity(arrays.size(), 0);
  for (std::size_t i = 0; i < arrays.size(); ++i) {
    if (!arrays[i].onDevice)
      continue;
    const ArrayTransferNeeds& need = needs[i];
    bool chunked = false;
    for (int c = 0; c < chunks && !chunked; ++c)
      chunked = anyNonEmpty(need.chunked[static_cast<std::size_t>(c)]);
    if (!chunked) {
      layout.placement[i] = ArrayPlacement::Resident;
      layout.offset[i] = layout.residentBytes;
      add(&layout.residentBytes, alignUp(fullBytes(arrays[i])));
      continue;
    }
    layout.placement[i] = ArrayPlacement::Windowed;
    for (int c = 0; c < chunks; ++c) {
      const std::vector<Section> merged = mergeSections(need.chunked[static_cast<std::size_t>(c)]);
      if (merged.empty())
        continue;
      const Section hull{merged.front().begin, merged.back().end};
      layout.windows[static_cast<std::size_t>(c)][i] = hull;
      capacity[i] =
          std::max(capacity[i], misalignment(hull.begin, arrays[i].elementSize) +
                                    static_cast<std::size_t>(hull.size()) * arrays[i].elementSize);
    }
    if (anyNonEmpty(need.broadcast))
      page(layout, i, arrays[i], need, chunks);
  }
  for (std::size_t i = 0; i < arrays.size(); ++i) {
    if (layout.placement[i] != ArrayPlacement::Windowed)
      continue;
    layout.offset[i] = layout.slotBytes;
    add(&layout.slotBytes, alignUp(capacity[i]));
  }
  return layout;
}

} // namespace overlap
