#include "overlap/StreamEventPool.h"

namespace overlap {

Status StreamEventPool::reserveStreams(int count) {
  while (streamCount() < count) {
    cudaStream_t stream = nullptr;
    OVERLAP_CUDA_TRY(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    streams_.push_back(stream);
  }
  return Status::success();
}

Status StreamEventPool::reserveEvents(int count) {
  while (eventCount() < count) {
    cudaEvent_t event = nullptr;
    OVERLAP_CUDA_TRY(cudaEventCreateWithFlags(&event, cudaEventDisableTiming));
    events_.push_back(event);
  }
  return Status::success();
}

} // namespace overlap
