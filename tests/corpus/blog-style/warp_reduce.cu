// Sum of N ints: a grid-stride loop per thread, a warp-level shuffle reduction, and one
// atomicAdd per warp into *out. The cheapest full reduction on Kepler and later GPUs.
//
// Modeled on: NVIDIA developer blog, "Faster Parallel Reductions on Kepler",
// NVIDIA-developer-blog/code-samples posts/parallel_reduction_with_shfl/warp_reduce.h and
// device_reduce_warp_atomic.h (warpReduceSum with __shfl_down,
// deviceReduceWarpAtomicKernel(int *in, int *out, int N)).
// Written anew for this corpus.
//
// Exercises: reduce(+: out) of an int (exact: integer addition wraps the same in any order);
// grid-stride launch; a __device__ __inline__ helper; warpSize.
#include <overlap/annotate.h>

__inline__ __device__ int warpReduceSum(int val) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    val += __shfl_down_sync(0xffffffffU, val, offset);
  return val;
}

OVERLAP_KERNEL(partition(N) offset(N)
               extent(in: N) extent(out: 1)
               copyin(in[lo:hi])
               reduce(+: out)
               launch(gridstride, block: 256)
               tune(N = 16777216))
__global__ void deviceReduceWarpAtomicKernel(const int *__restrict__ in, int *__restrict__ out,
                                             int N) {
  int sum = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += blockDim.x * gridDim.x)
    sum += in[i];
  sum = warpReduceSum(sum);
  if ((threadIdx.x & (warpSize - 1)) == 0)
    atomicAdd(out, sum);
}
