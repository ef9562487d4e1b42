// The out-of-core ring's layout (DeviceLayout.h) without a GPU: which arrays get windows, that
// every chunk's sections lie inside its slot's window, that no two windows of the ring overlap,
// that element e of a window sits where a full buffer puts it modulo the alignment, and what the
// ring costs against the full buffers.
#include "overlap/DeviceLayout.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace {

using overlap::ArrayPlacement;
using overlap::ArrayTransferNeeds;
using overlap::DeviceLayout;
using overlap::kDeviceBufferAlignment;
using overlap::LayoutArray;
using overlap::Partition;
using overlap::Section;

// Chunk c's sections of an array read as [lo * k - before, hi * k + after), clipped: a stencil's
// input (before = after = 0: a tiled array).
ArrayTransferNeeds rowsOf(const Partition& partition, int chunks, long long k, long long before,
                          long long after, bool out) {
  ArrayTransferNeeds need;
  need.copyIn = true;
  need.copyOut = out;
  const long long extent = (partition.begin + partition.extent) * k;
  for (int c = 0; c < chunks; ++c) {
    long long lo = 0;
    long long hi = 0;
    overlap::chunkBounds(partition, chunks, c, lo, hi);
    need.chunked.push_back({overlap::clip({lo * k - before, hi * k + after}, extent)});
  }
  return need;
}

// Where `array`'s element e lies for chunk c, as a byte address from a block at `block`.
std::uintptr_t elementAddress(const DeviceLayout& layout, std::uintptr_t block, int array, int c,
                              long long e) {
  const auto base =
      reinterpret_cast<std::uintptr_t>(layout.base(reinterpret_cast<void*>(block), array, c));
  return base +
         static_cast<std::uintptr_t>(e) * layout.elementSize[static_cast<std::size_t>(array)];
}

// Every element of every chunk's window lies in that chunk's slot, inside the array's window
// place of the slot, at the alignment a full buffer gives it; windows of one slot do not overlap.
void expectWindowsInSlots(const DeviceLayout& layout, const std::vector<LayoutArray>& arrays,
                          int chunks) {
  const std::uintptr_t block = 1 << 20; // any address aligned like cudaMalloc's
  for (int c = 0; c < chunks; ++c) {
    const std::size_t slot = static_cast<std::size_t>(c % layout.slots);
    const std::uintptr_t slotStart = block + layout.residentBytes + slot * layout.slotBytes;
    std::vector<std::pair<std::uintptr_t, std::uintptr_t>> taken;
    for (std::size_t i = 0; i < arrays.size(); ++i) {
      if (layout.placement[i] != ArrayPlacement::Windowed)
        continue;
      const Section window = layout.windows[static_cast<std::size_t>(c)][i];
      if (window.empty())
        continue;
      const int a = static_cast<int>(i);
      const std::uintptr_t first = elementAddress(layout, block, a, c, window.begin);
      const std::uintptr_t end = elementAddress(layout, block, a, c, window.end);
      EXPECT_GE(first, slotStart + layout.offset[i]) << "chunk " << c << " array " << i;
      EXPECT_LE(end, slotStart + layout.slotBytes) << "chunk " << c << " array " << i;
      EXPECT_EQ((first - block) % kDeviceBufferAlignment,
                static_cast<std::uintptr_t>(window.begin) * arrays[i].elementSize %
                    kDeviceBufferAlignment)
          << "chunk " << c << " array " << i;
      for (const auto& [b, e] : taken)
        EXPECT_TRUE(end <= b || first >= e) << "windows overlap in chunk " << c;
      taken.emplace_back(first, end);
    }
  }
}

TEST(DeviceLayout, FullBuffersAreAlignedAndHostArraysHaveNone) {
  const std::vector<LayoutArray> arrays = {{4, 1001, true}, {8, 3, false}, {2, 7, true}};
  const DeviceLayout layout = overlap::fullLayout(arrays);
  EXPECT_FALSE(layout.ring);
  EXPECT_EQ(layout.placement[1], ArrayPlacement::Host);
  EXPECT_EQ(layout.offset[0], 0u);
  EXPECT_EQ(layout.offset[2], 4096u); // 4004 bytes rounded up to 256
  EXPECT_EQ(layout.totalBytes(), 4096u + 256u);
  EXPECT_EQ(layout.base(reinterpret_cast<void*>(4096), 1, -1), nullptr);
}

