// Whether a kernel's writes of an output stay in the chunk's section of it, judged from the write
// alone (NeighbourReads judges writes beside reads). The section moves S per unit of the
// partition.
//
// - Range mode: the kernel indexes globally from the chunk's begin (r = rowBegin + threadIdx.y),
//   so the begin's coefficient B in a write's index is how far that write moves per unit. B != S:
//   the chunk writes elements another chunk's section holds (out[r] beside out[lo * w : hi * w],
//   a transpose's out[c * rows + r] beside rows of out).
// - Offset mode: B is the step of the write's one term in the blocks of the partition's dimension
//   (the one grid dimension that grows with len, uncapped) times the grid's blocks per unit:
//   glu's out[r * H + j] with r = blockIdx.y, grid (…, len), beside out[lo * 2 * H : hi * 2 * H]:
//   a section that moves further than the grid's threads reach. Only short steps are judged (a
//   grid may launch more threads than elements and leave them to the kernel's guard), and only
//   in writes of grid terms alone (a loop may cover rows the grid does not). A constant B
//   that some caller's values give S too (ggml's rows of 1024 beside dst[lo * ncols : ...]) is
//   left to those callers.
// - Both modes: a thread term of another dimension than the partition's that steps the write by
//   several whole rows, farther than any term of the partition's own dimension, writes across
//   the whole array: a transpose's out[c * rows + r] beside out[lo : hi] (c from threadIdx.x, r
//   from threadIdx.y), darknet's batch-major output[(blockIdx.z * n + blockIdx.y) * size + i]
//   chunked over filters. The partition's dimension is the one whose grid grows with the chunk
//   (len), else that of the smallest whole-row step. A dimension the launch leaves at 1 has no
//   steps; a term within the partition's coarser steps (a block of (32, 2) flattened by hand)
//   stays in the chunk's elements.
//
// Both must hold at every sample: a term that moves whole rows only where two parameters happen
// to be equal is left alone, as is a write whose index does not mention the begin in range mode
// (a grid-stride loop's variable, a kernel that tests its rows against the range).
#pragma once

#include "annotation/NeighbourReads.h"
#include "annotation/SectionAnalysis.h"
#include "ir/KernelIR.h"

#include <optional>
#include <string>
#include <vector>

namespace overlap::annotation {

struct StrayWrite {
  const ir::IndexUse* write = nullptr;
  long long beginStep = 0;   // B
  long long sectionStep = 0; // S
  // Empty where B != S; otherwise the thread term of another dimension (IndexUse::baseAtoms's
  // spelling) and how far the write moves per step of it.
  std::string atoms;
  long long atomStep = 0;
  ParamSample sample;
  std::vector<int> params;
  // Offset mode's B: the term of the partition's blocks it was read from (blockIdx.y); range
  // mode's is the begin parameter.
  std::string blockTerm;
};

// The first write of `output` (one chunked section) that strays from its section;
// `judged`: the samples of the output with itself (judgedSamples(kernel, output, output, ...)).
std::optional<StrayWrite> strayWrite(const ir::Kernel& kernel, const ir::Array& output,
                                     const JudgedSamples& judged);

} // namespace overlap::annotation
