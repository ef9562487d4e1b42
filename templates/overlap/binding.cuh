// The contract between generated glue and the strategy templates.
//
// The generator emits one Binding struct per annotated kernel. It holds the user's arguments and
// answers, in plain integers, the questions every strategy asks; the strategies (explicit.cuh,
// mapped.cuh, streams.cuh, hybrid.cuh) are templates over it, so each strategy is written and
// tested once, for every kernel.
//
//   struct Binding {
//     static constexpr int kArrays = ...;          // pointer parameters with a data clause
//     long long partition_extent() const;          // P: chunks are [lo, hi) within [0, P)
//     overlap::HostArray array(int i) const;       // host pointer, element size, extent, direction
//     int section_count(int i) const;              // 0: the whole array, sent once (broadcast)
//     overlap::Section section(int i, int s, long long lo, long long hi) const; // unclipped
//     bool section_is_chunked(int i, int s) const; // false: independent of lo/hi, sent once
//     // Launches the kernel on chunk [lo, hi). bases[i] points at element 0 of array i in the
//     // address space the kernel reads (a device buffer or a mapped host pointer); offset-mode
//     // glue advances it to the chunk itself. Returns the launch's status (cudaGetLastError).
//     overlap::Status launch(void* const* bases, long long lo, long long hi,
//                            cudaStream_t stream) const;
//     // For the descriptor's launch_geometry (glue.cuh), not the strategies: the grid, block and
//     // shared memory launch() uses for [lo, hi), and the kernel's occupancy at a block size.
//     overlap::Status launch_config(long long lo, long long hi, overlap::LaunchConfig* c) const;
//     static overlap::Status resident_blocks(int block_threads, size_t shared_bytes, int* n);
//   };
//
// Sections are in elements. Strategies clip them to [0, extent) and never call launch with an
// empty range.
#pragma once

#include "overlap/kernel_types.h"
#include "overlap/status.h"

#include <cuda_runtime_api.h>

#include <cstddef>

namespace overlap {

struct HostArray {
  void* host;               // the user's pointer (const inputs are never written)
  std::size_t element_size; // bytes
  long long extent;         // elements
  Direction direction;
  const char* name;
  // Absent for this call when `host` is null: no device buffer, no copies, no registration, and
  // launch() gets a null base. A null pointer is an error for other arrays with elements.
  bool optional = false;
  // Updated in place by every chunk's kernel (atomically): InOut and without sections (the whole
  // array). Device-resident in every variant, Mapped and Hybrid included: copied in once before
  // the first launch and out once after the last.
  bool reduction = false;
};

} // namespace overlap
