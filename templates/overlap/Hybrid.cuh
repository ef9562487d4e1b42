// Hybrid (paper 001 §VII): inputs travel as in Streams, but the kernels write pure outputs straight
// into mapped host memory, so the device-to-host traffic overlaps with other streams' copies even
// with one copy engine. InOut arrays are copied in and out as in Streams (detail/Pipeline.cuh).
// Pageable outputs are registered for the call; if that fails the call fails, since the kernel
// cannot write pageable memory. P == 0 returns success untouched.
#pragma once

#include "overlap/NvtxRange.h"
#include "overlap/detail/MultiDevice.cuh"
#include "overlap/detail/Pipeline.cuh"

namespace overlap {

template <class B> Status runHybrid(const B& binding, StreamsConfig config) {
  if constexpr (!detail::IsPartitionSlice<B>::value)
    if (config.devices != 1)
      return detail::runOnDevices(
          binding, config, detail::MappedArrays::Outputs, true,
          [](const auto& slice, const StreamsConfig& one) { return runHybrid(slice, one); });
  const NvtxRange callRange("overlap:hybrid");
  return detail::runPipeline(binding, config, detail::OutputPath::Mapped);
}

template <class B>
Status runHybridAsync(const B& binding, StreamsConfig config, cudaStream_t stream) {
  const NvtxRange callRange("overlap:hybrid-async");
  OVERLAP_TRY(detail::refuseAsyncSplit(config));
  return detail::runPipelineAsync(binding, config, detail::OutputPath::Mapped, stream);
}

} // namespace overlap
