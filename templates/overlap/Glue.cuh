// Helpers for the host code overlap-gen emits: argument unpacking for the descriptor, checked
// narrowing of chunk bounds into the kernel's parameter types, and the descriptor's entry points
// written once as templates over a Binding (Binding.cuh) instead of once per kernel.
#pragma once

#include "overlap/Binding.cuh"
#include "overlap/Descriptor.h"
#include "overlap/Explicit.cuh"
#include "overlap/Hybrid.cuh"
#include "overlap/Launch.cuh"
#include "overlap/Mapped.cuh"
#include "overlap/Streams.cuh"
#include "overlap/detail/MultiDevice.cuh"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <limits>
#include <type_traits>

namespace overlap {
namespace glue {

// The value of the kernel's i-th argument from a descriptor call (args[i] points at it).
template <class T> T arg(ArgPointers args, int i) {
  return *static_cast<const T*>(args[i]);
}

// Stores v into *out when the parameter's type can hold it; a chunk length or bound that does not
// fit (say, 2^31 elements into an int parameter) is a configuration error, never a silent wrap.
template <class T> Status narrow(long long v, const char* what, T* out) {
  using Limits = std::numeric_limits<T>;
  const bool fits = std::is_signed<T>::value
                        ? (v >= static_cast<long long>(Limits::min()) &&
                           v <= static_cast<long long>(Limits::max()))
                        : (v >= 0 && static_cast<unsigned long long>(v) <=
                                         static_cast<unsigned long long>(Limits::max()));
  if (!fits)
    return Status{cudaErrorInvalidValue, what, __FILE__, __LINE__};
  *out = static_cast<T>(v);
  return Status::success();
}

// Generated glue calls it by this name (Launch.cuh).
using ::overlap::launchStatus;

template <class B> Status run(const B& binding, const RunConfig& config) {
  const bool split = config.streams.devices != 1;
  switch (config.variant) {
  case Variant::Explicit:
    if (split)
      return detail::runOnDevices(
          binding, config.streams, detail::MappedArrays::None, false,
          [](const auto& slice, const StreamsConfig&) { return runExplicit(slice); });
    return runExplicit(binding);
  case Variant::Mapped:
    if (split)
      return detail::runOnDevices(binding, config.streams, detail::MappedArrays::All, true,
                                  [](const auto& slice, const StreamsConfig& one) {
                                    return runMapped(slice, one.pageable);
                                  });
    return runMapped(binding, config.streams.pageable);
  case Variant::Streams:
    return runStreams(binding, config.streams);
  case Variant::Hybrid:
    return runHybrid(binding, config.streams);
  }
  return Status{cudaErrorInvalidValue, "overlap::glue::run: unknown variant", __FILE__, __LINE__};
}

// run() on the caller's stream (detail/AsyncCall.cuh).
template <class B> Status runAsync(const B& binding, const RunConfig& config, cudaStream_t stream) {
  OVERLAP_TRY(detail::refuseAsyncSplit(config.streams));
  switch (config.variant) {
  case Variant::Explicit:
    return runExplicitAsync(binding, stream);
  case Variant::Mapped:
    return runMappedAsync(binding, stream);
  case Variant::Streams:
    return runStreamsAsync(binding, config.streams, stream);
  case Variant::Hybrid:
    return runHybridAsync(binding, config.streams, stream);
  }
  return Status{cudaErrorInvalidValue, "overlap::glue::runAsync: unknown variant", __FILE__,
                __LINE__};
}

// Descriptor entry points (Descriptor.h) for any Binding with a static fromArgs(ArgPointers).
template <class B> long long partitionExtent(ArgPointers args) {
  return B::fromArgs(args).partitionExtent();
}
template <class B> long long partitionBegin(ArgPointers args) {
  return B::fromArgs(args).partitionBegin();
}
template <class B> long long granule(ArgPointers args) {
  return B::fromArgs(args).granule();
}
template <class B> long long arrayExtent(ArgPointers args, int array) {
  return B::fromArgs(args).array(array).extent;
}
template <class B> int sectionCount(ArgPointers args, int array) {
  return B::fromArgs(args).sectionCount(array);
}
template <class B>
Section section(ArgPointers args, int array, int index, long long lo, long long hi) {
  return B::fromArgs(args).section(array, index, lo, hi);
}
template <class B> bool sectionIsChunked(int array, int index) {
  return B::sectionIsChunked(array, index);
}
template <class B> Status runFromArgs(ArgPointers args, const RunConfig& config) {
  return run(B::fromArgs(args), config);
}
template <class B>
Status runAsyncFromArgs(ArgPointers args, const RunConfig& config, cudaStream_t stream) {
  return runAsync(B::fromArgs(args), config, stream);
}

// The geometry of B's launch over [lo, hi): B::launchConfig, the code its launch() runs, and
// the occupancy of B's kernel at that block size and shared memory (B::residentBlocks).
template <class B>
Status queryLaunchGeometry(ArgPointers args, long long lo, long long hi, LaunchGeometry* out) {
  const B binding = B::fromArgs(args);
  LaunchConfig config;
  OVERLAP_TRY(binding.launchConfig(lo, hi, &config));
  LaunchGeometry geometry;
  geometry.blocks = static_cast<long long>(config.grid.x) * config.grid.y * config.grid.z;
  geometry.blockThreads = static_cast<int>(config.block.x * config.block.y * config.block.z);
  geometry.sharedBytes = config.sharedBytes;
  geometry.gridStride = config.gridStride;
  OVERLAP_TRY(B::residentBlocks(geometry.blockThreads, geometry.sharedBytes,
                                &geometry.residentBlocksPerSm));
  *out = geometry;
  return Status::success();
}

template <class B>
Status launchGeometry(ArgPointers args, long long lo, long long hi, LaunchGeometry* out) {
  const Status status = queryLaunchGeometry<B>(args, lo, hi, out);
  // A failed query (no device, a block that fits nowhere) also sets the runtime's last error,
  // which the next launch's cudaGetLastError would report as its own: clear it here.
  if (!status.ok())
    (void)cudaGetLastError();
  return status;
}

// `count` elements from `offset` on lie within a variable of `capacity` elements.
inline Status checkSymbolRange(std::size_t count, std::size_t offset, unsigned long long capacity,
                               const char* range) {
  if (offset > capacity || count > capacity - offset)
    return Status{cudaErrorInvalidValue, range, __FILE__, __LINE__};
  return Status::success();
}

// The generated setter and getter of a __constant__ or __device__ variable of `capacity`
// elements: `count` elements from `offset` on, between host memory and the current device's copy.
template <class Symbol, class T>
Status copyToSymbol(const Symbol& symbol, const T* values, std::size_t count, std::size_t offset,
                    unsigned long long capacity, const char* range) {
  OVERLAP_TRY(checkSymbolRange(count, offset, capacity, range));
  if (count == 0)
    return Status::success();
  OVERLAP_CUDA_TRY(cudaMemcpyToSymbol(symbol, values, count * sizeof(T), offset * sizeof(T),
                                      cudaMemcpyHostToDevice));
  return Status::success();
}

template <class Symbol, class T>
Status copyFromSymbol(const Symbol& symbol, T* values, std::size_t count, std::size_t offset,
                      unsigned long long capacity, const char* range) {
  OVERLAP_TRY(checkSymbolRange(count, offset, capacity, range));
  if (count == 0)
    return Status::success();
  OVERLAP_CUDA_TRY(cudaMemcpyFromSymbol(values, symbol, count * sizeof(T), offset * sizeof(T),
                                        cudaMemcpyDeviceToHost));
  return Status::success();
}

} // namespace glue
} // namespace overlap
