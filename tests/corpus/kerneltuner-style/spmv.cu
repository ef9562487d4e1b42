// Sparse matrix-vector product y = A x with A in CSR (row_start, col_idx, values): a group of
// threads_per_row threads (a warp) per row, each summing every 32nd non-zero of the row, then a
// shuffle reduction. The kernel knows only the row count; the non-zero count and the column
// count matter only to the host (array sizes).
//
// Modeled on: Kernel Tuner, examples/cuda/spmv.cu (spmv_kernel(float *y, int *rows, int *cols,
// float *values, float *x, int nrows), CSR with threads_per_row and block_size_x tunables).
// Written anew for this corpus.
//
// Exercises: host-only parameters for extents, param(int nnz, int ncols); offset mode with a
// one-element halo after the chunk on the row offsets, halo(row_start: 0, 1); indices into
// broadcast arrays taken from the data (col_idx, row_start hold absolute positions); prepare
// (random offsets and column indices are invalid); warp shuffles; macros in launch.
#include <overlap/annotate.h>

#define threads_per_row 32
#ifndef block_size_x
#define block_size_x 128
#endif

OVERLAP_KERNEL(param(int nnz, int ncols)
               partition(nrows) offset(nrows)
               extent(y: nrows) extent(row_start: nrows + 1) extent(col_idx, values: nnz)
               extent(x: ncols)
               copyin(row_start[lo:hi], col_idx, values, x) halo(row_start: 0, 1)
               copyout(y[lo:hi])
               launch(grid: ceil_div(len, block_size_x / threads_per_row), block: block_size_x)
               tune(nrows = 1048576, ncols = 1048576, nnz = 8388608))
__global__ void spmv_kernel(float *__restrict__ y, const int *__restrict__ row_start,
                            const int *__restrict__ col_idx, const float *__restrict__ values,
                            const float *__restrict__ x, int nrows) {
  const int row = (blockIdx.x * block_size_x + threadIdx.x) / threads_per_row;
  const int lane = threadIdx.x % threads_per_row;
  if (row >= nrows) // the whole warp shares the row
    return;

  float sum = 0.0f;
  for (int k = row_start[row] + lane; k < row_start[row + 1]; k += threads_per_row)
    sum += values[k] * x[col_idx[k]];

  for (int offset = threads_per_row / 2; offset > 0; offset /= 2)
    sum += __shfl_down_sync(0xffffffffU, sum, offset);
  if (lane == 0)
    y[row] = sum;
}
