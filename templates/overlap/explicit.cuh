// Explicit (paper 001 §VII): the bulk-synchronous reference every other strategy is tested
// against. Copy in everything one launch over [0, P) reads, launch once, copy out everything it
// writes, and return when the results are in the user's arrays.
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
                      const std::vector<void*>& bases, long long extent, cudaStream_t stream) {
  {
    const NvtxRange range("h2d");
    for (int i = 0; i < static_cast<int>(arrays.size()); ++i) {
      const HostArray& array = arrays[static_cast<std::size_t>(i)];
      if (!reads(array.direction))
        continue;
      for (const Section& s : whole_call_sections(binding, i, extent, array.extent))
        OVERLAP_TRY(copy_section(array, bases[static_cast<std::size_t>(i)], s,
                                 CopyDirection::ToDevice, stream));
    }
  }
  {
    const NvtxRange range("kernel");
    OVERLAP_TRY(binding.launch(bases.data(), 0, extent, stream));
  }
  const NvtxRange range("d2h");
  for (int i = 0; i < static_cast<int>(arrays.size()); ++i) {
    const HostArray& array = arrays[static_cast<std::size_t>(i)];
    if (!writes(array.direction))
      continue;
    for (const Section& s : whole_call_sections(binding, i, extent, array.extent))
      OVERLAP_TRY(copy_section(array, bases[static_cast<std::size_t>(i)], s, CopyDirection::ToHost,
                               stream));
  }
  return Status::success();
}

} // namespace detail

template <class B> Status run_explicit(const B& binding) {
  const NvtxRange call_range("overlap:explicit");
  long long extent = 0;
  std::vector<HostArray> arrays;
  OVERLAP_TRY(detail::begin_call(binding, &extent, &arrays));
  if (extent == 0)
    return Status::success();
  DeviceContextLease lease;
  OVERLAP_TRY(detail::lease_device(&lease, 1));
  DeviceContext& context = lease.context();
  const cudaStream_t stream = context.pool().stream(0);

  std::vector<void*> bases(arrays.size(), nullptr);
  OVERLAP_TRY(detail::place_device_buffers(context.memory(), arrays,
                                           std::vector<bool>(arrays.size(), true), &bases));
  Status first = detail::issue_explicit(binding, arrays, bases, extent, stream);
  // Also after a failure: the cached buffers must be idle before the next call reuses them.
  keep_first(first, detail::synchronize(stream));
  return first;
}

} // namespace overlap
