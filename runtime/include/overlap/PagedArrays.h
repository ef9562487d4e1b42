// The out-of-core ring's paged arrays (DeviceLayout.h, ArrayPlacement::Paged): an array that its
// kernels address in places far apart through one pointer (range mode: a broadcast section beside
// the chunked ones, as buoydiff reads the surface level beside its own) gets, per slot, a range of
// virtual addresses as large as the array, with physical memory behind two places only: the pages
// of its broadcast sections (one allocation, mapped into every slot's range) and the pages of the
// slot's current chunk (the slot's own allocation, moved as chunks come). Built on CUDA's virtual
// memory management (cuMemCreate, cuMemMap), reached through cudaGetDriverEntryPointByVersion so
// that programs need not link libcuda.
#pragma once

#include "overlap/DeviceLayout.h"
#include "overlap/Status.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace overlap {

// The page size physical memory is mapped in on `device` (cuMemGetAllocationGranularity's
// minimum), or 0 where the device has no virtual memory management: paged arrays cannot run there.
Status devicePageBytes(int device, std::size_t* bytes);

class PagedArrays {
public:
  PagedArrays() = default;
  PagedArrays(const PagedArrays&) = delete;
  PagedArrays& operator=(const PagedArrays&) = delete;
  // Unmaps and frees everything: only once nothing issued uses the addresses any more.
  ~PagedArrays();

  // The address ranges, the resident pages (mapped into every slot) and each slot's allocation
  // of the layout's paged arrays, on `device`. Nothing of a chunk is mapped yet.
  Status create(const DeviceLayout& layout, int device);
  // Array i's element 0 in `slot`'s range.
  void* base(int array, int slot) const;
  // Puts `slot`'s allocation of array i under chunk c's pages (DeviceLayout::chunkPages), where it
  // is not already: only once the slot's previous chunk has finished with it.
  Status mapChunk(const DeviceLayout& layout, int array, int slot, int chunk);
  bool empty() const { return arrays_.empty(); }
  // Unmaps and frees, returning the first failure (the destructor ignores them).
  Status release();

private:
  struct Slot {
    // The reserved addresses: the array's pages with `slotPages` more on either side, where the
    // slot's allocation may reach out (slotMapping). `origin` is the array's element 0.
    std::uintptr_t range = 0;
    std::uintptr_t origin = 0;
    unsigned long long own = 0; // the slot's physical allocation (a CUmemGenericAllocationHandle)
    PageRun mapped;             // the pages from `origin` it is mapped under now
    bool residentMapped = false;
  };
  struct Array {
    int index = -1;
    std::size_t reserved = 0;        // bytes of each slot's range
    long long slotPages = 0;         // pages of each slot's allocation
    unsigned long long resident = 0; // the broadcast pages' allocation, 0 if none
    PageRun residentPages;
    std::vector<Slot> slots;
  };

  // The address of page `page` (negative: in the reserved margin before element 0).
  std::uintptr_t pageAddress(const Slot& slot, long long page) const;

  Array* find(int array);
  const Array* find(int array) const;

  std::size_t pageBytes_ = 0;
  int device_ = 0;
  std::vector<Array> arrays_;
};

} // namespace overlap
