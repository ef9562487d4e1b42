// A vertical-column kernel in range mode after paper 001's buoydiff(): levels are partitioned,
// level k reads the surface level 0 (a broadcast section), level k-1 (a halo into the previous
// chunk) and level k of rho. It writes out (Out) and accumulates into acc (InOut). The kernel
// indexes whole arrays with the chunk's [k_begin, k_end); one thread per column, grid-stride.
#pragma once

#include "overlap/Binding.cuh"

namespace overlap::test {

struct ColumnBinding {
  static constexpr int kArrays = 3;

  long long levels = 0;
  long long plane = 0; // columns per level
  const float* rho = nullptr;
  float* acc = nullptr;
  float* out = nullptr;

  long long partitionExtent() const { return levels; }
  long long partitionBegin() const { return 0; }
  long long granule() const { return 1; }
  Status checkCall() const { return Status::success(); }
  HostArray array(int i) const {
    switch (i) {
    case 0:
      return {const_cast<float*>(rho), sizeof(float), levels * plane, Direction::In, "rho"};
    case 1:
      return {acc, sizeof(float), levels * plane, Direction::InOut, "acc"};
    default:
      return {out, sizeof(float), levels * plane, Direction::Out, "out"};
    }
  }
  // rho: [0 : plane] and [(lo-1)*plane : hi*plane]; acc, out: [lo*plane : hi*plane].
  static int sectionCount(int i) { return i == 0 ? 2 : 1; }
  static bool sectionIsChunked(int i, int s) { return !(i == 0 && s == 0); }
  Section section(int i, int s, long long lo, long long hi) const {
    if (i == 0 && s == 0)
      return {0, plane};
    if (i == 0)
      return {(lo - 1) * plane, hi * plane};
    return {lo * plane, hi * plane};
  }
  Status launch(void* const* bases, long long lo, long long hi, cudaStream_t stream) const;
};

void columnReference(long long levels, long long plane, const float* rho, float* acc, float* out);

// The grid ColumnBinding launches with for `blockThreads` threads per block.
Status columnGrid(int blockThreads, unsigned* grid);

} // namespace overlap::test
