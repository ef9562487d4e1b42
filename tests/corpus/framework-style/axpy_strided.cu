// BLAS-1 axpy on strided, offset vectors, darknet style: Y[OFFY + i*INCY] += ALPHA * X[OFFX +
// i*INCX] for i < N, one thread per element on a 2-D grid: cuda_gridsize(n) keeps the x dimension
// within 65535 blocks and puts the rest in y, and the kernel flattens (blockIdx.x + blockIdx.y *
// gridDim.x). The offsets let layers work on slices of one big buffer.
//
// Modeled on: pjreddie/darknet, src/blas_kernels.cu (axpy_kernel, axpy_ongpu_offset) and
// src/cuda.c (cuda_gridsize, BLOCK). Written anew for this corpus.
//
// Exercises: a kernel that takes its start as element offsets and its count as N: a bare `range`
// with bind(N = len, OFFX = OFFX + lo * INCX, OFFY = OFFY + lo * INCY) (the caller's offsets
// move with the chunk); strided sections (the gaps between a chunk's elements travel with it and
// come back unchanged); UPPER-CASE parameter names; non-const `float*` inputs; the 2-D grid of
// cuda_gridsize written with min/ceil_div (its sqrt is not an annotation expression).
#include <overlap/annotate.h>

#include <cmath>

#define BLOCK 512

// darknet's grid for n threads: x up to 65535 blocks, the rest in y.
dim3 cuda_gridsize(size_t n) {
  size_t k = (n - 1) / BLOCK + 1;
  size_t x = k;
  size_t y = 1;
  if (x > 65535) {
    x = static_cast<size_t>(std::ceil(std::sqrt(static_cast<double>(k))));
    y = (n - 1) / (x * BLOCK) + 1;
  }
  return dim3(static_cast<unsigned>(x), static_cast<unsigned>(y), 1);
}

// clang-format off
OVERLAP_KERNEL(partition(N) range
               bind(N = len, OFFX = OFFX + lo * INCX, OFFY = OFFY + lo * INCY)
               extent(X: OFFX + N * INCX) extent(Y: OFFY + N * INCY)
               copyin(X[OFFX + lo * INCX : OFFX + hi * INCX])
               copy(Y[OFFY + lo * INCY : OFFY + hi * INCY])
               launch(grid: (min(ceil_div(len, BLOCK), 65535),
                             ceil_div(ceil_div(len, BLOCK), 65535)),
                      block: BLOCK)
               tune(N = 16777216, OFFX = 0, INCX = 1, OFFY = 0, INCY = 1))
// clang-format on
__global__ void axpy_kernel(int N, float ALPHA, float* X, int OFFX, int INCX, float* Y, int OFFY,
                            int INCY) {
  int i = (blockIdx.x + blockIdx.y * gridDim.x) * blockDim.x + threadIdx.x;
  if (i < N)
    Y[OFFY + i * INCY] += ALPHA * X[OFFX + i * INCX];
}

// darknet's wrapper (check_error left out).
void axpy_ongpu_offset(int N, float ALPHA, float* X, int OFFX, int INCX, float* Y, int OFFY,
                       int INCY) {
  axpy_kernel<<<cuda_gridsize(N), BLOCK>>>(N, ALPHA, X, OFFX, INCX, Y, OFFY, INCY);
}
