// RMS normalization of the rows of a matrix, ggml style: dst[row, :] = x[row, :] / sqrt(mean(x^2)
// + eps), one block per row (a warp, or 1024 threads that combine their 32 warps' sums through
// shared memory). Rows of x lie stride_row floats apart (a view of a wider tensor); dst is dense.
//
// Modeled on: ggerganov/llama.cpp, ggml/src/ggml-cuda/norm.cu (rms_norm_f32, template <int
// block_size>, its WARP_SIZE and 1024 launches) and ggml/src/ggml-cuda/common.cuh
// (warp_reduce_sum). Written anew for this corpus.
//
// Exercises: a `static` kernel template over an int block size (one instantiation through the
// file's WARP_SIZE macro), `if constexpr` and a static_assert in the kernel, the template
// argument as the block; ggml's int64_t row stride in an extent and in sections, with a `const
// int` row length; no row count in the kernel: param(int64_t nrows), a bare `offset`, grid: len.
#include <overlap/annotate.h>

#include <cstdint>

#define WARP_SIZE 32

static __device__ __forceinline__ float warp_reduce_sum(float x) {
#pragma unroll
  for (int offset = WARP_SIZE / 2; offset > 0; offset >>= 1)
    x += __shfl_xor_sync(0xffffffff, x, offset, WARP_SIZE);
  return x;
}

// clang-format off
OVERLAP_KERNEL(param(int64_t nrows) partition(nrows) offset
               extent(x: nrows * stride_row) extent(dst: nrows * ncols)
               copyin(x[lo * stride_row : hi * stride_row]) copyout(dst[lo * ncols : hi * ncols])
               launch(grid: len, block: block_size)
               instantiate(rms_norm_f32_warp: block_size = WARP_SIZE)
               instantiate(rms_norm_f32_1024: block_size = 1024)
               tune(nrows = 16384, ncols = 1024, stride_row = 1024))
// clang-format on
template <int block_size>
static __global__ void rms_norm_f32(const float* x, float* dst, const int ncols,
                                    const int64_t stride_row, const float eps) {
  const int64_t row = blockIdx.x;
  const int tid = threadIdx.x;

  x += row * stride_row;
  dst += row * ncols;

  float tmp = 0.0f; // partial sum for thread in warp

  for (int col = tid; col < ncols; col += block_size) {
    const float xi = x[col];
    tmp += xi * xi;
  }

  // sum up partial sums
  tmp = warp_reduce_sum(tmp);
  if constexpr (block_size > WARP_SIZE) {
    static_assert(block_size == 1024, "unexpected block_size");
    __shared__ float s_sum[32];
    const int warp_id = threadIdx.x / WARP_SIZE;
    const int lane_id = threadIdx.x % WARP_SIZE;
    if (lane_id == 0) {
      s_sum[warp_id] = tmp;
    }
    __syncthreads();
    tmp = s_sum[lane_id];
    tmp = warp_reduce_sum(tmp);
  }

  const float mean = tmp / ncols;
  const float scale = rsqrtf(mean + eps);

  for (int col = tid; col < ncols; col += block_size) {
    dst[col] = scale * x[col];
  }
}