TEST(DeviceLayout, RingWindowsTiledArraysAndKeepsBroadcastOnesResident) {
  const Partition partition{0, 1000, 1};
  const int chunks = 8;
  // x tiled in, y tiled in-out, b whole (a broadcast input such as matrix B).
  const std::vector<LayoutArray> arrays = {{4, 1000, true}, {4, 1000, true}, {8, 50, true}};
  std::vector<ArrayTransferNeeds> needs = {
      rowsOf(partition, chunks, 1, 0, 0, false), rowsOf(partition, chunks, 1, 0, 0, true), {}};
  needs[2].copyIn = true;
  needs[2].broadcast = {{0, 50}};
  needs[2].chunked.assign(chunks, {});
  const DeviceLayout layout = overlap::ringLayout(arrays, needs, chunks, 3, 0);
  ASSERT_TRUE(layout.ring);
  EXPECT_EQ(layout.unwindowable, -1);
  EXPECT_EQ(layout.slots, 3);
  EXPECT_EQ(layout.placement[0], ArrayPlacement::Windowed);
  EXPECT_EQ(layout.placement[1], ArrayPlacement::Windowed);
  EXPECT_EQ(layout.placement[2], ArrayPlacement::Resident);
  EXPECT_EQ(layout.residentBytes, 512u); // 400 bytes of b, aligned
  // Chunks of 125 elements: 500 bytes, plus the window's own misalignment at most.
  EXPECT_LE(layout.slotBytes, 2 * (512u + 256u));
  EXPECT_LT(layout.totalBytes(), overlap::fullLayout(arrays).totalBytes());
  expectWindowsInSlots(layout, arrays, chunks);
  for (int c = 0; c < chunks; ++c) {
    long long lo = 0;
    long long hi = 0;
    overlap::chunkBounds(partition, chunks, c, lo, hi);
    EXPECT_EQ(layout.windows[static_cast<std::size_t>(c)][0].begin, lo);
    EXPECT_EQ(layout.windows[static_cast<std::size_t>(c)][0].end, hi);
  }
}

TEST(DeviceLayout, HaloWindowsHoldTheHaloAndStayAlignedAsInAFullBuffer) {
  // A column filter: rows of 37 floats, 3 rows of halo each side, granule 4 rows (as a float4
  // access would raise it), chunks of odd sizes and both ends clipped.
  const Partition partition{0, 101, 4};
  const int chunks = 7;
  const std::vector<LayoutArray> arrays = {{4, 101 * 37, true}, {4, 101 * 37, true}};
  const std::vector<ArrayTransferNeeds> needs = {
      rowsOf(partition, chunks, 37, 3 * 37, 3 * 37, false),
      rowsOf(partition, chunks, 37, 0, 0, true)};
  const DeviceLayout layout = overlap::ringLayout(arrays, needs, chunks, 2, 0);
  expectWindowsInSlots(layout, arrays, chunks);
  for (int c = 0; c < chunks; ++c)
    EXPECT_EQ(layout.windows[static_cast<std::size_t>(c)][0].begin,
              needs[0].chunked[static_cast<std::size_t>(c)][0].begin);
}

