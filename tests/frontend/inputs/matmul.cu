// C = A * B by rows of A: rows of A and C are chunked, B is a broadcast input sent once.
#include <overlap/annotate.h>

OVERLAP_KERNEL(partition(m) offset(m)
               extent(a: m * k) extent(b: k * n) extent(c: m * n)
               copyin(a[lo * k:hi * k], b) copyout(c[lo * n:hi * n])
               launch(grid: (ceil_div(n, 16), ceil_div(len, 16)), block: (16, 16))
               tune(m = 1024, k = 1024, n = 1024))
__global__ void matmul(int m, int k, int n, const double* a, const double* b, double* c) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m || col >= n)
    return;
  double sum = 0;
  for (int i = 0; i < k; ++i)
    sum += a[row * k + i] * b[i * n + col];
  c[row * n + col] = sum;
}
