// Streams (paper 001 §VII; paper 000 §2; paper 004 §11.3): the partition is cut into
// C = min(N, ceil(P / G)) chunks whose copies and kernels are issued on separate pooled streams so
// that transfers overlap with computation. Halo elements shared by neighbouring chunks are copied
// once and shared through events; outputs are copied back per chunk. The algorithm, and how it
// treats pageable arrays, is in detail/Pipeline.cuh. P == 0 returns success untouched.
#pragma once

#include "overlap/NvtxRange.h"
#include "overlap/detail/MultiDevice.cuh"
#include "overlap/detail/Pipeline.cuh"

namespace overlap {

template <class B> Status runStreams(const B& binding, StreamsConfig config) {
  if constexpr (!detail::IsPartitionSlice<B>::value)
    if (config.devices != 1)
      return detail::runOnDevices(
          binding, config, detail::MappedArrays::None, true,
          [](const auto& slice, const StreamsConfig& one) { return runStreams(slice, one); });
  const NvtxRange callRange("overlap:streams");
  return detail::runPipeline(binding, config, detail::OutputPath::Copied);
}

template <class B>
Status runStreamsAsync(const B& binding, StreamsConfig config, cudaStream_t stream) {
  const NvtxRange callRange("overlap:streams-async");
  OVERLAP_TRY(detail::refuseAsyncSplit(config));
  return detail::runPipelineAsync(binding, config, detail::OutputPath::Copied, stream);
}

} // namespace overlap
