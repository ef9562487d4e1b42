// Row-wise softmax of a rows x C matrix, one thread block per row: the block finds the row's
// maximum and the sum of exp(x - max) with strided per-thread loops, warp shuffles and a small
// shared array of per-warp results, then writes exp(x - max) / sum. The kernel takes only the row
// length: the grid is one block per row.
//
// Modeled on: karpathy/llm.c, dev/cuda/softmax_forward.cu (softmax_forward_kernel2..4: one block
// per row of the (N*T) x C attention/logit matrix, shared-memory and warp-shuffle reductions of the
// maximum and of the sum, expf). Written anew for this corpus.
//
// Exercises: a kernel in a nested namespace (classic nested form); no length parameter:
// param(int rows) with a bare `offset` and grid: len; row-major sections; warp-level reductions.
#include <overlap/annotate.h>

#include <cmath>

namespace llm {
namespace kernels {

__device__ inline float warpMax(float v) {
  for (int offset = 16; offset > 0; offset /= 2)
    v = fmaxf(v, __shfl_xor_sync(0xffffffffU, v, offset));
  return v;
}

__device__ inline float warpSum(float v) {
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_xor_sync(0xffffffffU, v, offset);
  return v;
}

OVERLAP_KERNEL(param(int rows)
               partition(rows) offset
               extent(out, inp: rows * C)
               copyin(inp[lo * C : hi * C]) copyout(out[lo * C : hi * C])
               launch(grid: len, block: 256)
               tune(rows = 8192, C = 1024))
__global__ void softmax_forward_kernel(float *__restrict__ out, const float *__restrict__ inp,
                                       int C) {
  __shared__ float perWarp[32];
  const int warp = threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  const int warps = blockDim.x / 32;
  const float *x = inp + (long long)blockIdx.x * C;
  float *y = out + (long long)blockIdx.x * C;

  float maxval = -INFINITY;
  for (int i = threadIdx.x; i < C; i += blockDim.x)
    maxval = fmaxf(maxval, x[i]);
  maxval = warpMax(maxval);
  if (lane == 0)
    perWarp[warp] = maxval;
  __syncthreads();
  maxval = perWarp[0];
  for (int w = 1; w < warps; ++w)
    maxval = fmaxf(maxval, perWarp[w]);
  __syncthreads(); // perWarp is reused below

  float sum = 0.0f;
  for (int i = threadIdx.x; i < C; i += blockDim.x) {
    const float e = expf(x[i] - maxval);
    y[i] = e;
    sum += e;
  }
  sum = warpSum(sum);
  if (lane == 0)
    perWarp[warp] = sum;
  __syncthreads();
  sum = perWarp[0];
  for (int w = 1; w < warps; ++w)
    sum += perWarp[w];

  const float norm = 1.0f / sum;
  for (int i = threadIdx.x; i < C; i += blockDim.x)
    y[i] *= norm;
}

} // namespace kernels
} // namespace llm
