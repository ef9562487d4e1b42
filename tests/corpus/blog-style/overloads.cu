// y = a * x + y for float and for double, as two overloads of one kernel name rather than a
// template: the float one keeps the kernel's name for its entry points (axpy_tuned), the double
// one is given its own with name(daxpy), since both cannot be named after the kernel.
//
// Modeled on: NVIDIA developer blog, "An Even Easier Introduction to CUDA" / "Six Ways to SAXPY"
// (saxpy(int n, float a, float* x, float* y)), with the double overload that course code adds
// beside it. Written anew for this corpus.
//
// Exercises: overloaded __global__ functions, name(NAME), length first, a scalar of each
// floating-point type.
#include <overlap/annotate.h>

OVERLAP_KERNEL(partition(n) offset(n)
               extent(x, y: n)
               copyin(x[lo:hi]) copy(y[lo:hi])
               launch(grid: ceil_div(len, 256), block: 256)
               tune(n = 16777216))
__global__ void axpy(int n, float a, const float *x, float *y) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

OVERLAP_KERNEL(name(daxpy) partition(n) offset(n)
               extent(x, y: n)
               copyin(x[lo:hi]) copy(y[lo:hi])
               launch(grid: ceil_div(len, 128), block: 128)
               tune(n = 8388608))
__global__ void axpy(int n, double a, const double *x, double *y) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}
