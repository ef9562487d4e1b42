// Hybrid (paper 001 §VII): inputs travel as in Streams, but the kernels write pure outputs straight
// into mapped host memory, so the device-to-host traffic overlaps with other streams' copies even
// with one copy engine. InOut arrays are copied in and out as in Streams (detail/pipeline.cuh).
// Pageable outputs are registered for the call; if that fails the call fails, since the kernel
// cannot write pageable memory. P == 0 returns success untouched.
#pragma once

#include "overlap/detail/pipeline.cuh"
#include "overlap/nvtx_range.h"

namespace overlap {

template <class B> Status run_hybrid(const B& binding, StreamsConfig config) {
  const NvtxRange call_range("overlap:hybrid");
  return detail::run_pipeline(binding, config, detail::OutputPath::Mapped);
}

} // namespace overlap
