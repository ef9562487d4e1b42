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
// launch is the slot's window less the window's first element (windowBase), so offset-mode glue
// that advances it to the chunk and range-mode kernels that index globally both land inside the
// window, at the same alignment modulo kDeviceBufferAlignment as in a full buffer (a float4 load
// stays aligned). Only elements of the chunk's own sections are there: what the annotation
// promises the kernel reads and writes.
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

enum class ArrayPlacement : unsigned char {
  Host,     // no device memory: an absent array, or an output Hybrid maps
  Resident, // a full-extent buffer for the whole call
  Windowed  // ring only: one window per slot
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
  // Ring: windows[c][i], the elements chunk c's slot holds of windowed array i (the hull of the
  // chunk's sections; empty for other arrays).
  std::vector<std::vector<Section>> windows;
  // Ring: an array that cannot be windowed (it has broadcast sections beside its chunked ones, so
  // its chunks address elements far apart through one pointer); -1 when there is none. Such a
  // layout is not usable.
  int unwindowable = -1;

  // Saturating at SIZE_MAX, which no budget admits.
  std::size_t totalBytes() const;

  // Where array i's element 0 is for chunk c (chunk -1: the resident buffers' copies before and
  // after the chunks), given the block's address. Null for Host arrays.
  void* base(void* block, int array, int chunk) const;
};

// Full buffers for the arrays with onDevice.
DeviceLayout fullLayout(const std::vector<LayoutArray>& arrays);

// The ring of `slots` slots for the chunks whose sections `needs` lists (needs[i].chunked has one
// entry per chunk for the arrays with onDevice; broadcast sections and arrays without chunked
// sections make the resident part).
DeviceLayout ringLayout(const std::vector<LayoutArray>& arrays,
                        const std::vector<ArrayTransferNeeds>& needs, int chunks, int slots);

} // namespace overlap
