// Mapped, paper 001's "Implicit" (§VII): no copies, except of reduction arrays. One launch over
// [B, B + P) reads and writes the user's host memory over the bus, through mapped (zero-copy)
// pointers. Reduction arrays alone get device buffers, copied in before the launch and out after.
//
// Pinned, device and managed user memory is addressed as is; pageable arrays are registered for
// the call or through the registration cache, as `pageable` says (PageableMode::Stage, which
// copies, is Default here: Mapped copies nothing), and a registration failure is an error here,
// since the kernel cannot address pageable memory. P == 0 returns success untouched.
#pragma once

#include "overlap/binding.cuh"
#include "overlap/detail/call_arrays.cuh"
#include "overlap/device_context.h"
#include "overlap/host_array_pinning.h"
#include "overlap/nvtx_range.h"
#include "overlap/pin_cache.h"
#include "overlap/status.h"

#include <vector>

namespace overlap {

template <class B>
Status run_mapped(const B& binding, PageableMode pageable = PageableMode::Default) {
  const NvtxRange call_range("overlap:mapped");
  Partition partition;
  std::vector<HostArray> arrays;
  OVERLAP_TRY(detail::begin_call(binding, &partition, &arrays));
  if (partition.extent == 0)
    return Status::success();
  if (static_cast<unsigned>(pageable) > static_cast<unsigned>(PageableMode::Stage))
    return OVERLAP_DETAIL_INVALID_BINDING("run_mapped: pageable is not a PageableMode");
  if (pageable == PageableMode::Stage)
    pageable = PageableMode::Default;
  DeviceContextLease lease;
  OVERLAP_TRY(detail::lease_device(&lease, 1));
  DeviceContext& context = lease.context();
  const cudaStream_t stream = context.pool().stream(0);
  bool read_only_supported = false;
  OVERLAP_TRY(context.read_only_registration_supported(&read_only_supported));

  // Reduction arrays live on the device: every thread's atomics would otherwise cross the bus.
  // Pageable ones are registered like the others all the same (not mapped, so a failure only
  // costs an asynchronous copy): a page they share with an input must not be registered
  // read-only, since their copy back writes it.
  std::vector<bool> on_device(arrays.size());
  std::vector<HostArrayUse> uses;
  for (std::size_t i = 0; i < arrays.size(); ++i) {
    const HostArray& array = arrays[i];
    on_device[i] = array.reduction && !detail::absent(array);
    uses.push_back(
        {array.host, detail::array_bytes(array), writes(array.direction), !on_device[i]});
  }
  HostArrayPinning pinning;
  Status first =
      pinning.pin(uses, read_only_supported, pinning_policy(resolve_pageable_mode(pageable)));
  std::vector<void*> bases(arrays.size(), nullptr);
  if (first.ok()) {
    for (std::size_t i = 0; i < arrays.size(); ++i)
      if (!on_device[i])
        bases[i] = pinning.device_pointer(static_cast<int>(i));
    first = detail::place_device_buffers(context.memory(), arrays, on_device, &bases);
  }
  if (first.ok()) {
    const NvtxRange range("h2d");
    first = detail::copy_whole_call(binding, arrays, bases, on_device, partition,
                                    detail::CopyDirection::ToDevice, stream);
  }
  if (first.ok()) {
    const NvtxRange range("kernel");
    first =
        binding.launch(bases.data(), partition.begin, partition.begin + partition.extent, stream);
  }
  if (first.ok()) {
    const NvtxRange range("d2h");
    first = detail::copy_whole_call(binding, arrays, bases, on_device, partition,
                                    detail::CopyDirection::ToHost, stream);
  }
  // The registrations may only go once the kernel stopped touching the memory.
  keep_first(first, detail::synchronize(stream));
  keep_first(first, pinning.release());
  return first;
}

} // namespace overlap
