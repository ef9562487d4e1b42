// The streams and events of one device, created on demand and reused by every later call: paper
// 001 observes that creating streams per call is an overhead of its own, which a model of the
// transfers then has to absorb.
#pragma once

#include "overlap/Status.h"

#include <cuda_runtime_api.h>

#include <vector>

namespace overlap {

class StreamEventPool {
public:
  StreamEventPool() = default;
  StreamEventPool(const StreamEventPool&) = delete;
  StreamEventPool& operator=(const StreamEventPool&) = delete;
  // Keeps the streams and events, for the reason DeviceMemoryCache keeps its memory.
  ~StreamEventPool() = default;

  // Grows the pool to at least `count` of each (never shrinks), on the current device. Streams
  // are non-blocking: work of the legacy default stream elsewhere in the program does not
  // serialize the pipeline. Events have no timing, which makes them cheaper to record and wait on.
  Status reserveStreams(int count);
  Status reserveEvents(int count);

  cudaStream_t stream(int index) const { return streams_[static_cast<std::size_t>(index)]; }
  cudaEvent_t event(int index) const { return events_[static_cast<std::size_t>(index)]; }
  int streamCount() const { return static_cast<int>(streams_.size()); }
  int eventCount() const { return static_cast<int>(events_.size()); }

private:
  std::vector<cudaStream_t> streams_;
  std::vector<cudaEvent_t> events_;
};

// The streams one call issues on: the pool's, or, for an asynchronous call, the caller's stream
// as stream 0 and the pool's from 1 on. A call on one stream then runs on the caller's stream
// alone, and such calls in flight on different streams of the program overlap instead of taking
// turns on the pool's stream 0. The events are the pool's.
class CallStreams {
public:
  explicit CallStreams(const StreamEventPool& pool) : pool_(pool) {}
  CallStreams(const StreamEventPool& pool, cudaStream_t caller)
      : pool_(pool), caller_(caller), hasCaller_(true) {}
  cudaStream_t stream(int index) const {
    return index == 0 && hasCaller_ ? caller_ : pool_.stream(index);
  }
  cudaEvent_t event(int index) const { return pool_.event(index); }

private:
  const StreamEventPool& pool_;
  const cudaStream_t caller_ = nullptr;
  const bool hasCaller_ = false;
};

} // namespace overlap
