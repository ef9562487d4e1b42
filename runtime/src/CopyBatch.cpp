#include "overlap/CopyBatch.h"

#include <atomic>

namespace overlap {
namespace {

std::atomic<bool> wanted{true};
std::atomic<bool> driverRefuses{false};

} // namespace

void setBatchedCopies(bool on) {
  wanted.store(on);
}
bool batchedCopies() {
  return wanted.load() && !driverRefuses.load();
}

Status CopyBatch::add(void* dst, const void* src, std::size_t bytes) {
  if (count_ == kCapacity)
    OVERLAP_TRY(issue());
  dsts_[count_] = dst;
  srcs_[count_] = src;
  sizes_[count_] = bytes;
  ++count_;
  return Status::success();
}

Status CopyBatch::issue() {
  const std::size_t count = count_;
  count_ = 0;
  // The legacy default stream takes no batch.
  bool batch = count > 1 && batchedCopies() && stream_ != nullptr && stream_ != cudaStreamLegacy;
  if (batch) {
    // Asked directly: a failure here only means the copies go one by one.
    cudaStreamCaptureStatus capturing = cudaStreamCaptureStatusNone;
    const cudaError_t asked = cudaStreamIsCapturing(stream_, &capturing);
    if (asked != cudaSuccess)
      (void)cudaGetLastError();
    batch = asked == cudaSuccess && capturing == cudaStreamCaptureStatusNone;
  }
  if (batch) {
    cudaMemcpyAttributes attr = {};
    attr.srcAccessOrder = cudaMemcpySrcAccessOrderStream;
    std::size_t first = 0;
    void* const* d = dsts_.data();
    const void* const* s = srcs_.data();
    std::size_t* n = sizes_.data();
    const cudaError_t error =
        OVERLAP_CUDA_CALL(cudaMemcpyBatchAsync(d, s, n, count, &attr, &first, 1, stream_));
    if (error == cudaSuccess)
      return Status::success();
    if (error != cudaErrorNotSupported)
      return OVERLAP_STATUS_OF(cudaMemcpyBatchAsync(d, s, n, count, &attr, &first, 1, stream_),
                               error);
    (void)cudaGetLastError();
    driverRefuses.store(true);
  }
  for (std::size_t i = 0; i < count; ++i)
    OVERLAP_CUDA_TRY(cudaMemcpyAsync(dsts_[i], srcs_[i], sizes_[i], cudaMemcpyDefault, stream_));
  return Status::success();
}

} // namespace overlap
