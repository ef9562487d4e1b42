// One Jacobi sweep of the 2-D Laplace equation over the rows [iy_start, iy_end), as jacobi.cu,
// that also accumulates the squared L2 norm of the update (a_new - a) into *l2_norm when asked:
// cub::BlockReduce sums the block's squares and one thread per block adds the block's sum with
// atomicAdd. The block shape is a template parameter, as cub needs it at compile time.
//
// Modeled on: NVIDIA multi-gpu-programming-models, single_gpu/jacobi.cu and mpi/jacobi_kernels.cu
// (template <int BLOCK_DIM_X, int BLOCK_DIM_Y> jacobi_kernel with `real* __restrict__ const
// l2_norm`, `const bool calculate_norm`, cub::BlockReduce and atomicAdd). Written anew for this
// corpus.
//
// Exercises: a template kernel over two int block sizes with the annotation between `template`
// and `__global__`, one instantiate(...) with the default name; the template parameters in the
// launch geometry; reduce(+: l2_norm) of a float (result equal only up to rounding); a bool
// parameter; partition(iy_start : iy_end) range mode with halos; param(int ny); cub in the kernel
// file.
#include <overlap/annotate.h>

#include <cub/block/block_reduce.cuh>

typedef float real;

template <int BLOCK_DIM_X, int BLOCK_DIM_Y>
OVERLAP_KERNEL(param(int ny)
               partition(iy_start : iy_end) range(iy_start, iy_end)
               extent(a_new, a: ny * nx) extent(l2_norm: 1)
               copyin(a[(lo - 1) * nx : (hi + 1) * nx])
               copy(a_new[lo * nx : hi * nx])
               reduce(+: l2_norm)
               launch(grid: (ceil_div(nx, BLOCK_DIM_X), ceil_div(len, BLOCK_DIM_Y)),
                      block: (BLOCK_DIM_X, BLOCK_DIM_Y))
               instantiate(BLOCK_DIM_X = 32, BLOCK_DIM_Y = 8)
               tune(nx = 4096, ny = 4096, iy_start = 1, iy_end = ny - 1, calculate_norm = 1))
__global__ void jacobi_norm_kernel(real *__restrict__ const a_new,
                                   const real *__restrict__ const a,
                                   real *__restrict__ const l2_norm, const int iy_start,
                                   const int iy_end, const int nx, const bool calculate_norm) {
  using BlockReduce =
      cub::BlockReduce<real, BLOCK_DIM_X, cub::BLOCK_REDUCE_WARP_REDUCTIONS, BLOCK_DIM_Y>;
  __shared__ typename BlockReduce::TempStorage temp_storage;

  const int iy = blockIdx.y * BLOCK_DIM_Y + threadIdx.y + iy_start;
  const int ix = blockIdx.x * BLOCK_DIM_X + threadIdx.x + 1;
  real squared_update = 0;
  if (iy < iy_end && ix < nx - 1) {
    const real updated = 0.25 * (a[iy * nx + ix + 1] + a[iy * nx + ix - 1] +
                                 a[(iy + 1) * nx + ix] + a[(iy - 1) * nx + ix]);
    a_new[iy * nx + ix] = updated;
    const real update = updated - a[iy * nx + ix];
    squared_update = update * update;
  }
  if (!calculate_norm)
    return; // uniform over the launch: no thread of the block reaches the reduction
  const real block_sum = BlockReduce(temp_storage).Sum(squared_update);
  if (threadIdx.x == 0 && threadIdx.y == 0)
    atomicAdd(l2_norm, block_sum);
}
