// One Jacobi sweep of the 2-D Laplace equation (5-point stencil) over the interior rows
// [iy_start, iy_end) of an nx-wide grid: a_new = average of a's four neighbours, for columns
// 1 .. nx - 2. Boundary columns and rows keep their values. A multi-GPU code gives each device a
// band [iy_start, iy_end) of rows; here the pipeline gives each chunk one.
//
// Modeled on: NVIDIA multi-gpu-programming-models, single_gpu/jacobi.cu and
// multi_threaded_copy/jacobi.cu (jacobi_kernel with `typedef float real`, iy_start / iy_end,
// __restrict__ const pointers; the host launches it with a braced block size
// `<<<dim_grid, {dim_block_x, dim_block_y, 1}, 0, stream>>>`). This file's kernel computes no
// norm (see jacobi_norm.cu). Written anew for this corpus.
//
// Exercises: the file's typedef (real); `T* __restrict__ const` and `const int` parameters;
// __launch_bounds__; range mode with an origin, partition(iy_start : iy_end), the bounds staying
// caller arguments; param(int ny) for the extent (the kernel never needs ny); a one-row halo on
// both sides; a_new is copy (the kernel leaves its boundary columns alone); host code in the file
// that clang cannot parse (braced launch configuration) but nvcc compiles.
#include <overlap/annotate.h>

typedef float real;

OVERLAP_KERNEL(param(int ny)
               partition(iy_start : iy_end) range(iy_start, iy_end)
               extent(a_new, a: ny * nx)
               copyin(a[(lo - 1) * nx : (hi + 1) * nx])
               copy(a_new[lo * nx : hi * nx])
               launch(grid: (ceil_div(nx, 32), ceil_div(len, 32)), block: (32, 32))
               tune(nx = 4096, ny = 4096, iy_start = 1, iy_end = ny - 1))
__global__ void __launch_bounds__(1024)
jacobi_kernel(real *__restrict__ const a_new, const real *__restrict__ const a,
              const int iy_start, const int iy_end, const int nx) {
  const int iy = blockIdx.y * blockDim.y + threadIdx.y + iy_start;
  const int ix = blockIdx.x * blockDim.x + threadIdx.x + 1;
  if (iy < iy_end && ix < nx - 1) {
    const real east = a[iy * nx + ix + 1];
    const real west = a[iy * nx + ix - 1];
    const real south = a[(iy + 1) * nx + ix];
    const real north = a[(iy - 1) * nx + ix];
    a_new[iy * nx + ix] = 0.25 * (east + west + south + north);
  }
}

// The solver's launch, as the multi-GPU codes write it: the block size braced in place.
void launch_jacobi_kernel(real *a_new, const real *a, int iy_start, int iy_end, int nx,
                          cudaStream_t stream) {
  constexpr int dim_block_x = 32;
  constexpr int dim_block_y = 32;
  const dim3 dim_grid((nx + dim_block_x - 1) / dim_block_x,
                      (iy_end - iy_start + dim_block_y - 1) / dim_block_y, 1);
  jacobi_kernel<<<dim_grid, {dim_block_x, dim_block_y, 1}, 0, stream>>>(a_new, a, iy_start,
                                                                        iy_end, nx);
}
