// Streams (paper 001 §VII; paper 000 §2; paper 004 §11.3): the partition is cut into
// C = min(N, ceil(P / G)) chunks whose copies and kernels are issued on separate pooled streams so
// that transfers overlap with computation. Halo elements shared by neighbouring chunks are copied
// once and shared through events; outputs are copied back per chunk. The algorithm, and how it
// treats pageable arrays, is in detail/pipeline.cuh. P == 0 returns success untouched.
#pragma once

#include "overlap/detail/pipeline.cuh"
#include "overlap/nvtx_range.h"

namespace overlap {

template <class B> Status run_streams(const B& binding, StreamsConfig config) {
  const NvtxRange call_range("overlap:streams");
  return detail::run_pipeline(binding, config, detail::OutputPath::Copied);
}

} // namespace overlap
