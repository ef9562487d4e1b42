// Explicit (paper 001 §VII): the bulk-synchronous reference every other strategy is tested
// against. Copy in everything one launch over [B, B + P) reads, launch once, copy out everything
// it writes (reduction arrays whole, like any array without sections), and return when the
// results are in the user's arrays.
//
// Pageable user arrays are not pinned: the copies are synchronous with one another anyway, and
// pinning costs about one more copy (HostArrayPinning.h). P == 0 returns success untouched.
//
// runExplicitAsync issues the same on the caller's stream, its buffers stream-ordered
// (detail/AsyncCall.cuh; pageable arrays make it synchronous).
#pragma once

#include "overlap/Binding.cuh"
#include "overlap/DeviceContext.h"
#include "overlap/NvtxRange.h"
#include "overlap/Status.h"
#include "overlap/detail/AsyncCall.cuh"
#include "overlap/detail/CallArrays.cuh"

#include <vector>

namespace overlap {
namespace detail {

// Every array present has a device buffer; absent optional arrays have none (a null base).
inline std::vector<bool> explicitBuffers(const std::vector<HostArray>& arrays) {
  std::vector<bool> onDevice(arrays.size());
  for (std::size_t i = 0; i < arrays.size(); ++i)
    onDevice[i] = !absent(arrays[i]);
  return onDevice;
}

} // namespace detail

template <class B> Status runExplicit(const B& binding) {
  const NvtxRange callRange("overlap:explicit");
  Partition partition;
  std::vector<HostArray> arrays;
  OVERLAP_TRY(detail::beginCall(binding, &partition, &arrays));
  if (partition.extent == 0)
    return Status::success();
  DeviceContextLease lease;
  OVERLAP_TRY(detail::leaseDevice(&lease, 1));
  DeviceContext& context = lease.context();
  const cudaStream_t stream = context.pool().stream(0);

  const std::vector<bool> onDevice = detail::explicitBuffers(arrays);
  std::vector<void*> bases(arrays.size(), nullptr);
  OVERLAP_TRY(detail::placeDeviceBuffers(context.memory(), arrays, onDevice, "Explicit", &bases));
  Status first = detail::issueWholeCall(binding, arrays, bases, onDevice, partition, stream);
  // Also after a failure: the cached buffers must be idle before the next call reuses them.
  keepFirst(first, detail::synchronize(stream));
  return first;
}

template <class B> Status runExplicitAsync(const B& binding, cudaStream_t stream) {
  const NvtxRange callRange("overlap:explicit-async");
  return detail::asyncCall(
      binding, stream, [&] { return runExplicit(binding); },
      [&](const Partition& partition, const std::vector<HostArray>& arrays,
          const std::vector<HostMemoryKind>&, DeviceContext& context, bool*) {
        return detail::issueWholeCallAsync(binding, context, "Explicit", arrays,
                                           detail::explicitBuffers(arrays), partition,
                                           std::vector<void*>(arrays.size(), nullptr), stream);
      });
}

} // namespace overlap
