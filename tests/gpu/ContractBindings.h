// Hand-written bindings of the contract's newer features (issue 18), each written as overlap-gen
// is to write it for the annotation above it: the reference the generated code must match.
//
// - StencilBinding: range mode over rows [iy_start, iy_end), the partition's origin at iy_start.
// - VectorLoadBinding<float> / <__half>: float4 / __half2 loads from each chunk's first element,
//   aligned by the granule.
// - ReductionBinding: atomicAdd into one float and into a 256-bin histogram.
// - OptionalOutputBinding: an optional output the caller may pass null.
// - TileBinding: a grid of 0 blocks for chunks shorter than a tile.
//
// The annotations are written out in the clauses issue 18 proposes; the generator's grammar has the
// last word on their spelling, not on what the bindings do. Their launchConfig() is what launch()
// and the descriptor's launchGeometry would share.
#pragma once

#include "overlap/Binding.cuh"
#include "overlap/Launch.cuh"

#include <cuda_fp16.h>

#include <cstdint>

namespace overlap::test {

// partition(iy_end - iy_start) origin(iy_start) range(row_begin, row_end)
// extent(in, out: (iy_end + 1) * nx)
// copyin(in[(lo - 1) * nx : (hi + 1) * nx]) copyout(out[lo * nx : hi * nx])
// launch(grid: (ceil_div(nx, 128), len), block: 128)
// over stencil(long long row_begin, long long row_end, long long nx, const float* in, float* out)
// with the host parameters (iy_start, iy_end, nx, in, out): the five-point average of the inner
// rows of a (iy_end + 1) x nx grid, columns clamped at the sides. Rows outside [iy_start, iy_end)
// of out are neither written nor copied back.
struct StencilBinding {
  static constexpr int kArrays = 2;

  long long iy_start = 1;
  long long iy_end = 0;
  long long nx = 0;
  const float* in = nullptr;
  float* out = nullptr;

  long long partitionExtent() const { return iy_end - iy_start; }
  long long partitionBegin() const { return iy_start; }
  long long granule() const { return 1; }
  Status checkCall() const { return Status::success(); }
  HostArray array(int i) const {
    const long long extent = (iy_end + 1) * nx;
    if (i == 0)
      return {const_cast<float*>(in), sizeof(float), extent, Direction::In, "in", false, false};
    return {out, sizeof(float), extent, Direction::Out, "out", false, false};
  }
  static int sectionCount(int) { return 1; }
  static bool sectionIsChunked(int, int) { return true; }
  Section section(int i, int, long long lo, long long hi) const {
    if (i == 0)
      return {(lo - 1) * nx, (hi + 1) * nx};
    return {lo * nx, hi * nx};
  }
  Status launchConfig(long long lo, long long hi, LaunchConfig* config) const;
  Status launch(void* const* bases, long long lo, long long hi, cudaStream_t stream) const;
};

void stencilReference(long long ny, long long nx, const float* in, float* out);

// The vector of lanes a VectorLoadBinding<T> loads at once.
template <class T> struct VectorOf;
template <> struct VectorOf<float> {
  using type = float4;
};
template <> struct VectorOf<__half> {
  using type = __half2;
};

// partition(n) offset(n) granule(L) extent(x, y: n) copyin(x[lo:hi]) copyout(y[lo:hi])
// launch(grid: ceil_div(len / L + 1, 256), block: 256)
// over vectorKernel(long long n, const T* x, T* y), L the lanes of VectorOf<T> (4 for float4, 2
// for __half2). Each thread maps one whole vector from the chunk's first element on, the last
// one the chunk's remaining elements one by one: y = 3x + 1 for floats, y = x + x for halves.
// Without the granule a chunk could begin at an element that is no multiple of L, and its vector
// accesses would be misaligned (cudaErrorMisalignedAddress, which loses the context).
template <class T> struct VectorLoadBinding {
  static constexpr int kArrays = 2;
  static constexpr long long kLanes = sizeof(typename VectorOf<T>::type) / sizeof(T);

  long long n = 0;
  const T* x = nullptr;
  T* y = nullptr;

  long long partitionExtent() const { return n; }
  long long partitionBegin() const { return 0; }
  long long granule() const { return kLanes; }
  Status checkCall() const { return Status::success(); }
  HostArray array(int i) const {
    if (i == 0)
      return {const_cast<T*>(x), sizeof(T), n, Direction::In, "x", false, false};
    return {y, sizeof(T), n, Direction::Out, "y", false, false};
  }
  static int sectionCount(int) { return 1; }
  static bool sectionIsChunked(int, int) { return true; }
  Section section(int, int, long long lo, long long hi) const { return {lo, hi}; }
  Status launchConfig(long long lo, long long hi, LaunchConfig* config) const;
  Status launch(void* const* bases, long long lo, long long hi, cudaStream_t stream) const;
};

void vectorLoadReference(long long n, const float* x, float* y);
void vectorLoadReference(long long n, const __half* x, __half* y);

// partition(n) offset(n) extent(x, b: n) extent(sum: 1) extent(bins: 256)
// copyin(x[lo:hi], b[lo:hi]) reduce(+: sum, bins)
// launch(grid: ceil_div(len, 256), block: 256)
// over reduceKernel(long long n, const float* x, const std::uint8_t* b, float* sum,
// unsigned* bins): sum += every x (float atomics, in no fixed order) and bins[b] += 1 for every
// byte b, on top of what sum and bins held.
struct ReductionBinding {
  static constexpr int kArrays = 4;
  static constexpr long long kBins = 256;

