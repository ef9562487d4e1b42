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
  for (const LayoutArray& array : arrays)
    layout.elementSize.push_back(array.elementSize);
  return layout;
}

} // namespace

std::size_t DeviceLayout::totalBytes() const {
  std::size_t total = residentBytes;
  for (int s = 0; s < slots; ++s)
    add(&total, slotBytes);
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
                        const std::vector<ArrayTransferNeeds>& needs, int chunks, int slots) {
  assert(needs.size() == arrays.size() && chunks >= 1 && slots >= 1);
  DeviceLayout layout = emptyLayout(arrays);
  layout.ring = true;
  layout.slots = std::min(slots, chunks);
  layout.windows.assign(static_cast<std::size_t>(chunks), std::vector<Section>(arrays.size()));
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
    if (anyNonEmpty(need.broadcast) && layout.unwindowable < 0)
      layout.unwindowable = static_cast<int>(i);
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
