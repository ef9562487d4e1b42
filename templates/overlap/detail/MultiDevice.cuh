// One call split across several GPUs (StreamsConfig::devices != 1): the partition is cut into
// contiguous ranges of whole granules, one per device, in proportion to each device's link
// (DeviceSplit.h), and each range runs the strategy on its own device, its own thread, with that
// device's context (stream pool, device memory, staging ring), as a call of one GPU would. Every
// device gets the inputs its range reads, broadcast sections and halos included: a halo that
// crosses a device boundary is copied from the host to both devices, never between devices.
// Outputs tile the partition (docs/annotations.md), so no two devices write one element. A
// reduction array, which every chunk updates, is the exception: the first device's range updates
// the caller's array, every other one a pinned partial of its own that starts from the operator's
// identity (HostReduction.h), and the host combines the partials into the caller's array, in
// device order, once every device is done.
//
// Refused, with a status naming the reason: other outputs written by every chunk (each device
// would copy back its own part over the others'), reductions whose partials the host cannot
// combine (half-precision floats, other element types), and kernels whose file declares
// __constant__ or __device__ variables (they live on the device that set them).
//
// Pageable arrays are registered once for the whole call (portable, so every device uses them),
// or through the registration cache, or staged by each device's ring, as the call's PageableMode
// says; the devices' own calls then find them pinned. Multi-GPU calls are synchronous.
#pragma once

#include "overlap/Binding.cuh"
#include "overlap/DeviceSplit.h"
#include "overlap/HostArrayPinning.h"
#include "overlap/HostReduction.h"
#include "overlap/KernelTypes.h"
#include "overlap/PinCache.h"
#include "overlap/PinnedBuffer.h"
#include "overlap/Status.h"
#include "overlap/detail/CallArrays.cuh"

#include <cuda_runtime_api.h>

#include <string>
#include <system_error>
#include <thread>
#include <type_traits>
#include <vector>

