#include "overlap/stream_event_pool.h"

namespace overlap {

Status StreamEventPool::reserve_streams(int count) {
  while (stream_count() < count) {
    cudaStream_t stream = nullptr;
    OVERLAP_CUDA_TRY(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    streams_.push_back(stream);
  }
  return Status::success();
}

Status StreamEventPool::reserve_events(int count) {
  while (event_count() < count) {
    cudaEvent_t event = nullptr;
    OVERLAP_CUDA_TRY(cudaEventCreateWithFlags(&event, cudaEventDisableTiming));
    events_.push_back(event);
  }
  return Status::success();
}

} // namespace overlap
