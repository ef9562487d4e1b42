// Whether an input's chunked section holds what the kernel reads of it beside what it writes of
// an output. A thread that writes y[P + d] inside its chunk's section of y and reads x[P + c]
// (the same base P: IndexOffsetFinder) reads x at most c - d before y's section begin and after
// its end; offset mode counts each array's index from its section's begin. A stencil's x[i - 1]
// and x[i + 1] beside y[i] with x[lo:hi] reads one element on each side that no copy of the
// chunk's own brought: the neighbouring chunk's, copied or not yet.
//
// When a thread writes y at several offsets, its base is bounded by all of them (y[P] and
// y[P + 1] keep P + 1 inside the section). A base made of whole strides of y's section (2 * i
// beside y[2 * lo : 2 * hi], r * w beside rows) is a multiple of the stride, so a read inside the
// thread's own record or row is no neighbour's; a base with a finer term (r * w + c) leaves the
// column to the kernel's guards, and its reach counts in whole strides. Offsets that mention a
// parameter set per chunk (lo, hi, the length, a bound one) are compared only where every use has
// the same such terms, which then cancel.
//
// A read whose base is the write's times p / q (decimation's x[2 * i + 1] beside y[i], a
// reversal's x[n - 1 - i]) is compared with each chunk's own values of those parameters, where
// the write's base moves in whole strides of y's section.
//
// An input may have, beside its chunked section, sections the whole call shares (range mode):
// elements past the chunk's section that one of them holds are read from it, and a read whose
// per-chunk terms differ from the write's (a column's surface t[p] beside b[k * plane + p]) is
// left to them.
#pragma once

#include "annotation/SectionAnalysis.h"
#include "ir/KernelIR.h"

#include <optional>
#include <string>
#include <vector>

namespace overlap::annotation {

// The samples a comparison of `input` with `output` is judged at (every parameter it reads long,
// beside the given `samples`) and those parameters, other than the per-chunk ones: of both
// sections, the input's halo and either array's subscripts.
struct JudgedSamples {
  std::vector<int> params;
  std::vector<ParamSample> samples;
};
JudgedSamples judgedSamples(const ir::Kernel& kernel, const ir::Array& input,
                            const ir::Array& output, const std::vector<ParamSample>& samples);

struct NeighbourRead {
  const ir::IndexUse* read = nullptr;  // the read that leaves the section
  const ir::IndexUse* write = nullptr; // the write of the output it is measured from
  bool before = false;                 // before the section's begin; else past its end
  // At `sample`: the halo (before and after) the input needs, counting the one it has.
  long long haloBefore = 0;
  long long haloAfter = 0;
  ParamSample sample;
  std::vector<int> params; // the parameters the comparison read, whose values `sample` chose
};

// The first read of `input` (direction In, one chunked section) that leaves its section, with
// its halo, for some sample, measured from the writes of `output` (one chunked section);
// nullopt when none does or nothing can be compared. `kernel` gives the mode, the per-chunk
// parameters and the subscripts (its signature's params).
std::optional<NeighbourRead> readOutsideSection(const ir::Kernel& kernel, const ir::Array& input,
                                                const ir::Array& output,
                                                const JudgedSamples& judged);

// A read of `input` whose rows lie another distance apart than its chunked section moves per unit
// of the partition, beside a write of `output` (one chunked section): gemm's a[i * NK + k] beside
// c[i * NJ + j] with a[lo * NJ : hi * NJ]. The write's terms that move in whole strides S of its
// section (i * NJ: S = NJ) are the thread's row; a read with those terms times m * Q (Q = NK)
// reads rows Q apart, where each chunk's section starts P = NJ further per unit. Each chunk then
// reads rows of another chunk, wherever its halo: offset mode advances the array by lo * P, range
// mode's section leaves the rows read behind as lo grows. Refused where, at some sample, no write
// of the output is read at the section's pitch: pitches of different parameters (a[i * nk + k]
// beside a[lo * nj : hi * nj]) agree only for the callers that pass them equal, which the
// annotation does not say.
struct PitchMismatch {
  const ir::IndexUse* read = nullptr;
  const ir::IndexUse* write = nullptr;
  long long kernelPitch = 0;  // Q: how far apart the kernel reads the input's rows
  long long sectionPitch = 0; // P: how far the section moves per unit of the partition
  ParamSample sample;
  std::vector<int> params;
  // Q in the parameters (2 * d), where the read's row term over the write's gives it at every
  // sample; otherwise only its value at `sample` is known.
  std::optional<ir::OffsetTerm> pitchTerm;
};
std::optional<PitchMismatch> pitchMismatch(const ir::Kernel& kernel, const ir::Array& input,
                                           const ir::Array& output, const JudgedSamples& judged);

// A write of `output` that one of its thread terms moves by several whole rows of its chunked
// section (m * S, |m| > 1), where a read of `input` (one chunked section) moves by less than a
// row of the input's section for the same term: a transpose's out[c * rows + r] beside in[r * cols
// + c], with out[lo : hi] and in[lo * cols : hi * cols]. The thread reads within its chunk's rows
// of the input but writes rows of the output that other chunks' sections hold, which its own copy
// back does not bring home. Found where it holds at every sample (a term that moves whole rows of
// the output only where two parameters happen to be equal is left alone).
struct CrossingWrite {
  const ir::IndexUse* read = nullptr;
  const ir::IndexUse* write = nullptr;
  std::string atoms;       // the thread term's atoms, as IndexUse::baseAtoms spells them
  long long writeStep = 0; // how far the write moves per step of the term
  long long readStep = 0;  // how far the read moves per step of it
  long long outputRow = 0; // S: how far the output's section moves per unit of the partition
  long long inputRow = 0;  // P: the input's
  ParamSample sample;
  std::vector<int> params;
};
std::optional<CrossingWrite> crossingWrite(const ir::Kernel& kernel, const ir::Array& input,
                                           const ir::Array& output, const JudgedSamples& judged);

} // namespace overlap::annotation
