// The contract between generated glue and the strategy templates.
//
// The generator emits one Binding struct per annotated kernel. It holds the user's arguments and
// answers, in plain integers, the questions every strategy asks; the strategies (Explicit.cuh,
// Mapped.cuh, Streams.cuh, Hybrid.cuh) are templates over it, so each strategy is written and
// tested once, for every kernel.
//
//   struct Binding {
//     static constexpr int kArrays = ...;          // pointer parameters with a data clause
//     long long partition_extent() const;          // P >= 0
//     long long partitionBegin() const;           // B: the partition is [B, B + P)
//     long long granule() const;                   // G >= 1: chunk boundaries at B + k * G
//     // The call's own checks of its arguments (annotation constraints such as offset(n = 2 *
//     // len): 2 * P must be the caller's n); integers only, it never reads the arrays.
//     overlap::Status checkCall() const;
//     overlap::HostArray array(int i) const;       // host pointer, element size, extent, direction
//     int sectionCount(int i) const;              // 0: the whole array, sent once (broadcast)
//     overlap::Section section(int i, int s, long long lo, long long hi) const; // unclipped
//     bool sectionIsChunked(int i, int s) const; // false: independent of lo/hi, sent once
//     // Launches the kernel on chunk [lo, hi). bases[i] points at element 0 of array i in the
//     // address space the kernel reads (a device buffer or a mapped host pointer; null for an
//     // absent optional array); offset-mode glue advances it to the chunk itself. Returns the
//     // launch's status (cudaGetLastError); a grid with no blocks launches nothing and succeeds.
//     overlap::Status launch(void* const* bases, long long lo, long long hi,
//                            cudaStream_t stream) const;
//     // For the descriptor's launchGeometry (Glue.cuh), not the strategies: the grid, block and
//     // shared memory launch() uses for [lo, hi), and the kernel's occupancy at a block size.
//     overlap::Status launchConfig(long long lo, long long hi, overlap::LaunchConfig* c) const;
//     static overlap::Status residentBlocks(int blockThreads, size_t sharedBytes, int* n);
//   };
//
// Chunks [lo, hi) are absolute: B <= lo < hi <= B + P, every boundary but B + P a multiple of G
// from B (overlap::chunkBounds). Explicit and Mapped launch once over [B, B + P). Sections are in
// elements. Strategies clip them to [0, extent) and never call launch with an empty range.
//
// Every call of a strategy starts the same way (detail/CallArrays.cuh, beginCall): P < 0, G < 1
// and B + P overflowing are errors; then checkCall(); then, only when P > 0, the arrays are read
// and checked (a null pointer of a non-optional array with elements is an error naming it).
// checkCall() thus runs for P == 0 too: it is cheap, and a wrong argument is wrong whatever P.
#pragma once

#include "overlap/KernelTypes.h"
#include "overlap/Status.h"

#include <cuda_runtime_api.h>

#include <cstddef>

namespace overlap {

struct HostArray {
  void* host;              // the user's pointer (const inputs are never written)
  std::size_t elementSize; // bytes
  long long extent;        // elements
  Direction direction;
  const char* name;
  // Absent for this call when `host` is null: no device buffer, no copies, no registration, and
  // launch() gets a null base. A null pointer is an error for other arrays with elements.
  bool optional = false;
  // Updated in place by every chunk's kernel (atomically): InOut and without sections (the whole
  // array). Device-resident in every variant, Mapped and Hybrid included: copied in once before
  // the first launch and out once after the last.
  bool reduction = false;
  // A reduction's operator and the kind of its elements' lanes, as the descriptor has them: a
  // call split across GPUs combines the devices' partial results on the host with them
  // (HostReduction.h); None: they cannot be combined, and such a call is refused.
  ReduceOp reduce = ReduceOp::None;
  ElementKind kind = ElementKind::Other;
};

} // namespace overlap
