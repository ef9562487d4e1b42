// Row-wise absolute-maximum scaling of a rows x C matrix, one thread block per row, the row cached
// in dynamic shared memory: the block reads its row from global memory once into the cache, finds
// the row's largest magnitude with warp shuffles and a small shared array of per-warp results,
// then writes every element of the cache divided by it. A row of 16 K floats takes 64 KiB of
// dynamic shared memory, more than the 48 KiB a kernel gets without opting in.
//
// Modeled on: PyTorch, aten/src/ATen/native/cuda/SoftMax.cu (cunn_SoftMaxForwardSmem: the input
// row cached in `extern __shared__` memory sized by the row length, reduced, then written from
// the cache). Written anew for this corpus; the division by the row's maximum keeps the result
// exact where a softmax's expf would not.
//
// Exercises: `extern __shared__` memory of more than 48 KiB (`shared: C * sizeof(float)`), a
// static shared array beside it, a kernel without a row-count parameter.
#include <overlap/annotate.h>

__device__ inline float warpMaxAbs(float v) {
  for (int offset = 16; offset > 0; offset /= 2)
    v = fmaxf(v, __shfl_xor_sync(0xffffffffU, v, offset));
  return v;
}

OVERLAP_KERNEL(param(int rows)
               partition(rows) offset
               extent(out, inp: rows * C)
               copyin(inp[lo * C : hi * C]) copyout(out[lo * C : hi * C])
               launch(grid: len, block: 256, shared: C * sizeof(float))
               tune(rows = 1024, C = 16384))
__global__ void row_scale_smem(float *__restrict__ out, const float *__restrict__ inp, int C) {
  extern __shared__ float cache[];
  __shared__ float perWarp[32];
  const int warp = threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  const int warps = blockDim.x / 32;
  const float *x = inp + (long long)blockIdx.x * C;
  float *y = out + (long long)blockIdx.x * C;

  float amax = 0.0f;
  for (int i = threadIdx.x; i < C; i += blockDim.x) {
    cache[i] = x[i];
    amax = fmaxf(amax, fabsf(cache[i]));
  }
  amax = warpMaxAbs(amax);
  if (lane == 0)
    perWarp[warp] = amax;
  __syncthreads();
  amax = perWarp[0];
  for (int w = 1; w < warps; ++w)
    amax = fmaxf(amax, perWarp[w]);

  for (int i = threadIdx.x; i < C; i += blockDim.x)
    y[i] = cache[i] / amax;
}
