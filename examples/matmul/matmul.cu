// C = A·B with the rows of A and C cut into chunks and B sent once before the pipeline
// (paper 000 §4.1). A is m×k, B is k×n, C is m×n, all row-major.
#include <overlap/annotate.h>

OVERLAP_KERNEL(partition(m) offset(m)
               extent(a: m * k) extent(b: k * n) extent(c: m * n)
               copyin(a[lo * k : hi * k], b)
               copyout(c[lo * n : hi * n])
               launch(grid: (ceil_div(len, 16), ceil_div(n, 16)), block: (16, 16))
               tune(m = 4096, n = 1024, k = 1024))
__global__ void matmul(int m, int n, int k, const float* a, const float* b, float* c) {
  // Row blocks on grid.x, which may reach 2^31 - 1 blocks (grid.y only 65535); threadIdx.x runs
  // along a row so a warp reads B and writes C contiguously.
  const int row = blockIdx.x * blockDim.y + threadIdx.y;
  const int col = blockIdx.y * blockDim.x + threadIdx.x;
  if (row >= m || col >= n)
    return;
  float sum = 0.0f;
  for (int i = 0; i < k; ++i)
    sum = fmaf(a[static_cast<long long>(row) * k + i], b[static_cast<long long>(i) * n + col], sum);
  c[static_cast<long long>(row) * n + col] = sum;
}
