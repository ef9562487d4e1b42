// What every strategy does with a Binding's arrays before and around its launches: validating
// the answers, clipping sections, placing device buffers, copying sections. Internal to the
// strategy templates.
#pragma once

#include "overlap/Binding.cuh"
#include "overlap/CopyBatch.h"
#include "overlap/DeviceContext.h"
#include "overlap/DeviceLayout.h"
#include "overlap/DeviceMemoryBudget.h"
#include "overlap/DeviceMemoryCache.h"
#include "overlap/KernelTypes.h"
#include "overlap/NvtxRange.h"
#include "overlap/Status.h"
#include "overlap/TransferPlan.h"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

// A Binding answer no strategy can work with: reported like a failed CUDA call, naming the rule.
#define OVERLAP_DETAIL_INVALID_BINDING(rule)                                                       \
  ::overlap::Status {                                                                              \
    cudaErrorInvalidValue, rule, __FILE__, __LINE__                                                \
  }

namespace overlap {
namespace detail {

// The partition a binding answers, checked: P < 0, G < 1 and an end B + P past the range of
// long long are errors. P == 0 is a call with nothing to do, which every strategy answers with
// success before touching the device or the arrays.
inline Status checkPartition(const Partition& partition) {
  if (partition.extent < 0)
    return OVERLAP_DETAIL_INVALID_BINDING("Binding::partitionExtent() < 0");
  if (partition.granule < 1)
    return OVERLAP_DETAIL_INVALID_BINDING("Binding::granule() < 1");
  if (partition.begin > std::numeric_limits<long long>::max() - partition.extent)
    return OVERLAP_DETAIL_INVALID_BINDING(
        "Binding: partitionBegin() + partitionExtent() overflows long long");
  return Status::success();
}

// An optional array the caller passed null: it takes no part in the call.
inline bool absent(const HostArray& array) {
  return array.optional && array.host == nullptr;
}

inline std::size_t arrayBytes(const HostArray& array) {
  return static_cast<std::size_t>(array.extent) * array.elementSize;
}

// Reads every array's description and checks what the strategies rely on. An absent optional
// array is returned with extent 0, so that no strategy sizes, copies or registers anything of it.
template <class B> Status readHostArrays(const B& binding, std::vector<HostArray>* arrays) {
  arrays->clear();
  for (int i = 0; i < B::kArrays; ++i) {
    HostArray array = binding.array(i);
    if (array.extent < 0)
      return OVERLAP_DETAIL_INVALID_BINDING("Binding::array(i).extent < 0");
    if (array.elementSize == 0)
      return OVERLAP_DETAIL_INVALID_BINDING("Binding::array(i).elementSize == 0");
    if (static_cast<unsigned long long>(array.extent) > SIZE_MAX / array.elementSize)
      return OVERLAP_DETAIL_INVALID_BINDING("Binding::array(i): extent * elementSize overflows");
    if (array.host == nullptr && !array.optional && array.extent > 0)
      return OVERLAP_DETAIL_INVALID_BINDING(persistentText(
          std::string("array '") + (array.name != nullptr ? array.name : "?") + "' is null"));
    if (absent(array))
      array.extent = 0;
    const int sections = binding.sectionCount(i);
    if (sections < 0)
      return OVERLAP_DETAIL_INVALID_BINDING("Binding::sectionCount(i) < 0");
    // The strategies copy a reduction array whole, once each way, and never map it.
    if (array.reduction && (array.direction != Direction::InOut || sections != 0))
      return OVERLAP_DETAIL_INVALID_BINDING(
          "Binding::array(i): a reduction array must be InOut and without sections");
    if (array.reduce != ReduceOp::None && !array.reduction)
      return OVERLAP_DETAIL_INVALID_BINDING(
          "Binding::array(i): an operator (reduce) for an array that is no reduction");
    if (writes(array.direction)) {
      // Copying out more than one chunked section per chunk would write other chunks' elements
      // back before (or after) their own kernels wrote them.
      int chunked = 0;
      for (int s = 0; s < sections; ++s)
        chunked += binding.sectionIsChunked(i, s) ? 1 : 0;
      if (chunked > 1)
        return OVERLAP_DETAIL_INVALID_BINDING(
            "Binding: an output array has more than one chunked section");
    }
    arrays->push_back(array);
  }
  return Status::success();
}

// The start every strategy call shares: the partition is read and checked, then the binding's
// own checks of the arguments (checkCall(), cheap: integers only, so for P == 0 too); unless P
// is 0 (a call with nothing to do: neither the arrays nor the device are looked at) the arrays
// are read and checked.
template <class B>
Status beginCall(const B& binding, Partition* partition, std::vector<HostArray>* arrays) {
  *partition = Partition{binding.partitionBegin(), binding.partitionExtent(), binding.granule()};
  OVERLAP_TRY(checkPartition(*partition));
  OVERLAP_TRY(binding.checkCall());
  if (partition->extent == 0)
    return Status::success();
  return readHostArrays(binding, arrays);
}

// Leases the current device's context (DeviceContext.h) with at least `streams` pooled streams.
inline Status leaseDevice(DeviceContextLease* lease, int streams) {
  OVERLAP_TRY(lease->acquire());
  return lease->context().pool().reserveStreams(streams);
}

// The sections of array i sent once per call, clipped: the whole array when it has no sections.
template <class B>
std::vector<Section> broadcastSections(const B& binding, int i, const Partition& partition,
                                       long long arrayExtent) {
  const int count = binding.sectionCount(i);
  if (count == 0)
    return {Section{0, arrayExtent}};
  std::vector<Section> sections;
  for (int s = 0; s < count; ++s)
    if (!binding.sectionIsChunked(i, s))
      sections.push_back(clip(
          binding.section(i, s, partition.begin, partition.begin + partition.extent), arrayExtent));
  return sections;
}

// The chunked sections of array i for chunk [lo, hi), clipped.
template <class B>
std::vector<Section> chunkSections(const B& binding, int i, long long lo, long long hi,
                                   long long arrayExtent) {
  std::vector<Section> sections;
  const int count = binding.sectionCount(i);
  for (int s = 0; s < count; ++s)
    if (binding.sectionIsChunked(i, s))
      sections.push_back(clip(binding.section(i, s, lo, hi), arrayExtent));
  return sections;
}

// Every element of array i a single launch over [B, B + P) touches, merged.
template <class B>
std::vector<Section> wholeCallSections(const B& binding, int i, const Partition& partition,
                                       long long arrayExtent) {
  std::vector<Section> sections = broadcastSections(binding, i, partition, arrayExtent);
  const std::vector<Section> chunked =
      chunkSections(binding, i, partition.begin, partition.begin + partition.extent, arrayExtent);
  sections.insert(sections.end(), chunked.begin(), chunked.end());
  return mergeSections(std::move(sections));
}

// The arrays as DeviceLayout.h sees them.
inline std::vector<LayoutArray> layoutArrays(const std::vector<HostArray>& arrays,
                                             const std::vector<bool>& onDevice) {
  std::vector<LayoutArray> out;
  for (std::size_t i = 0; i < arrays.size(); ++i)
    out.push_back({arrays[i].elementSize, arrays[i].extent, onDevice[i]});
  return out;
}

// What Overlap holds already of the device memory a call takes from: the cached block for a
// synchronous call, the stream-ordered pool for an asynchronous one (StreamOrderedMemory.h).
inline std::size_t heldFor(DeviceContext& context, bool async) {
  return async ? context.asyncMemory().heldBytes() : context.memory().capacity();
}

// The device budget of a call asking for `asked` bytes (0: the process's) that needs `needed`,
// where Overlap holds `held` bytes for it.
inline Status callBudget(std::size_t held, std::size_t asked, std::size_t needed,
                         DeviceMemoryBudget* budget) {
  return resolveDeviceMemoryBudget(asked, held, needed, budget);
}

// The full-extent buffers of the arrays with onDevice[i] (element e of an array is element e of
// its buffer), checked against the process's device-memory budget: a call over it fails, naming
// both (`who` says which strategy asked), before anything is allocated.
inline Status budgetedFullLayout(std::size_t held, const std::vector<HostArray>& arrays,
                                 const std::vector<bool>& onDevice, const char* who,
                                 DeviceLayout* layout) {
  *layout = fullLayout(layoutArrays(arrays, onDevice));
  DeviceMemoryBudget budget;
  OVERLAP_TRY(callBudget(held, 0, layout->totalBytes(), &budget));
  if (layout->totalBytes() > budget.bytes)
    return overBudget(who, layout->totalBytes(), budget,
                      ": Streams and Hybrid run a call this large out of core");
  return Status::success();
}

// Stores the address of every array with onDevice[i] in `block` into (*bases)[i]; the other
// entries are left alone.
inline void assignFullBuffers(const DeviceLayout& layout, void* block,
                              const std::vector<bool>& onDevice, std::vector<void*>* bases) {
  for (std::size_t i = 0; i < onDevice.size(); ++i)
    if (onDevice[i])
      (*bases)[i] = layout.base(block, static_cast<int>(i), -1);
}

// budgetedFullLayout's buffers in the device's cached block.
inline Status placeDeviceBuffers(DeviceMemoryCache& cache, const std::vector<HostArray>& arrays,
                                 const std::vector<bool>& onDevice, const char* who,
                                 std::vector<void*>* bases) {
  DeviceLayout layout;
  OVERLAP_TRY(budgetedFullLayout(cache.capacity(), arrays, onDevice, who, &layout));
  void* block = nullptr;
  OVERLAP_TRY(cache.reserve(layout.totalBytes(), &block));
  assignFullBuffers(layout, block, onDevice, bases);
  return Status::success();
}

enum class CopyDirection : unsigned char { ToDevice, ToHost };

// Where `elements` of an array lie, in bytes: the same in the user's array and from its device
// base (a full buffer, or a ring window's base: DeviceLayout.h).
struct SectionBytes {
  std::size_t offset = 0;
  std::size_t bytes = 0;
};
inline SectionBytes sectionBytes(const HostArray& array, Section elements) {
  return {static_cast<std::size_t>(elements.begin) * array.elementSize,
          static_cast<std::size_t>(elements.size()) * array.elementSize};
}

// Adds the copy of `elements` of an array between the user's memory and its device buffer at
// `buffer` (the address of element 0) to `batch` (CopyBatch.h: the copies of one stream issued
// together). The direction follows from the addresses, so the same copy serves pageable (registered
// for the call), pinned, managed and device user memory.
inline Status copySection(const HostArray& array, void* buffer, Section elements,
                          CopyDirection direction, CopyBatch& batch) {
  if (elements.empty())
    return Status::success();
  const SectionBytes where = sectionBytes(array, elements);
  char* const host = static_cast<char*>(array.host) + where.offset;
  char* const device = static_cast<char*>(buffer) + where.offset;
  if (direction == CopyDirection::ToDevice)
    return batch.add(device, host, where.bytes);
  return batch.add(host, device, where.bytes);
}

// For every array with onDevice[i], copies what a launch over the whole partition touches: to
// the device for the arrays the kernel reads, or back for those it writes. Explicit's copies,
// and Mapped's of its reduction arrays.
template <class B>
Status copyWholeCall(const B& binding, const std::vector<HostArray>& arrays,
                     const std::vector<void*>& bases, const std::vector<bool>& onDevice,
                     const Partition& partition, CopyDirection direction, cudaStream_t stream) {
  CopyBatch batch(stream);
  for (std::size_t i = 0; i < arrays.size(); ++i) {
    const HostArray& array = arrays[i];
    const bool moved =
        direction == CopyDirection::ToDevice ? reads(array.direction) : writes(array.direction);
    if (!onDevice[i] || !moved)
      continue;
    for (const Section& s :
         wholeCallSections(binding, static_cast<int>(i), partition, array.extent))
      OVERLAP_TRY(copySection(array, bases[i], s, direction, batch));
  }
  return batch.issue();
}

// One launch over the whole partition on `stream`, between the copies of copyWholeCall: Explicit's
// call, and Mapped's (whose only device buffers are its reduction arrays').
template <class B>
Status issueWholeCall(const B& binding, const std::vector<HostArray>& arrays,
                      const std::vector<void*>& bases, const std::vector<bool>& onDevice,
                      const Partition& partition, cudaStream_t stream) {
  {
    const NvtxRange range("h2d");
    OVERLAP_TRY(copyWholeCall(binding, arrays, bases, onDevice, partition, CopyDirection::ToDevice,
                              stream));
  }
  {
    const NvtxRange range("kernel");
    OVERLAP_TRY(
        binding.launch(bases.data(), partition.begin, partition.begin + partition.extent, stream));
  }
  const NvtxRange range("d2h");
  return copyWholeCall(binding, arrays, bases, onDevice, partition, CopyDirection::ToHost, stream);
}

// Waits until nothing issued on `stream` runs any more, so that the caller may reuse the device
// buffers, unregister host memory or return to a user who frees it. When the wait itself fails,
// whether the stream's work is done is unknown: the whole device is waited for instead, and the
// stream's error returned. (If that fails too, the error is sticky, the context is lost and none
// of its work runs any more.)
inline Status synchronize(cudaStream_t stream) {
  const cudaError_t error = OVERLAP_CUDA_CALL(cudaStreamSynchronize(stream));
  if (error == cudaSuccess)
    return Status::success();
  (void)cudaDeviceSynchronize();
  (void)cudaGetLastError(); // the stream's error is returned; leave none pending behind it
  return OVERLAP_STATUS_OF(cudaStreamSynchronize(stream), error);
}

} // namespace detail
} // namespace overlap
