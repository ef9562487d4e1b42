// Where a streamed call keeps its arrays on the device, and how much memory that takes: pure host
// logic, so that the out-of-core ring is unit-tested without a GPU.
//
// Full: every array the kernels address on the device has a buffer of its full extent, element e
// at byte e * size, as Explicit has it. Ring (out of core): arrays with chunked sections get one
// window per stream ("slot") instead, holding one chunk's sections at a time; a stream's next
// chunk reuses its slot, which the stream's own order makes safe (its copies in start after the
// previous chunk's copies out), so a ring deeper than the streams would gain nothing. Whole and
// broadcast-only arrays (matrix B, weights, reductions) stay resident at full extent.
//
// A windowed array's kernel still sees element e at base + e * size: the base handed to the
// launch is the slot's window less the window's first element, so offset-mode glue that advances
// it to the chunk and range-mode kernels that index globally both land inside the window, at the
// same alignment modulo kDeviceBufferAlignment as in a full buffer (a float4 load stays aligned).
// Only elements of the chunk's own sections are there: what the annotation promises the kernel
// reads and writes.
//
// An input with broadcast sections beside its chunked ones (range mode: buoydiff reads the
// surface level and its own levels through one pointer) cannot have such a window: the places lie
// arbitrarily far apart. Where the device maps memory in pages (PagedArrays.h) it is paged
// instead: each slot gets virtual addresses for the whole array, with the broadcast sections'
// pages resident (one copy, under every slot) and the slot's chunk's other pages behind them.
#pragma once

#include "overlap/KernelTypes.h"
#include "overlap/TransferPlan.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace overlap {

// Alignment of every buffer and window: cudaMalloc's own, enough for any element type and for
// coalesced access from the first element.
constexpr std::size_t kDeviceBufferAlignment = 256;

// More chunks than this are never made to fit a ring into its budget: each costs a few host
// microseconds to issue, and a ring still over budget at this many is better refused. The
// runtime's choice (detail/Pipeline.cuh) and the model's (tuner/model/Workload.cpp) share it.
constexpr long long kMaxRingChunks = 1 << 16;

enum class ArrayPlacement : unsigned char {
  Host,     // no device memory: an absent array, or an output Hybrid maps
  Resident, // a full-extent buffer for the whole call
  Windowed, // ring only: one window per slot
  Paged     // ring only: one range of virtual addresses per slot (PagedArrays.h)
};

// Pages [begin, end) of an array's addresses, in units of DeviceLayout::pageBytes.
struct PageRun {
  long long begin = 0;
  long long end = 0;
  long long size() const { return end > begin ? end - begin : 0; }
  bool empty() const { return end <= begin; }
  bool operator==(const PageRun& other) const { return begin == other.begin && end == other.end; }
};

// One array as the layout sees it.
struct LayoutArray {
  std::size_t elementSize = 1;
  long long extent = 0;
  bool onDevice = false;
};

struct DeviceLayout {
  bool ring = false;
  int slots = 0; // ring: one per stream
  std::vector<ArrayPlacement> placement;
  std::vector<std::size_t> elementSize; // of each array
  // Resident: the buffer's offset in the block. Windowed: the window's offset in its slot.
  std::vector<std::size_t> offset;
  std::size_t residentBytes = 0; // resident buffers, at the start of the block
  std::size_t slotBytes = 0;     // each slot, after them
  // Ring: windows[c][i], the elements chunk c's slot holds of windowed or paged array i (the hull
  // of the chunk's chunked sections; empty for other arrays).
  std::vector<std::vector<Section>> windows;

  // Paged arrays (ring only). The page size; 0: the device maps no pages, no array is paged.
  std::size_t pageBytes = 0;
  // Per array: the resident pages (its broadcast sections' hull), filled once per call, and the
  // elements they hold, clipped to the array: what the call copies in before the chunks.
  std::vector<PageRun> residentPages;
  std::vector<Section> residentElements;
  // Per array: the most pages one chunk maps besides the resident ones (each slot's allocation),
  // and the pages of addresses each slot reserves (the whole array's).
  std::vector<long long> slotPages;
  std::vector<long long> reservedPages;
  // chunkPages[c][i]: the pages chunk c maps in its slot (its window's, less the resident ones).
  std::vector<std::vector<PageRun>> chunkPages;

  // An array that can be neither windowed nor paged; -1 when there is none. Such a layout is not
  // usable, and `why` says what stops it.
  int unwindowable = -1;
  const char* why = "";

  // The block of device memory: the resident buffers and the slots. Saturating at SIZE_MAX,
  // which no budget admits.
  std::size_t blockBytes() const;
  // The block and the paged arrays' pages: what the budget must hold.
  std::size_t totalBytes() const;

  // Where array i's element 0 is for chunk c (chunk -1: the resident buffers' copies before and
  // after the chunks), given the block's address. Null for Host arrays; not for Paged ones, whose
  // addresses are their PagedArrays'.
  void* base(void* block, int array, int chunk) const;
  // Bytes of a paged array's physical memory: its resident pages and every slot's.
  std::size_t pagedBytes(int array) const;
};

// Full buffers for the arrays with onDevice.
DeviceLayout fullLayout(const std::vector<LayoutArray>& arrays);

// Where a paged array's slot allocation of `slotPages` pages lies for a chunk whose own pages
// are `own` (DeviceLayout::chunkPages; empty: nothing mapped). The driver maps only whole
// allocations (cuMemMap refuses a part of one on the H100 of 2026-11-26), so the mapping spans
// all `slotPages`: from own.begin on where `own` lies after the resident pages, up to own.end
// where it lies before them. It thus holds `own`, never overlaps `resident`, and stays within
// pages [-slotPages, reserved + slotPages) of the array's addresses, which PagedArrays reserves.
PageRun slotMapping(PageRun own, PageRun resident, long long slotPages);

// The ring of `slots` slots for the chunks whose sections `needs` lists (needs[i].chunked has one
// entry per chunk for the arrays with onDevice; broadcast sections and arrays without chunked
// sections make the resident part). `pageBytes`: the device's page size for paged arrays, 0 where
// it has none.
DeviceLayout ringLayout(const std::vector<LayoutArray>& arrays,
                        const std::vector<ArrayTransferNeeds>& needs, int chunks, int slots,
                        std::size_t pageBytes);

} // namespace overlap