  long long n = 0;
  const float* x = nullptr;
  const std::uint8_t* b = nullptr;
  float* sum = nullptr;
  unsigned* bins = nullptr;

  long long partitionExtent() const { return n; }
  long long partitionBegin() const { return 0; }
  long long granule() const { return 1; }
  Status checkCall() const { return Status::success(); }
  HostArray array(int i) const {
    switch (i) {
    case 0:
      return {const_cast<float*>(x), sizeof(float), n, Direction::In, "x", false, false};
    case 1:
      return {const_cast<std::uint8_t*>(b), 1, n, Direction::In, "b", false, false};
    case 2:
      return {sum, sizeof(float), 1, Direction::InOut, "sum", false, true};
    default:
      return {bins, sizeof(unsigned), kBins, Direction::InOut, "bins", false, true};
    }
  }
  // Reductions have no sections: the whole array.
  static int sectionCount(int i) { return i < 2 ? 1 : 0; }
  static bool sectionIsChunked(int, int) { return true; }
  Section section(int, int, long long lo, long long hi) const { return {lo, hi}; }
  Status launchConfig(long long lo, long long hi, LaunchConfig* config) const;
  Status launch(void* const* bases, long long lo, long long hi, cudaStream_t stream) const;
};

// sum and bins updated in double precision and exactly, as a reference for any order.
void reductionReference(long long n, const float* x, const std::uint8_t* b, double* sum,
                        unsigned* bins);

// partition(n) offset(n) extent(x, y, z: n) copyin(x[lo:hi]) copyout(y[lo:hi], z[lo:hi])
// optional(z) launch(grid: ceil_div(len, 256), block: 256)
// over squaresKernel(long long n, float a, const float* x, float* y, float* z): y = a x, and
// z = x x where the caller passes z. Absent, z reaches the kernel as null (offset-mode glue must
// not advance a null base).
struct OptionalOutputBinding {
  static constexpr int kArrays = 3;

  long long n = 0;
  float a = 0;
  const float* x = nullptr;
  float* y = nullptr;
  float* z = nullptr;

  long long partitionExtent() const { return n; }
  long long partitionBegin() const { return 0; }
  long long granule() const { return 1; }
  Status checkCall() const { return Status::success(); }
  HostArray array(int i) const {
    switch (i) {
    case 0:
      return {const_cast<float*>(x), sizeof(float), n, Direction::In, "x", false, false};
    case 1:
      return {y, sizeof(float), n, Direction::Out, "y", false, false};
    default:
      return {z, sizeof(float), n, Direction::Out, "z", true, false};
    }
  }
  static int sectionCount(int) { return 1; }
  static bool sectionIsChunked(int, int) { return true; }
  Section section(int, int, long long lo, long long hi) const { return {lo, hi}; }
  Status launchConfig(long long lo, long long hi, LaunchConfig* config) const;
  Status launch(void* const* bases, long long lo, long long hi, cudaStream_t stream) const;
};

void optionalOutputReference(long long n, float a, const float* x, float* y, float* z);

// partition(n) offset(n) granule(256) extent(x, y: n) copyin(x[lo:hi]) copy(y[lo:hi])
// launch(grid: len / 256, block: 256)
// over tilesKernel(long long n, const float* x, float* y): y += x over the whole tiles of 256
// elements; the partition's ragged end (n % 256 elements) is left alone. Chunks begin at
// multiples of 256, so every chunking has the same whole tiles; a chunk of the ragged end alone
// has a grid of 0 blocks, and launch() launches nothing for it.
struct TileBinding {
  static constexpr int kArrays = 2;
  static constexpr long long kTile = 256;

  long long n = 0;
  const float* x = nullptr;
  float* y = nullptr;

  long long partitionExtent() const { return n; }
  long long partitionBegin() const { return 0; }
  long long granule() const { return kTile; }
  Status checkCall() const { return Status::success(); }
  HostArray array(int i) const {
    if (i == 0)
      return {const_cast<float*>(x), sizeof(float), n, Direction::In, "x", false, false};
    return {y, sizeof(float), n, Direction::InOut, "y", false, false};
  }
  static int sectionCount(int) { return 1; }
  static bool sectionIsChunked(int, int) { return true; }
  Section section(int, int, long long lo, long long hi) const { return {lo, hi}; }
  Status launchConfig(long long lo, long long hi, LaunchConfig* config) const;
  Status launch(void* const* bases, long long lo, long long hi, cudaStream_t stream) const;
};

void tileReference(long long n, const float* x, float* y);

} // namespace overlap::test
