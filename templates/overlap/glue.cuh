// Helpers for the host code overlap-gen emits: argument unpacking for the descriptor, checked
// narrowing of chunk bounds into the kernel's parameter types, and the descriptor's entry points
// written once as templates over a Binding (binding.cuh) instead of once per kernel.
#pragma once

#include "overlap/binding.cuh"
#include "overlap/descriptor.h"
#include "overlap/explicit.cuh"
#include "overlap/hybrid.cuh"
#include "overlap/launch.cuh"
#include "overlap/mapped.cuh"
#include "overlap/streams.cuh"

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

// Generated glue calls it by this name (launch.cuh).
using ::overlap::launch_status;

template <class B> Status run(const B& binding, const RunConfig& config) {
  switch (config.variant) {
  case Variant::Explicit:
    return run_explicit(binding);
  case Variant::Mapped:
    return run_mapped(binding, config.streams.pageable);
  case Variant::Streams:
    return run_streams(binding, config.streams);
  case Variant::Hybrid:
    return run_hybrid(binding, config.streams);
  }
  return Status{cudaErrorInvalidValue, "overlap::glue::run: unknown variant", __FILE__, __LINE__};
}

// Descriptor entry points (descriptor.h) for any Binding with a static from_args(ArgPointers).
template <class B> long long partition_extent(ArgPointers args) {
  return B::from_args(args).partition_extent();
}
template <class B> long long partition_begin(ArgPointers args) {
  return B::from_args(args).partition_begin();
}
template <class B> long long granule(ArgPointers args) {
  return B::from_args(args).granule();
}
template <class B> long long array_extent(ArgPointers args, int array) {
  return B::from_args(args).array(array).extent;
}
template <class B> int section_count(ArgPointers args, int array) {
  return B::from_args(args).section_count(array);
}
template <class B>
Section section(ArgPointers args, int array, int index, long long lo, long long hi) {
  return B::from_args(args).section(array, index, lo, hi);
}
template <class B> bool section_is_chunked(int array, int index) {
  return B::section_is_chunked(array, index);
}
template <class B> Status run_from_args(ArgPointers args, const RunConfig& config) {
  return run(B::from_args(args), config);
}

// The geometry of B's launch over [lo, hi): B::launch_config, the code its launch() runs, and
// the occupancy of B's kernel at that block size and shared memory (B::resident_blocks).
template <class B>
Status query_launch_geometry(ArgPointers args, long long lo, long long hi, LaunchGeometry* out) {
  const B binding = B::from_args(args);
  LaunchConfig config;
  OVERLAP_TRY(binding.launch_config(lo, hi, &config));
  LaunchGeometry geometry;
  geometry.blocks = static_cast<long long>(config.grid.x) * config.grid.y * config.grid.z;
  geometry.block_threads = static_cast<int>(config.block.x * config.block.y * config.block.z);
  geometry.shared_bytes = config.shared_bytes;
  geometry.grid_stride = config.grid_stride;
  OVERLAP_TRY(B::resident_blocks(geometry.block_threads, geometry.shared_bytes,
                                 &geometry.resident_blocks_per_sm));
  *out = geometry;
  return Status::success();
}

template <class B>
Status launch_geometry(ArgPointers args, long long lo, long long hi, LaunchGeometry* out) {
  const Status status = query_launch_geometry<B>(args, lo, hi, out);
  // A failed query (no device, a block that fits nowhere) also sets the runtime's last error,
  // which the next launch's cudaGetLastError would report as its own: clear it here.
  if (!status.ok())
    (void)cudaGetLastError();
  return status;
}

// `count` elements from `offset` on lie within a variable of `capacity` elements.
inline Status check_symbol_range(std::size_t count, std::size_t offset, unsigned long long capacity,
                                 const char* range) {
  if (offset > capacity || count > capacity - offset)
    return Status{cudaErrorInvalidValue, range, __FILE__, __LINE__};
  return Status::success();
}

// The generated setter and getter of a __constant__ or __device__ variable of `capacity`
// elements: `count` elements from `offset` on, between host memory and the current device's copy.
template <class Symbol, class T>
Status copy_to_symbol(const Symbol& symbol, const T* values, std::size_t count, std::size_t offset,
                      unsigned long long capacity, const char* range) {
  OVERLAP_TRY(check_symbol_range(count, offset, capacity, range));
  if (count == 0)
    return Status::success();
  OVERLAP_CUDA_TRY(cudaMemcpyToSymbol(symbol, values, count * sizeof(T), offset * sizeof(T),
                                      cudaMemcpyHostToDevice));
  return Status::success();
}

template <class Symbol, class T>
Status copy_from_symbol(const Symbol& symbol, T* values, std::size_t count, std::size_t offset,
                        unsigned long long capacity, const char* range) {
  OVERLAP_TRY(check_symbol_range(count, offset, capacity, range));
  if (count == 0)
    return Status::success();
  OVERLAP_CUDA_TRY(cudaMemcpyFromSymbol(values, symbol, count * sizeof(T), offset * sizeof(T),
                                        cudaMemcpyDeviceToHost));
  return Status::success();
}

} // namespace glue
} // namespace overlap
