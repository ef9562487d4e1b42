// Explicit (paper 001 §VII): the bulk-synchronous reference every other strategy is tested
// against. Copy in everything one launch over [B, B + P) reads, launch once, copy out everything
// it writes (reduction arrays whole, like any array without sections), and return when the
// results are in the user's arrays.
//
// Pageable user arrays are not pinned: the copies are synchronous with one another anyway, and
// pinning costs about one more copy (host_array_pinning.h). P == 0 returns success untouched.
#pragma once

#include "overlap/binding.cuh"
#include "overlap/detail/call_arrays.cuh"
#include "overlap/device_context.h"
#include "overlap/nvtx_range.h"
#include "overlap/status.h"

#include <vector>

namespace overlap {
namespace detail {

template <class B>
Status issue_explicit(const B& binding, const std::vector<HostArray>& arrays,
                      const std::vector<void*>& bases, const std::vector<bool>& on_device,
                      const Partition& partition, cudaStream_t stream) {
  {
    const NvtxRange range("h2d");
    OVERLAP_TRY(copy_whole_call(binding, arrays, bases, on_device, partition,
                                CopyDirection::ToDevice, stream));
  }
  {
    const NvtxRange range("kernel");
    OVERLAP_TRY(
        binding.launch(bases.data(), partition.begin, partition.begin + partition.extent, stream));
  }
  const NvtxRange range("d2h");
  return copy_whole_call(binding, arrays, bases, on_device, partition, CopyDirection::ToHost,
                         stream);
}

} // namespace detail

template <class B> Status run_explicit(const B& binding) {
  const NvtxRange call_range("overlap:explicit");
  Partition partition;
  std::vector<HostArray> arrays;
  OVERLAP_TRY(detail::begin_call(binding, &partition, &arrays));
  if (partition.extent == 0)
    return Status::success();
  DeviceContextLease lease;
  OVERLAP_TRY(detail::lease_device(&lease, 1));
  DeviceContext& context = lease.context();
  const cudaStream_t stream = context.pool().stream(0);

  // Every array present has a device buffer; absent optional arrays have none (a null base).
  std::vector<bool> on_device(arrays.size());
  for (std::size_t i = 0; i < arrays.size(); ++i)
    on_device[i] = !detail::absent(arrays[i]);
  std::vector<void*> bases(arrays.size(), nullptr);
  OVERLAP_TRY(detail::place_device_buffers(context.memory(), arrays, on_device, &bases));
  Status first = detail::issue_explicit(binding, arrays, bases, on_device, partition, stream);
  // Also after a failure: the cached buffers must be idle before the next call reuses them.
  keep_first(first, detail::synchronize(stream));
  return first;
}

} // namespace overlap
