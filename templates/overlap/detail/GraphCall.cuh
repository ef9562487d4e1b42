// The graph form of an asynchronous pipeline call (StreamsConfig::graph, the Graph-Streams and
// Graph-Hybrid variants): the device's GraphCache (GraphCache.h) replays an earlier call's pipeline
// with one cudaGraphLaunch on the caller's stream, or captures this call's into a graph first.
// Ordering, memory and the host arrays' lifetime are those of the plain asynchronous call, whose
// nodes the graph holds (detail/AsyncCall.cuh).
#pragma once

#include "overlap/DeviceContext.h"
#include "overlap/GraphCache.h"
#include "overlap/HostMemoryKind.h"
#include "overlap/KernelTypes.h"
#include "overlap/Status.h"
#include "overlap/detail/CallArrays.cuh"

#include <cuda_runtime_api.h>

#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace overlap {
namespace detail {

// One address per binding type: the kernel in a graph's shape.
template <class B> struct GraphTag { static constexpr char kTag = 0; };

template <class T> void appendBytes(std::string* out, const T& value) {
  out->append(reinterpret_cast<const char*>(&value), sizeof value);
}

// What fixes the nodes and edges of a call's graph: the kernel, the pipeline's configuration, the
// partition and every array's size and kind of memory (`kinds`: a device array is copied device to
// device, a pinned one over the link), on `device`.
template <class B>
std::string graphShape(const StreamsConfig& config, bool mappedOutputs, const Partition& partition,
                       const std::vector<HostArray>& arrays,
                       const std::vector<HostMemoryKind>& kinds, int device) {
  std::string shape;
  appendBytes(&shape, &GraphTag<B>::kTag);
  appendBytes(&shape, device);
  appendBytes(&shape, mappedOutputs);
  appendBytes(&shape, config.streams);
  appendBytes(&shape, config.order);
  appendBytes(&shape, config.chunks);
  appendBytes(&shape, config.buffers);
  appendBytes(&shape, config.deviceMemoryBudget);
  appendBytes(&shape, partition.begin);
  appendBytes(&shape, partition.extent);
  appendBytes(&shape, partition.granule);
  for (std::size_t i = 0; i < arrays.size(); ++i) {
    appendBytes(&shape, arrays[i].extent);
    appendBytes(&shape, arrays[i].elementSize);
    appendBytes(&shape, kinds[i]);
  }
  return shape;
}

// The call's arguments (the binding's bytes, padding cleared), or false where a binding that is
// not trivially copyable has no bytes to stand for them: such calls are never captured.
template <class B> bool graphArguments(const B& binding, std::string* out) {
  if constexpr (std::is_trivially_copyable<B>::value) {
    alignas(B) unsigned char bytes[sizeof(B)];
    std::memcpy(bytes, &binding, sizeof(B));
#if defined(__has_builtin)
#if __has_builtin(__builtin_clear_padding)
    // Padding holds whatever the caller's stack held: left in, equal calls would never match.
    __builtin_clear_padding(reinterpret_cast<B*>(bytes));
#endif
#endif
    out->assign(reinterpret_cast<const char*>(bytes), sizeof(B));
    return true;
  } else {
    (void)binding;
    (void)out;
    return false;
  }
}

// Captures issue(captureStream, synchronous) into *graph (null where the call turned out to be
// synchronous and issued nothing).
template <class Issue>
Status captureCall(cudaStream_t capture, Issue&& issue, bool* synchronous, cudaGraph_t* graph) {
  *graph = nullptr;
  // Thread-local: other threads' calls (a cudaMalloc of the program's) go on meanwhile.
  OVERLAP_CUDA_TRY(cudaStreamBeginCapture(capture, cudaStreamCaptureModeThreadLocal));
  const Status issued = issue(capture, synchronous);
  cudaGraph_t captured = nullptr;
  const cudaError_t ended = OVERLAP_CUDA_CALL(cudaStreamEndCapture(capture, &captured));
  cudaStreamCaptureStatus still = cudaStreamCaptureStatusNone;
  if (ended != cudaSuccess && cudaStreamIsCapturing(capture, &still) == cudaSuccess &&
      still != cudaStreamCaptureStatusNone) {
    // A failed end that left the cache's capture stream capturing would refuse every later
    // capture on it: the capture is ended once more, its graph discarded.
    cudaGraph_t left = nullptr;
    if (cudaStreamEndCapture(capture, &left) == cudaSuccess && left != nullptr)
      (void)cudaGraphDestroy(left);
  }
  if (!issued.ok() || ended != cudaSuccess || *synchronous) {
    if (captured != nullptr)
      (void)cudaGraphDestroy(captured);
    (void)cudaGetLastError(); // an invalidated capture leaves its error behind
    if (!issued.ok())
      return issued;
    if (ended != cudaSuccess)
      return OVERLAP_STATUS_OF(cudaStreamEndCapture(capture, &captured), ended);
    return Status::success();
  }
  *graph = captured;
  return Status::success();
}

// The graph form of an asynchronous call under the device's lease: issue(stream, synchronous)
// issues the plain call on `stream` (setting *synchronous, and issuing nothing, where it needs the
// host between chunks); `kinds` are the arrays' kinds of memory (callMemoryKinds). Within a
// capture of the caller's own, the plain call joins the caller's graph.
template <class B, class Issue>
Status issueAsGraph(const B& binding, const StreamsConfig& config, bool mappedOutputs,
                    const Partition& partition, const std::vector<HostArray>& arrays,
                    const std::vector<HostMemoryKind>& kinds, DeviceContext& context,
                    cudaStream_t stream, bool* synchronous, Issue&& issue) {
  cudaStreamCaptureStatus capturing = cudaStreamCaptureStatusNone;
  OVERLAP_CUDA_TRY(cudaStreamIsCapturing(stream, &capturing));
  std::string arguments;
  if (capturing != cudaStreamCaptureStatusNone || !graphArguments(binding, &arguments))
    return issue(stream, synchronous);
  GraphCache& cache = context.graphs();
  const std::string shape =
      graphShape<B>(config, mappedOutputs, partition, arrays, kinds, context.device());
  GraphCacheEntry* entry = cache.find(shape, arguments);
  if (entry == nullptr) {
    if (cache.runsUncaptured(shape))
      return issue(stream, synchronous);
    cudaStream_t capture = nullptr;
    OVERLAP_TRY(cache.captureStream(&capture));
    // The call's device block comes from `block` (AsyncBlock), not from the stream-ordered pool.
    const GraphSlot slot = cache.slotFor(shape);
    GraphBlock block = cache.blockFor(slot);
    cudaGraph_t graph = nullptr;
    Status captured;
    {
      const CapturedGraphBlockScope scope(&block);
      captured = captureCall(capture, issue, synchronous, &graph);
    }
    if (!captured.ok() || graph == nullptr) {
      const bool noMemory = block.failed();
      block.discard();
      if (noMemory) { // no room for an entry's own block: this call runs plain
        (void)cudaGetLastError();
        return issue(stream, synchronous);
      }
      return captured; // failed, or synchronous: the caller runs it
    }
    const Status installed = cache.install(slot, shape, arguments, graph, block, &entry);
    (void)cudaGraphDestroy(graph); // the executable graph keeps what it needs
    OVERLAP_TRY(installed);
  }
  return cache.launch(*entry, stream);
}

} // namespace detail
} // namespace overlap
