// Reverses every row of a rows x cols int matrix in place, one thread block per row: the block
// copies its row into dynamic shared memory, synchronizes, and writes it back reversed. The
// kernel has no row count: the grid is one block per row.
//
// Modeled on: NVIDIA developer blog, "Using Shared Memory in CUDA C/C++",
// NVIDIA-developer-blog/code-samples series/cuda-cpp/shared-memory/shared-memory.cu
// (dynamicReverse: extern __shared__ int s[], one array reversed by one block), applied to every
// row of a matrix. Written anew for this corpus.
//
// Exercises: no length parameter: param(int rows) and a bare `offset`, grid: len; dynamic shared
// memory sized by a parameter (shared: cols * 4); an in-place array (copy) whose chunk is whole
// rows.
#include <overlap/annotate.h>

OVERLAP_KERNEL(param(int rows)
               partition(rows) offset
               extent(d: rows * cols)
               copy(d[lo * cols : hi * cols])
               launch(grid: len, block: 256, shared: cols * 4)
               tune(rows = 16384, cols = 1024))
__global__ void dynamicReverseRows(int *d, int cols) {
  extern __shared__ int s[];
  int *row = d + (long long)blockIdx.x * cols;
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    s[c] = row[c];
  __syncthreads();
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    row[c] = s[cols - c - 1];
}