namespace overlap {
namespace detail {

// B restricted to [begin, end) of its partition: what one device of a split call runs. Its
// checkCall() is B's, on the whole call's arguments. `partials` (null, or one host pointer per
// array, null where the caller's stays) redirects reduction arrays to the device's partials.
template <class B> class PartitionSlice {
public:
  static constexpr int kArrays = B::kArrays;

  PartitionSlice(const B& binding, long long begin, long long end,
                 const std::vector<void*>* partials = nullptr)
      : binding_(binding), begin_(begin), end_(end), partials_(partials) {}

  long long partitionExtent() const { return end_ - begin_; }
  long long partitionBegin() const { return begin_; }
  long long granule() const { return binding_.granule(); }
  Status checkCall() const { return binding_.checkCall(); }
  HostArray array(int i) const {
    HostArray array = binding_.array(i);
    if (partials_ != nullptr && (*partials_)[static_cast<std::size_t>(i)] != nullptr)
      array.host = (*partials_)[static_cast<std::size_t>(i)];
    return array;
  }
  int sectionCount(int i) const { return binding_.sectionCount(i); }
  Section section(int i, int s, long long lo, long long hi) const {
    return binding_.section(i, s, lo, hi);
  }
  static bool sectionIsChunked(int i, int s) { return B::sectionIsChunked(i, s); }
  Status launch(void* const* bases, long long lo, long long hi, cudaStream_t stream) const {
    return binding_.launch(bases, lo, hi, stream);
  }

private:
  const B& binding_;
  const long long begin_;
  const long long end_;
  const std::vector<void*>* partials_;
};

template <class B> struct IsPartitionSlice : std::false_type {};
template <class B> struct IsPartitionSlice<PartitionSlice<B>> : std::true_type {};

// Whether B's kernel file declares __constant__ or __device__ variables (generated bindings say
// so with kDeviceGlobals; hand-written ones without it declare none).
template <class B, class = void> struct HasDeviceGlobals : std::false_type {};
template <class B>
struct HasDeviceGlobals<B, std::void_t<decltype(B::kDeviceGlobals)>>
    : std::integral_constant<bool, B::kDeviceGlobals> {};

// Which host arrays the strategy's kernels address directly, so that they are registered mapped.
enum class MappedArrays : unsigned char { None, Outputs, All };

inline Status refuseSplit(const std::string& why) {
  return Status{cudaErrorNotSupported, persistentText("a multi-GPU call " + why), __FILE__,
                __LINE__};
}

template <class B> Status checkSplittable(const B& binding, const std::vector<HostArray>& arrays) {
  if constexpr (HasDeviceGlobals<B>::value) {
    (void)binding;
    (void)arrays;
    return refuseSplit("of a kernel whose file declares __constant__ or __device__ variables: "
                       "they live on one device; run it with StreamsConfig::devices = 1");
  } else {
    for (std::size_t i = 0; i < arrays.size(); ++i) {
      const HostArray& array = arrays[i];
      if (!writes(array.direction) || absent(array))
        continue;
      if (array.reduction) {
        if (!hostCombinable(array.reduce, array.kind, array.elementSize))
          return refuseSplit(std::string("cannot split reduction '") + array.name +
                             "': the host cannot combine its devices' partial results (operator "
                             "or element type other than integers and 32- or 64-bit floats); "
                             "run it with StreamsConfig::devices = 1");
        continue;
      }
      const int index = static_cast<int>(i);
      bool wholeOutput = binding.sectionCount(index) == 0;
      for (int s = 0; s < binding.sectionCount(index); ++s)
        wholeOutput = wholeOutput || !binding.sectionIsChunked(index, s);
      if (wholeOutput)
        return refuseSplit(std::string("cannot split array '") + array.name +
                           "': every chunk writes it, and each device would copy back its own "
                           "part over the others' (a reduction must say so: reduce(...)); run "
                           "it with StreamsConfig::devices = 1");
    }
    return Status::success();
  }
}

// Runs `run` with `device` current on the calling thread, which it leaves on that device (the
// thread is the call's own).
template <class Run> Status onDevice(int device, Run&& run) {
  placeThreadNearDevice(device);
  OVERLAP_CUDA_TRY(cudaSetDevice(device));
  Status status = run();
  if (!status.ok() && status.call != nullptr)
    status.call = persistentText("on device " + std::to_string(device) + ": " + status.call);
  return status;
}

// The split call: runOne(slice, config) runs the strategy on the current device over `slice`
// (a PartitionSlice<B>) with `config` on one device.
template <class B, class RunOne>
Status runOnDevices(const B& binding, const StreamsConfig& config, MappedArrays mapped, bool pins,
                    RunOne&& runOne) {
  Partition partition;
  std::vector<HostArray> arrays;
  OVERLAP_TRY(beginCall(binding, &partition, &arrays));
  if (partition.extent == 0)
    return Status::success();
  OVERLAP_TRY(checkSplittable(binding, arrays));
  std::vector<int> devices;
  OVERLAP_TRY(selectDevices(config.devices, config.deviceMask, &devices));
  std::vector<double> weights(devices.size());
  for (std::size_t k = 0; k < devices.size(); ++k)
    OVERLAP_TRY(deviceSplitWeight(devices[k], &weights[k]));
  const std::vector<DeviceRange> ranges = splitPartition(partition, devices, weights);
  StreamsConfig one = config;
  one.devices = 1;
  one.deviceMask = 0;

  // Registered once, for every device: two devices' calls registering the same pages would
  // collide, and the first to finish would unregister them under the other.
  HostArrayPinning pinning;
  if (pins) {
    std::vector<HostArrayUse> uses;
    for (const HostArray& array : arrays)
      uses.push_back({array.host, arrayBytes(array), writes(array.direction),
                      mapped == MappedArrays::All ||
                          (mapped == MappedArrays::Outputs && array.direction == Direction::Out)});
    OVERLAP_TRY(pinning.pin(uses, false, pinningPolicy(resolvePageableMode(config.pageable))));
  }
  // Every range but the first updates partials of the reduction arrays of its own.
  std::vector<std::vector<void*>> partials(ranges.size(), std::vector<void*>(arrays.size()));
  std::vector<PinnedBuffer> partialMemory;
  partialMemory.reserve((ranges.size() > 0 ? ranges.size() - 1 : 0) * arrays.size());
  for (std::size_t k = 1; k < ranges.size(); ++k) {
    for (std::size_t i = 0; i < arrays.size(); ++i) {
      const HostArray& array = arrays[i];
      if (!array.reduction || absent(array) || array.extent == 0)
        continue;
      partialMemory.emplace_back();
      OVERLAP_TRY(PinnedBuffer::allocate(arrayBytes(array), &partialMemory.back()));
      startPartial(array.reduce, array.kind, array.host, partialMemory.back().data(),
                   arrayBytes(array));
      partials[k][i] = partialMemory.back().data();
    }
  }
  std::vector<Status> results(ranges.size());
  const auto runRange = [&](std::size_t k) {
    const PartitionSlice<B> slice(binding, ranges[k].begin, ranges[k].end, &partials[k]);
    results[k] = onDevice(ranges[k].device, [&] { return runOne(slice, one); });
  };
  std::vector<std::thread> threads;
  for (std::size_t k = 0; k < ranges.size(); ++k) {
    try {
      threads.emplace_back(runRange, k);
    } catch (const std::system_error&) {
      results[k] =
          Status{cudaErrorOperatingSystem,
                 "std::thread: no thread for a device of a multi-GPU call", __FILE__, __LINE__};
    }
  }
  for (std::thread& thread : threads)
    thread.join();
  Status first;
  for (const Status& result : results)
    keepFirst(first, result);
  if (first.ok()) {
    for (std::size_t k = 1; k < ranges.size(); ++k)
      for (std::size_t i = 0; i < arrays.size(); ++i)
        if (partials[k][i] != nullptr)
          combinePartial(arrays[i].reduce, arrays[i].kind, arrays[i].host, partials[k][i],
                         arrayBytes(arrays[i]));
  }
  keepFirst(first, pinning.release());
  return first;
}

inline Status refuseAsyncSplit(const StreamsConfig& config) {
  if (config.devices == 1)
    return Status::success();
  return refuseSplit("is synchronous: the asynchronous entry points run on the caller's stream's "
                     "device (StreamsConfig::devices must be 1)");
}

} // namespace detail
} // namespace overlap
