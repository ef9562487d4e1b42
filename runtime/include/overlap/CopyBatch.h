// The copies a pipeline issues together on one stream (a chunk's sections of several arrays, its
// halos, the broadcast sections) as one cudaMemcpyBatchAsync (CUDA 12.8+): one call of the host
// for the lot instead of one per section, where the host's calls bound the call (saxpy's two
// arrays a chunk: 0.88-0.91 of the issue time one by one; bench/README.md). Issued one by one
// instead: a single copy, the legacy default stream (which takes no batch), a stream being
// captured (a graph holds one node per copy either way), a driver without batches
// (cudaErrorNotSupported, remembered for the process), or setBatchedCopies(false). Copies of one
// batch may run in any order: they never overlap.
#pragma once

#include "overlap/Status.h"

#include <cuda_runtime_api.h>

#include <array>
#include <cstddef>

namespace overlap {

class CopyBatch {
public:
  explicit CopyBatch(cudaStream_t stream) : stream_(stream) {}
  CopyBatch(const CopyBatch&) = delete;
  CopyBatch& operator=(const CopyBatch&) = delete;

  // Adds a copy of `bytes` (> 0) between any two addresses the device reaches or pinned host
  // memory (the direction follows from the addresses); issues the batch when it is full.
  Status add(void* dst, const void* src, std::size_t bytes);
  // Issues what was added, in one call where it can.
  Status issue();
  cudaStream_t stream() const { return stream_; }

private:
  static constexpr std::size_t kCapacity = 16;
  cudaStream_t stream_;
  std::size_t count_ = 0;
  std::array<void*, kCapacity> dsts_{};
  std::array<const void*, kCapacity> srcs_{};
  std::array<std::size_t, kCapacity> sizes_{};
};

// Whether pipelines batch their copies (default true); for benchmarks that compare.
void setBatchedCopies(bool on);
bool batchedCopies();

} // namespace overlap
