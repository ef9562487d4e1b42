// Mapped, paper 001's "Implicit" (§VII): no copies, except of reduction arrays. One launch over
// [B, B + P) reads and writes the user's host memory over the bus, through mapped (zero-copy)
// pointers. Reduction arrays alone get device buffers, copied in before the launch and out after.
//
// Pinned, device and managed user memory is addressed as is; pageable arrays are registered for
// the call or through the registration cache, as `pageable` says (PageableMode::Stage, which
// copies, is Default here: Mapped copies nothing), and a registration failure is an error here,
// since the kernel cannot address pageable memory. P == 0 returns success untouched.
#pragma once

#include "overlap/Binding.cuh"
#include "overlap/DeviceContext.h"
#include "overlap/HostArrayPinning.h"
#include "overlap/NvtxRange.h"
#include "overlap/PinCache.h"
#include "overlap/Status.h"
#include "overlap/detail/CallArrays.cuh"

#include <vector>

namespace overlap {

template <class B>
Status runMapped(const B& binding, PageableMode pageable = PageableMode::Default) {
  const NvtxRange callRange("overlap:mapped");
  Partition partition;
  std::vector<HostArray> arrays;
  OVERLAP_TRY(detail::beginCall(binding, &partition, &arrays));
  if (partition.extent == 0)
    return Status::success();
  if (static_cast<unsigned>(pageable) > static_cast<unsigned>(PageableMode::Stage))
    return OVERLAP_DETAIL_INVALID_BINDING("run_mapped: pageable is not a PageableMode");
  if (pageable == PageableMode::Stage)
    pageable = PageableMode::Default;
  DeviceContextLease lease;
  OVERLAP_TRY(detail::leaseDevice(&lease, 1));
  DeviceContext& context = lease.context();
  const cudaStream_t stream = context.pool().stream(0);
  bool readOnlySupported = false;
  OVERLAP_TRY(context.readOnlyRegistrationSupported(&readOnlySupported));

  // Reduction arrays live on the device: every thread's atomics would otherwise cross the bus.
  // Pageable ones are registered like the others all the same (not mapped, so a failure only
  // costs an asynchronous copy): a page they share with an input must not be registered
  // read-only, since their copy back writes it.
  std::vector<bool> onDevice(arrays.size());
  std::vector<HostArrayUse> uses;
  for (std::size_t i = 0; i < arrays.size(); ++i) {
    const HostArray& array = arrays[i];
    onDevice[i] = array.reduction && !detail::absent(array);
    uses.push_back({array.host, detail::arrayBytes(array), writes(array.direction), !onDevice[i]});
  }
  HostArrayPinning pinning;
  Status first = pinning.pin(uses, readOnlySupported, pinningPolicy(resolvePageableMode(pageable)));
  std::vector<void*> bases(arrays.size(), nullptr);
  if (first.ok()) {
    for (std::size_t i = 0; i < arrays.size(); ++i)
      if (!onDevice[i])
        bases[i] = pinning.devicePointer(static_cast<int>(i));
    first = detail::placeDeviceBuffers(context.memory(), arrays, onDevice, "Mapped", &bases);
  }
  if (first.ok()) {
    const NvtxRange range("h2d");
    first = detail::copyWholeCall(binding, arrays, bases, onDevice, partition,
                                  detail::CopyDirection::ToDevice, stream);
  }
  if (first.ok()) {
    const NvtxRange range("kernel");
    first =
        binding.launch(bases.data(), partition.begin, partition.begin + partition.extent, stream);
  }
  if (first.ok()) {
    const NvtxRange range("d2h");
    first = detail::copyWholeCall(binding, arrays, bases, onDevice, partition,
                                  detail::CopyDirection::ToHost, stream);
  }
  // The registrations may only go once the kernel stopped touching the memory.
  keepFirst(first, detail::synchronize(stream));
  keepFirst(first, pinning.release());
  return first;
}

} // namespace overlap
