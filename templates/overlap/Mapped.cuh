// Mapped, paper 001's "Implicit" (§VII): no copies, except of reduction arrays. One launch over
// [B, B + P) reads and writes the user's host memory over the bus, through mapped (zero-copy)
// pointers. Reduction arrays alone get device buffers, copied in before the launch and out after.
//
// Pinned, device and managed user memory is addressed as is; pageable arrays are registered for
// the call or through the registration cache, as `pageable` says (PageableMode::Stage, which
// copies, is Default here: Mapped copies nothing), and a registration failure is an error here,
// since the kernel cannot address pageable memory. P == 0 returns success untouched.
//
// runMappedAsync issues the same on the caller's stream (detail/AsyncCall.cuh: pageable arrays
// make it synchronous).
#pragma once

#include "overlap/Binding.cuh"
#include "overlap/DeviceContext.h"
#include "overlap/HostArrayPinning.h"
#include "overlap/NvtxRange.h"
#include "overlap/PinCache.h"
#include "overlap/Status.h"
#include "overlap/detail/AsyncCall.cuh"
#include "overlap/detail/CallArrays.cuh"

#include <vector>

namespace overlap {

namespace detail {

// Reduction arrays live on the device: every thread's atomics would otherwise cross the bus.
// Pageable ones are registered like the others all the same (not mapped, so a failure only costs
// an asynchronous copy): a page they share with an input must not be registered read-only, since
// their copy back writes it.
inline void placeMapped(const std::vector<HostArray>& arrays, std::vector<bool>* onDevice,
                        std::vector<HostArrayUse>* uses) {
  onDevice->assign(arrays.size(), false);
  uses->clear();
  for (std::size_t i = 0; i < arrays.size(); ++i) {
    const HostArray& array = arrays[i];
    (*onDevice)[i] = array.reduction && !absent(array);
    uses->push_back({array.host, arrayBytes(array), writes(array.direction), !(*onDevice)[i]});
  }
}

// Where the kernel addresses the mapped arrays, once pinned.
inline void mappedBases(const HostArrayPinning& pinning, const std::vector<bool>& onDevice,
                        std::vector<void*>* bases) {
  for (std::size_t i = 0; i < onDevice.size(); ++i)
    if (!onDevice[i])
      (*bases)[i] = pinning.devicePointer(static_cast<int>(i));
}

} // namespace detail

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

  std::vector<bool> onDevice;
  std::vector<HostArrayUse> uses;
  detail::placeMapped(arrays, &onDevice, &uses);
  HostArrayPinning pinning;
  Status first = pinning.pin(uses, readOnlySupported, pinningPolicy(resolvePageableMode(pageable)));
  std::vector<void*> bases(arrays.size(), nullptr);
  if (first.ok()) {
    detail::mappedBases(pinning, onDevice, &bases);
    first = detail::placeDeviceBuffers(context.memory(), arrays, onDevice, "Mapped", &bases);
  }
  if (first.ok())
    first = detail::issueWholeCall(binding, arrays, bases, onDevice, partition, stream);
  // The registrations may only go once the kernel stopped touching the memory.
  keepFirst(first, detail::synchronize(stream));
  keepFirst(first, pinning.release());
  return first;
}

template <class B> Status runMappedAsync(const B& binding, cudaStream_t stream) {
  const NvtxRange callRange("overlap:mapped-async");
  return detail::asyncCall(
      binding, stream, [&] { return runMapped(binding); },
      [&](const Partition& partition, const std::vector<HostArray>& arrays,
          const std::vector<HostMemoryKind>&, DeviceContext& context, bool*) {
        std::vector<bool> onDevice;
        std::vector<HostArrayUse> uses;
        detail::placeMapped(arrays, &onDevice, &uses);
        // No array is pageable: pin() registers nothing, it finds the mapped addresses.
        HostArrayPinning pinning;
        OVERLAP_TRY(pinning.pin(uses, false, PinningPolicy{}));
        std::vector<void*> bases(arrays.size(), nullptr);
        detail::mappedBases(pinning, onDevice, &bases);
        return detail::issueWholeCallAsync(binding, context, "Mapped", arrays, onDevice, partition,
                                           std::move(bases), stream);
      });
}

} // namespace overlap
