#include "ContractBindings.h"
#include "GpuBindingSupport.cuh"

#include "overlap/ExprSupport.h"

namespace overlap::test {
namespace {

// ---- stencil ----

constexpr long long kStencilBlock = 128;

__device__ __host__ inline float fivePoint(float up, float down, float left, float right,
                                           float centre) {
#ifdef __CUDA_ARCH__
  return __fmul_rn(0.2f, __fadd_rn(__fadd_rn(__fadd_rn(up, down), __fadd_rn(left, right)), centre));
#else
  const float vertical = up + down;
  const float horizontal = left + right;
  const float neighbours = vertical + horizontal;
  const float all = neighbours + centre;
  return 0.2f * all;
#endif
}

__global__ void stencilKernel(long long row_begin, long long row_end, long long nx, const float* in,
                              float* out) {
  const long long x = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  const long long y = row_begin + blockIdx.y;
  if (x >= nx || y >= row_end)
    return;
  const float* row = in + y * nx;
  out[y * nx + x] = fivePoint(row[x - nx], row[x + nx], row[x > 0 ? x - 1 : x],
                              row[x + 1 < nx ? x + 1 : x], row[x]);
}

// ---- vector loads ----

constexpr long long kVectorBlock = 256;

__device__ __host__ inline float vectorOp(float v) {
#ifdef __CUDA_ARCH__
  return __fadd_rn(__fmul_rn(v, 3.0f), 1.0f);
#else
  const float product = v * 3.0f;
  return product + 1.0f;
#endif
}
// Doubling is exact in any binary format (short of overflow): the CPU's float gives the same.
__device__ inline __half vectorOp(__half v) {
  return __hadd(v, v);
}
__device__ inline float4 vectorOp(float4 v) {
  return make_float4(vectorOp(v.x), vectorOp(v.y), vectorOp(v.z), vectorOp(v.w));
}
__device__ inline __half2 vectorOp(__half2 v) {
  return __hadd2(v, v);
}

template <class T> __global__ void vectorKernel(long long len, const T* x, T* y) {
  using V = typename VectorOf<T>::type;
  constexpr long long kLanes = sizeof(V) / sizeof(T);
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  const long long vectors = len / kLanes;
  if (i < vectors) {
    reinterpret_cast<V*>(y)[i] = vectorOp(reinterpret_cast<const V*>(x)[i]);
  } else if (i == vectors) {
    for (long long j = vectors * kLanes; j < len; ++j)
      y[j] = vectorOp(x[j]);
  }
}

// ---- reductions ----

constexpr long long kReduceBlock = 256;

__global__ void reduceKernel(long long len, const float* x, const std::uint8_t* b, float* sum,
                             unsigned* bins) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i >= len)
    return;
  atomicAdd(sum, x[i]);
  atomicAdd(&bins[b[i]], 1u);
}

// ---- optional output ----

constexpr long long kSquaresBlock = 256;

__global__ void squaresKernel(long long len, float a, const float* x, float* y, float* z) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i >= len)
    return;
  y[i] = __fmul_rn(a, x[i]);
  if (z != nullptr)
    z[i] = __fmul_rn(x[i], x[i]);
}

// ---- tiles ----

__global__ void tilesKernel(long long len, const float* x, float* y) {
  // Only whole tiles have blocks: i < gridDim.x * 256 <= len.
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  y[i] = __fadd_rn(y[i], x[i]);
}

// The chunk's part of array i in offset mode: its base advanced to lo, unless it is absent.
template <class T> T* chunkOf(void* const* bases, int i, long long lo) {
  return bases[i] != nullptr ? static_cast<T*>(bases[i]) + lo : nullptr;
}

} // namespace

// ---- stencil ----

Status StencilBinding::launchConfig(long long lo, long long hi, LaunchConfig* config) const {
  const long long len = hi - lo;
  unsigned block_x = 0;
  OVERLAP_TRY(
      checkedDim(kStencilBlock, 1024, "stencil: block.x = 128 is outside [1, 1024]", &block_x));
  unsigned grid_x = 0;
  unsigned grid_y = 0;
  OVERLAP_TRY(checkedGridDim(ceil_div(nx, kStencilBlock), kMaxGridX,
                             "stencil: grid.x = ceil_div(nx, 128) is outside [0, 2147483647]",
                             &grid_x));
  OVERLAP_TRY(checkedGridDim(len, 65535, "stencil: grid.y = len is outside [0, 65535]", &grid_y));
  *config = {dim3(grid_x, grid_y, 1), dim3(block_x, 1, 1), 0, false};
  return Status::success();
}

Status StencilBinding::launch(void* const* bases, long long lo, long long hi,
                              cudaStream_t stream) const {
  // Range mode: global bases, the chunk's absolute bounds.
  return launchChunk(*this, lo, hi, "stencil<<<...>>>", [&](const LaunchConfig& c) {
    stencilKernel<<<c.grid, c.block, c.sharedBytes, stream>>>(
        lo, hi, nx, static_cast<const float*>(bases[0]), static_cast<float*>(bases[1]));
  });
}

void stencilReference(long long ny, long long nx, const float* in, float* out) {
  for (long long y = 1; y + 1 < ny; ++y)
    for (long long x = 0; x < nx; ++x) {
      const float* row = in + y * nx;
      out[y * nx + x] = fivePoint(row[x - nx], row[x + nx], row[x > 0 ? x - 1 : x],
                                  row[x + 1 < nx ? x + 1 : x], row[x]);
    }
}

// ---- vector loads ----

