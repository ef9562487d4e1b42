// Mapped, paper 001's "Implicit" (§VII): no copies at all. One launch over [0, P) reads and
// writes the user's host memory over the bus, through mapped (zero-copy) pointers.
//
// Pinned, device and managed user memory is addressed as is; pageable arrays are registered for
// the call (host_array_pinning.h), and a registration failure is an error here, since the kernel
// cannot address pageable memory. P == 0 returns success untouched.
#pragma once

#include "overlap/binding.cuh"
#include "overlap/detail/call_arrays.cuh"
#include "overlap/device_context.h"
#include "overlap/host_array_pinning.h"
#include "overlap/nvtx_range.h"
#include "overlap/status.h"

#include <vector>

namespace overlap {

template <class B> Status run_mapped(const B& binding) {
  const NvtxRange call_range("overlap:mapped");
  long long extent = 0;
  std::vector<HostArray> arrays;
  OVERLAP_TRY(detail::begin_call(binding, &extent, &arrays));
  if (extent == 0)
    return Status::success();
  DeviceContextLease lease;
  OVERLAP_TRY(detail::lease_device(&lease, 1));
  DeviceContext& context = lease.context();
  const cudaStream_t stream = context.pool().stream(0);
  bool read_only_supported = false;
  OVERLAP_TRY(context.read_only_registration_supported(&read_only_supported));

  std::vector<HostArrayUse> uses;
  for (const HostArray& array : arrays)
    uses.push_back({array.host, detail::array_bytes(array), writes(array.direction), true});
  HostArrayPinning pinning;
  Status first = pinning.pin(uses, read_only_supported);
  if (first.ok()) {
    std::vector<void*> bases(arrays.size(), nullptr);
    for (std::size_t i = 0; i < arrays.size(); ++i)
      bases[i] = pinning.device_pointer(static_cast<int>(i));
    const NvtxRange range("kernel");
    first = binding.launch(bases.data(), 0, extent, stream);
  }
  // The registrations may only go once the kernel stopped touching the memory.
  keep_first(first, detail::synchronize(stream));
  keep_first(first, pinning.release());
  return first;
}

} // namespace overlap
