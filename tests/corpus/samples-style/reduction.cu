// Sum of n values: each thread accumulates two elements per grid-stride step, the block reduces
// its partial sums in dynamic shared memory and then with warp shuffles, and thread 0 adds the
// block's sum to *g_odata with atomicAdd. One launch reduces any n with any grid.
//
// Modeled on: NVIDIA cuda-samples, Samples/2_Concepts_and_Techniques/reduction/reduction_kernel.cu
// (reduce4..reduce6: template <class T, unsigned int blockSize>, the SharedMemory<T> wrapper for
// templated dynamic shared memory, two loads per thread per step, warp-synchronous tail with
// __shfl_down_sync). The sample writes one partial sum per block for a second pass; this one adds
// them atomically. Written anew for this corpus.
//
// Exercises: a template kernel (type + unsigned block size) annotated above `template`, with three
// instantiate(...) clauses (two named, one with the default name; a two-word type); the template
// block size and sizeof(T) in launch and shared; dynamic shared memory (launch shared:);
// grid-stride launch; reduce(+: g_odata) into one element; __restrict__.
#include <overlap/annotate.h>

// Dynamic shared memory typed per instantiation: `extern __shared__ T s[]` cannot be declared in
// a template for two different T, so every instantiation goes through one untyped array.
template <class T> struct SharedMemory {
  __device__ inline operator T *() {
    extern __shared__ __align__(sizeof(double)) unsigned char smem_raw[];
    return reinterpret_cast<T *>(smem_raw);
  }
};

OVERLAP_KERNEL(partition(n) offset(n)
               extent(g_idata: n) extent(g_odata: 1)
               copyin(g_idata[lo:hi])
               reduce(+: g_odata)
               launch(gridstride, block: blockSize, shared: blockSize * sizeof(T))
               instantiate(T = float, blockSize = 256)
               instantiate(reduceSum_u32: T = unsigned int, blockSize = 512)
               instantiate(reduceSum_f64: T = double, blockSize = 128)
               tune(n = 16777216))
template <class T, unsigned int blockSize>
__global__ void reduceSum(const T *__restrict__ g_idata, T *__restrict__ g_odata, unsigned int n) {
  T *sdata = SharedMemory<T>();
  const unsigned int tid = threadIdx.x;
  const unsigned int gridSize = blockSize * 2 * gridDim.x;

  T mySum = 0;
  for (unsigned int i = blockIdx.x * blockSize * 2 + tid; i < n; i += gridSize) {
    mySum += g_idata[i];
    if (i + blockSize < n)
      mySum += g_idata[i + blockSize];
  }
  sdata[tid] = mySum;
  __syncthreads();

  // Tree in shared memory down to 64 partial sums.
  for (unsigned int s = blockSize / 2; s > 32; s >>= 1) {
    if (tid < s)
      sdata[tid] = mySum = mySum + sdata[tid + s];
    __syncthreads();
  }

  // The first warp folds the last 64 with shuffles.
  if (tid < 32) {
    if (blockSize >= 64)
      mySum += sdata[tid + 32];
    for (int offset = 16; offset > 0; offset /= 2)
      mySum += __shfl_down_sync(0xffffffffU, mySum, offset);
    if (tid == 0)
      atomicAdd(g_odata, mySum);
  }
}