template <class T>
Status VectorLoadBinding<T>::launchConfig(long long lo, long long hi, LaunchConfig* config) const {
  const long long len = hi - lo;
  unsigned block_x = 0;
  OVERLAP_TRY(
      checkedDim(kVectorBlock, 1024, "vector: block.x = 256 is outside [1, 1024]", &block_x));
  unsigned grid_x = 0;
  OVERLAP_TRY(checkedGridDim(ceil_div(len / kLanes + 1, kVectorBlock), kMaxGridX,
                             "vector: grid.x = ceil_div(len / L + 1, 256) is outside [0, "
                             "2147483647]",
                             &grid_x));
  *config = {dim3(grid_x, 1, 1), dim3(block_x, 1, 1), 0, false};
  return Status::success();
}

template <class T>
Status VectorLoadBinding<T>::launch(void* const* bases, long long lo, long long hi,
                                    cudaStream_t stream) const {
  return launchChunk(*this, lo, hi, "vector<<<...>>>", [&](const LaunchConfig& c) {
    vectorKernel<T><<<c.grid, c.block, c.sharedBytes, stream>>>(
        hi - lo, chunkOf<const T>(bases, 0, lo), chunkOf<T>(bases, 1, lo));
  });
}

template struct VectorLoadBinding<float>;
template struct VectorLoadBinding<__half>;

void vectorLoadReference(long long n, const float* x, float* y) {
  for (long long i = 0; i < n; ++i)
    y[i] = vectorOp(x[i]);
}

void vectorLoadReference(long long n, const __half* x, __half* y) {
  for (long long i = 0; i < n; ++i) {
    const float v = __half2float(x[i]);
    y[i] = __float2half_rn(v + v);
  }
}

// ---- reductions ----

Status ReductionBinding::launchConfig(long long lo, long long hi, LaunchConfig* config) const {
  unsigned block_x = 0;
  OVERLAP_TRY(
      checkedDim(kReduceBlock, 1024, "reduce: block.x = 256 is outside [1, 1024]", &block_x));
  unsigned grid_x = 0;
  OVERLAP_TRY(checkedGridDim(ceil_div(hi - lo, kReduceBlock), kMaxGridX,
                             "reduce: grid.x = ceil_div(len, 256) is outside [0, 2147483647]",
                             &grid_x));
  *config = {dim3(grid_x, 1, 1), dim3(block_x, 1, 1), 0, false};
  return Status::success();
}

Status ReductionBinding::launch(void* const* bases, long long lo, long long hi,
                                cudaStream_t stream) const {
  // The reductions have no section: their bases stay at element 0.
  return launchChunk(*this, lo, hi, "reduce<<<...>>>", [&](const LaunchConfig& c) {
    reduceKernel<<<c.grid, c.block, c.sharedBytes, stream>>>(
        hi - lo, chunkOf<const float>(bases, 0, lo), chunkOf<const std::uint8_t>(bases, 1, lo),
        static_cast<float*>(bases[2]), static_cast<unsigned*>(bases[3]));
  });
}

void reductionReference(long long n, const float* x, const std::uint8_t* b, double* sum,
                        unsigned* bins) {
  for (long long i = 0; i < n; ++i) {
    *sum += x[i];
    ++bins[b[i]];
  }
}

// ---- optional output ----

Status OptionalOutputBinding::launchConfig(long long lo, long long hi, LaunchConfig* config) const {
  unsigned block_x = 0;
  OVERLAP_TRY(
      checkedDim(kSquaresBlock, 1024, "squares: block.x = 256 is outside [1, 1024]", &block_x));
  unsigned grid_x = 0;
  OVERLAP_TRY(checkedGridDim(ceil_div(hi - lo, kSquaresBlock), kMaxGridX,
                             "squares: grid.x = ceil_div(len, 256) is outside [0, 2147483647]",
                             &grid_x));
  *config = {dim3(grid_x, 1, 1), dim3(block_x, 1, 1), 0, false};
  return Status::success();
}

Status OptionalOutputBinding::launch(void* const* bases, long long lo, long long hi,
                                     cudaStream_t stream) const {
  return launchChunk(*this, lo, hi, "squares<<<...>>>", [&](const LaunchConfig& c) {
    squaresKernel<<<c.grid, c.block, c.sharedBytes, stream>>>(
        hi - lo, a, chunkOf<const float>(bases, 0, lo), chunkOf<float>(bases, 1, lo),
        chunkOf<float>(bases, 2, lo));
  });
}

void optionalOutputReference(long long n, float a, const float* x, float* y, float* z) {
  for (long long i = 0; i < n; ++i) {
    y[i] = a * x[i];
    if (z != nullptr)
      z[i] = x[i] * x[i];
  }
}

// ---- tiles ----

Status TileBinding::launchConfig(long long lo, long long hi, LaunchConfig* config) const {
  unsigned block_x = 0;
  OVERLAP_TRY(checkedDim(kTile, 1024, "tiles: block.x = 256 is outside [1, 1024]", &block_x));
  unsigned grid_x = 0;
  OVERLAP_TRY(checkedGridDim((hi - lo) / kTile, kMaxGridX,
                             "tiles: grid.x = len / 256 is outside [0, 2147483647]", &grid_x));
  *config = {dim3(grid_x, 1, 1), dim3(block_x, 1, 1), 0, false};
  return Status::success();
}

Status TileBinding::launch(void* const* bases, long long lo, long long hi,
                           cudaStream_t stream) const {
  return launchChunk(*this, lo, hi, "tiles<<<...>>>", [&](const LaunchConfig& c) {
    tilesKernel<<<c.grid, c.block, c.sharedBytes, stream>>>(
        hi - lo, chunkOf<const float>(bases, 0, lo), chunkOf<float>(bases, 1, lo));
  });
}

void tileReference(long long n, const float* x, float* y) {
  for (long long i = 0; i < n / TileBinding::kTile * TileBinding::kTile; ++i)
    y[i] = y[i] + x[i];
}

} // namespace overlap::test
