#include "GpuBindingSupport.cuh"
#include "MatmulBinding.h"

namespace overlap::test {
namespace {

constexpr unsigned kTile = 16;

__global__ void matmulKernel(long long rows, long long n, long long k, const std::uint32_t* a,
                             const std::uint32_t* b, std::uint32_t* c) {
  const long long row = blockIdx.y * static_cast<long long>(blockDim.y) + threadIdx.y;
  const long long col = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (row >= rows || col >= n)
    return;
  std::uint32_t sum = 0;
  for (long long i = 0; i < k; ++i)
    sum += a[row * k + i] * b[i * n + col];
  c[row * n + col] = sum;
}

} // namespace

Status MatmulBinding::launch(void* const* bases, long long lo, long long hi,
                             cudaStream_t stream) const {
  const long long len = hi - lo;
  unsigned grid_x = 0;
  unsigned grid_y = 0;
  OVERLAP_TRY(checkedDim((n + kTile - 1) / kTile, "matmul: grid.x = ceil_div(n, 16)", &grid_x));
  OVERLAP_TRY(
      checkedDim((len + kTile - 1) / kTile, 65535, "matmul: grid.y = ceil_div(len, 16)", &grid_y));
  matmulKernel<<<dim3(grid_x, grid_y), dim3(kTile, kTile), 0, stream>>>(
      len, n, k, static_cast<const std::uint32_t*>(bases[0]) + lo * k,
      static_cast<const std::uint32_t*>(bases[1]), static_cast<std::uint32_t*>(bases[2]) + lo * n);
  return launchStatus("matmul<<<...>>>");
}

void matmulReference(long long m, long long n, long long k, const std::uint32_t* a,
                     const std::uint32_t* b, std::uint32_t* c) {
  for (long long row = 0; row < m; ++row)
    for (long long col = 0; col < n; ++col) {
      std::uint32_t sum = 0;
      for (long long i = 0; i < k; ++i)
        sum += a[row * k + i] * b[i * n + col];
      c[row * n + col] = sum;
    }
}

} // namespace overlap::test