TEST(DeviceLayout, ManyRandomRingsKeepEveryWindowInsideItsSlot) {
  std::mt19937_64 random(20261126);
  for (int trial = 0; trial < 300; ++trial) {
    const long long extent = 1 + static_cast<long long>(random() % 5000);
    const long long granule = 1 + static_cast<long long>(random() % 9);
    const Partition partition{static_cast<long long>(random() % 4), extent, granule};
    const long long granules = overlap::granuleCount(partition);
    const int chunks = static_cast<int>(
        1 + random() % static_cast<std::uint64_t>(std::min<long long>(granules, 40)));
    const int slots = static_cast<int>(1 + random() % 9);
    const long long k = 1 + static_cast<long long>(random() % 5);
    const long long halo = static_cast<long long>(random() % 3) * k;
    const std::size_t sizes[] = {1, 2, 4, 8, 12, 16};
    const std::size_t size = sizes[random() % 6];
    const long long elements = (partition.begin + extent) * k;
    const std::vector<LayoutArray> arrays = {{size, elements, true}, {4, elements, true}};
    const std::vector<ArrayTransferNeeds> needs = {rowsOf(partition, chunks, k, halo, halo, false),
                                                   rowsOf(partition, chunks, k, 0, 0, true)};
    const DeviceLayout layout = overlap::ringLayout(arrays, needs, chunks, slots, 0);
    SCOPED_TRACE("trial " + std::to_string(trial));
    EXPECT_EQ(layout.slots, std::min(slots, chunks));
    expectWindowsInSlots(layout, arrays, chunks);
  }
}

// buoydiff's rho: level 0 for every chunk and levels lo-1 .. hi-1, through one pointer.
std::vector<ArrayTransferNeeds> buoydiffNeeds(const Partition& partition, int chunks,
                                              long long plane) {
  std::vector<ArrayTransferNeeds> needs = {rowsOf(partition, chunks, plane, plane, 0, false),
                                           rowsOf(partition, chunks, plane, 0, 0, true)};
  needs[0].broadcast = {{0, plane}};
  return needs;
}

TEST(DeviceLayout, WithoutPagesAnArrayWithBroadcastAndChunkedSectionsCannotBeWindowed) {
  const Partition partition{0, 42, 1};
  const long long plane = 100;
  const std::vector<LayoutArray> arrays = {{4, 42 * plane, true}, {4, 42 * plane, true}};
  const DeviceLayout layout =
      overlap::ringLayout(arrays, buoydiffNeeds(partition, 6, plane), 6, 2, 0);
  EXPECT_EQ(layout.unwindowable, 0);
  EXPECT_NE(std::string(layout.why).find("maps no pages"), std::string::npos) << layout.why;
}

TEST(DeviceLayout, PagedArraysKeepTheBroadcastPagesAndMapEachChunksOthers) {
  const Partition partition{0, 42, 1};
  const long long plane = 1000; // 4000 bytes a level, pages of 4096 bytes
  const std::size_t page = 4096;
  const int chunks = 7;
  const std::vector<LayoutArray> arrays = {{4, 42 * plane, true}, {4, 42 * plane, true}};
  const std::vector<ArrayTransferNeeds> needs = buoydiffNeeds(partition, chunks, plane);
  const DeviceLayout layout = overlap::ringLayout(arrays, needs, chunks, 3, page);
  ASSERT_EQ(layout.unwindowable, -1) << layout.why;
  EXPECT_EQ(layout.placement[0], ArrayPlacement::Paged);
  EXPECT_EQ(layout.placement[1], ArrayPlacement::Windowed);
  EXPECT_EQ(layout.residentPages[0], (overlap::PageRun{0, 1}));
  EXPECT_EQ(layout.residentElements[0].begin, 0);
  EXPECT_EQ(layout.residentElements[0].end, 1024); // the whole first page, past level 0
  long long most = 0;
  for (int c = 0; c < chunks; ++c) {
    SCOPED_TRACE("chunk " + std::to_string(c));
    const overlap::PageRun own = layout.chunkPages[static_cast<std::size_t>(c)][0];
    const Section window = layout.windows[static_cast<std::size_t>(c)][0];
    // Every element of the window lies in the resident pages or in the chunk's own.
    const long long perPage = static_cast<long long>(page / 4);
    EXPECT_TRUE(window.begin >= own.begin * perPage || window.begin < 1024);
    EXPECT_LE(window.end, std::max(own.end * perPage, 1024LL));
    EXPECT_GE(own.begin, 1) << "the resident page is not the chunk's";
    most = std::max(most, own.size());
  }
  EXPECT_EQ(layout.slotPages[0], most);
  EXPECT_EQ(layout.pagedBytes(0), (1 + 3 * static_cast<std::size_t>(most)) * page);
  EXPECT_EQ(layout.totalBytes(), 3 * layout.slotBytes + layout.pagedBytes(0));
  EXPECT_LT(layout.totalBytes(), overlap::fullLayout(arrays).totalBytes());
}

