// 256-bin byte histogram. The data arrive packed four bytes to a 32-bit word; each warp counts
// into its own sub-histogram in shared memory (fewer collisions than one per block), the block
// sums its sub-histograms and adds the non-zero bins to the global histogram with atomicAdd.
// A grid-stride loop lets any grid cover any length.
//
// Modeled on: NVIDIA cuda-samples, Samples/2_Concepts_and_Techniques/histogram/histogram256.cu
// (histogram256Kernel + mergeHistogram256Kernel: per-warp sub-histograms over uint-packed data).
// Here the merge is an atomicAdd into one global histogram instead of a second kernel over
// per-block partial histograms. Written anew for this corpus.
//
// Exercises: reduce(+: hist) (every chunk adds into the same 256 bins), grid-stride launch,
// __launch_bounds__, an unsigned length parameter, static shared memory, shared atomics; the
// file's macros in extent and launch.
#include <overlap/annotate.h>

#define HISTOGRAM256_BIN_COUNT 256
#define HISTOGRAM256_THREADBLOCK_SIZE 256
#define HISTOGRAM256_WARP_COUNT (HISTOGRAM256_THREADBLOCK_SIZE / 32)

OVERLAP_KERNEL(partition(dataCount) offset(dataCount)
               extent(d_Data: dataCount) extent(d_Histogram: HISTOGRAM256_BIN_COUNT)
               copyin(d_Data[lo:hi])
               reduce(+: d_Histogram)
               launch(gridstride, block: HISTOGRAM256_THREADBLOCK_SIZE)
               tune(dataCount = 16777216))
__global__ void __launch_bounds__(HISTOGRAM256_THREADBLOCK_SIZE)
histogram256Kernel(unsigned int *d_Histogram, const unsigned int *d_Data, unsigned int dataCount) {
  __shared__ unsigned int s_Hist[HISTOGRAM256_WARP_COUNT * HISTOGRAM256_BIN_COUNT];

  for (unsigned int i = threadIdx.x; i < HISTOGRAM256_WARP_COUNT * HISTOGRAM256_BIN_COUNT;
       i += blockDim.x)
    s_Hist[i] = 0;
  __syncthreads();

  unsigned int *s_WarpHist = s_Hist + (threadIdx.x / 32) * HISTOGRAM256_BIN_COUNT;
  for (unsigned int pos = blockIdx.x * blockDim.x + threadIdx.x; pos < dataCount;
       pos += blockDim.x * gridDim.x) {
    const unsigned int word = d_Data[pos];
    atomicAdd(s_WarpHist + (word & 0xFFU), 1U);
    atomicAdd(s_WarpHist + ((word >> 8) & 0xFFU), 1U);
    atomicAdd(s_WarpHist + ((word >> 16) & 0xFFU), 1U);
    atomicAdd(s_WarpHist + (word >> 24), 1U);
  }
  __syncthreads();

  for (unsigned int bin = threadIdx.x; bin < HISTOGRAM256_BIN_COUNT; bin += blockDim.x) {
    unsigned int sum = 0;
    for (int w = 0; w < HISTOGRAM256_WARP_COUNT; ++w)
      sum += s_Hist[w * HISTOGRAM256_BIN_COUNT + bin];
    if (sum != 0)
      atomicAdd(d_Histogram + bin, sum);
  }
}
