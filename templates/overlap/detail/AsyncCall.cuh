// What an asynchronous call (K_<variant>_async, run<Variant>Async) adds to its strategy: it is
// ordered after the work the caller's stream holds when it is made, the work the caller queues on
// that stream afterwards is ordered after its last copy, and it returns without waiting for the
// device, as cudaMemcpyAsync does. Its device memory is stream-ordered (StreamOrderedMemory.h), so
// that calls in flight at once never share buffers.
//
// The host arrays must stay alive and untouched until the stream reaches the call's end. An
// asynchronous call needs no host work while the device runs it, which holds for memory the device
// reaches as is: pinned (cudaMallocHost, cudaHostAlloc, a cudaHostRegister of the program's own),
// device and managed memory. Pageable memory does not: an asynchronous copy from it is staged at
// the time of the call, not in stream order, and pinning it for the call would have to end with the
// call. A call with a pageable array (also one that Overlap's registration cache holds: the cache
// may unpin it once the call returned) therefore runs synchronously: it waits for the caller's
// stream, runs the synchronous strategy and returns once the results are in the host arrays. So do
// out-of-core pipelines with paged arrays, whose pages the host maps between chunks.
#pragma once

#include "overlap/Binding.cuh"
#include "overlap/DeviceContext.h"
#include "overlap/GraphCache.h"
#include "overlap/HostMemoryKind.h"
#include "overlap/PinCache.h"
#include "overlap/RegistrationCache.h"
#include "overlap/Status.h"
#include "overlap/StreamEventPool.h"
#include "overlap/StreamOrderedMemory.h"
#include "overlap/detail/CallArrays.cuh"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <vector>

namespace overlap {
namespace detail {

// Each array's kind of memory, asked once per call (cudaPointerGetAttributes costs the host a
// microsecond or so an array). The registration cache's pinning counts as pageable: it does not
// outlive the call. Absent and empty arrays, which nothing copies, count as device memory.
inline std::vector<HostMemoryKind> callMemoryKinds(const std::vector<HostArray>& arrays) {
  RegistrationCache* const cache = processRegistrationCache();
  std::vector<HostMemoryKind> kinds(arrays.size(), HostMemoryKind::Device);
  for (std::size_t i = 0; i < arrays.size(); ++i) {
    const HostArray& array = arrays[i];
    if (absent(array) || array.extent == 0)
      continue;
    bool cached = false;
    kinds[i] = cache != nullptr ? cache->classify(array.host, arrayBytes(array), &cached)
                                : classifyHostMemory(array.host);
  }
  return kinds;
}

// The synchronous fallback of an asynchronous call: after what the caller's stream holds, the
// synchronous strategy `run`, which returns once its results are in the host arrays.
template <class Run> Status runAfterStream(cudaStream_t stream, Run&& run) {
  OVERLAP_TRY(synchronize(stream));
  return run();
}

// One asynchronous call's device block, from the device's stream-ordered memory: allocated in the
// caller's stream's order and freed there by end(), after everything the call issued. A call
// captured for the graph cache takes the block its cache entry will own instead
// (capturedGraphBlock(), GraphCache.h): its graph then has no memory nodes.
class AsyncBlock {
public:
  AsyncBlock(StreamOrderedMemory& memory, cudaStream_t stream) : memory_(memory), stream_(stream) {}
  AsyncBlock(const AsyncBlock&) = delete;
  AsyncBlock& operator=(const AsyncBlock&) = delete;
  ~AsyncBlock() { (void)end(); }

  Status allocate(std::size_t bytes) {
    if (bytes == 0)
      return Status::success();
    if (GraphBlock* captured = capturedGraphBlock()) {
      entryOwned_ = true;
      return captured->take(bytes, &block_);
    }
    return memory_.allocate(bytes, stream_, &block_);
  }
  void* get() const { return block_; }
  // Call once the caller's stream waits for all the call's work.
  Status end() {
    void* const block = block_;
    block_ = nullptr;
    return entryOwned_ ? Status::success() : memory_.free(block, stream_);
  }

private:
  StreamOrderedMemory& memory_;
  const cudaStream_t stream_;
  void* block_ = nullptr;
  bool entryOwned_ = false;
};

// Orders the call's streams 1 .. streams - 1 after its stream 0, the caller's (fork), and the
// caller's stream after them (join), with the pool's events from `firstEvent` on: 1 + streams of
// them.
class StreamFork {
public:
  StreamFork(const CallStreams& streams, int firstEvent, int count)
      : streams_(streams), firstEvent_(firstEvent), count_(count) {}
  static int eventsNeeded(int streams) { return 1 + streams; }