// The driver maps whole allocations only (cuMemMap answered a part of one with "operation not
// supported" on the H100): each chunk's mapping spans the slot's whole allocation, holds the
// chunk's own pages, stays off the resident ones and inside the reserved margins.
void expectWholeMappings(const DeviceLayout& layout, int array, int chunks) {
  const std::size_t i = static_cast<std::size_t>(array);
  const long long slotPages = layout.slotPages[i];
  for (int c = 0; c < chunks; ++c) {
    SCOPED_TRACE("chunk " + std::to_string(c));
    const overlap::PageRun own = layout.chunkPages[static_cast<std::size_t>(c)][i];
    const overlap::PageRun mapped = overlap::slotMapping(own, layout.residentPages[i], slotPages);
    if (own.empty()) {
      EXPECT_TRUE(mapped.empty());
      continue;
    }
    EXPECT_EQ(mapped.size(), slotPages);
    EXPECT_LE(mapped.begin, own.begin);
    EXPECT_GE(mapped.end, own.end);
    EXPECT_TRUE(mapped.end <= layout.residentPages[i].begin ||
                mapped.begin >= layout.residentPages[i].end);
    EXPECT_GE(mapped.begin, -slotPages);
    EXPECT_LE(mapped.end, layout.reservedPages[i] + slotPages);
  }
}

TEST(DeviceLayout, ChunkMappingsSpanTheWholeSlotAllocationOnEitherSideOfTheResidentPages) {
  const Partition partition{0, 42, 1};
  const long long plane = 1000;
  const std::size_t page = 4096;
  const std::vector<LayoutArray> arrays = {{4, 42 * plane, true}, {4, 42 * plane, true}};
  // The broadcast level first (buoydiff's surface): the chunks' pages lie after it.
  const std::vector<ArrayTransferNeeds> first = buoydiffNeeds(partition, 9, plane);
  const DeviceLayout after = overlap::ringLayout(arrays, first, 9, 2, page);
  ASSERT_EQ(after.unwindowable, -1) << after.why;
  expectWholeMappings(after, 0, 9);
  // The broadcast level last: the chunks' pages lie before it, and their mappings reach back.
  std::vector<ArrayTransferNeeds> last = {rowsOf(partition, 9, plane, 0, plane, false),
                                          rowsOf(partition, 9, plane, 0, 0, true)};
  last[0].broadcast = {{41 * plane, 42 * plane}};
  const DeviceLayout before = overlap::ringLayout(arrays, last, 9, 3, page);
  ASSERT_EQ(before.unwindowable, -1) << before.why;
  expectWholeMappings(before, 0, 9);
}

TEST(DeviceLayout, ArraysThatCannotBePagedSayWhy) {
  const Partition partition{0, 40, 1};
  const std::size_t page = 4096;
  // A broadcast section in the middle that the chunk windows reach past on both sides.
  std::vector<ArrayTransferNeeds> straddle = {rowsOf(partition, 2, 1000, 0, 0, false)};
  straddle[0].broadcast = {{15000, 16000}};
  EXPECT_EQ(overlap::ringLayout({{4, 40000, true}}, straddle, 2, 2, page).unwindowable, 0);
  // 12-byte elements do not tile 4096-byte pages.
  std::vector<ArrayTransferNeeds> wide = buoydiffNeeds(partition, 4, 1000);
  const DeviceLayout layout =
      overlap::ringLayout({{12, 40000, true}, {4, 40000, true}}, wide, 4, 2, page);
  EXPECT_EQ(layout.unwindowable, 0);
  EXPECT_NE(std::string(layout.why).find("element size"), std::string::npos) << layout.why;
}

} // namespace
