// Offset mode: each chunk gets x and y advanced to its first element and n = its length.
#include <overlap/annotate.h>

OVERLAP_KERNEL(partition(n) offset(n)
               extent(x, y: n)
               copyin(x[lo:hi]) copy(y[lo:hi])
               launch(grid: ceil_div(len, 256), block: 256)
               tune(n = 1048576))
__global__ void saxpy(int n, float a, const float* x, float* y) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}