  Status fork() const {
    if (count_ < 2)
      return Status::success();
    OVERLAP_CUDA_TRY(cudaEventRecord(streams_.event(firstEvent_), streams_.stream(0)));
    for (int s = 1; s < count_; ++s)
      OVERLAP_CUDA_TRY(cudaStreamWaitEvent(streams_.stream(s), streams_.event(firstEvent_), 0));
    return Status::success();
  }
  // `target`, one of the call's streams, waits for all the others.
  Status gather(cudaStream_t target) const {
    for (int s = 0; s < count_; ++s) {
      if (streams_.stream(s) == target)
        continue;
      const cudaEvent_t done = streams_.event(firstEvent_ + 1 + s);
      OVERLAP_CUDA_TRY(cudaEventRecord(done, streams_.stream(s)));
      OVERLAP_CUDA_TRY(cudaStreamWaitEvent(target, done, 0));
    }
    return Status::success();
  }
  // The caller's stream waits for the others; where that fails, the host waits for them instead,
  // since the call's block is freed in the caller's stream's order next.
  Status join() const {
    const Status status = gather(streams_.stream(0));
    if (!status.ok())
      for (int s = 1; s < count_; ++s)
        (void)synchronize(streams_.stream(s)); // the join's failure is the one to report
    return status;
  }

private:
  const CallStreams& streams_;
  const int firstEvent_;
  const int count_;
};

// The frame of every asynchronous call: the arrays read and checked, P == 0 answered, then
// issue(partition, arrays, kinds, context, &synchronous) under the device's lease (kinds: each
// array's callMemoryKinds), unless an array is pageable; that, or issue() setting `synchronous`
// without issuing anything, runs `synchronous` (the strategy's synchronous call) after the stream
// instead.
template <class B, class Synchronous, class Issue>
Status asyncCall(const B& binding, cudaStream_t stream, Synchronous&& synchronous, Issue&& issue) {
  Partition partition;
  std::vector<HostArray> arrays;
  OVERLAP_TRY(beginCall(binding, &partition, &arrays));
  if (partition.extent == 0)
    return Status::success();
  const std::vector<HostMemoryKind> kinds = callMemoryKinds(arrays);
  bool later = std::find(kinds.begin(), kinds.end(), HostMemoryKind::Pageable) != kinds.end();
  if (!later) {
    DeviceContextLease lease;
    OVERLAP_TRY(lease.acquire());
    OVERLAP_TRY(issue(partition, arrays, kinds, lease.context(), &later));
  }
  return later ? runAfterStream(stream, synchronous) : Status::success();
}

// Explicit's and Mapped's asynchronous call once the kernel's addresses of the arrays without a
// device buffer are in `bases`: full buffers, stream-ordered, for the arrays with onDevice[i]
// (`who` names the strategy over its budget), and one launch between the copies, on `stream`.
template <class B>
Status issueWholeCallAsync(const B& binding, DeviceContext& context, const char* who,
                           const std::vector<HostArray>& arrays, const std::vector<bool>& onDevice,
                           const Partition& partition, std::vector<void*> bases,
                           cudaStream_t stream) {
  DeviceLayout layout;
  OVERLAP_TRY(budgetedFullLayout(heldFor(context, true), arrays, onDevice, who, &layout));
  AsyncBlock block(context.asyncMemory(), stream);
  OVERLAP_TRY(block.allocate(layout.totalBytes()));
  assignFullBuffers(layout, block.get(), onDevice, &bases);
  Status first = issueWholeCall(binding, arrays, bases, onDevice, partition, stream);
  keepFirst(first, block.end());
  return first;
}

} // namespace detail
} // namespace overlap
