#include "ColumnBinding.h"
#include "GpuBindingSupport.cuh"

namespace overlap::test {
namespace {

constexpr int kBlock = 128;

__global__ void columnKernel(long long k_begin, long long k_end, long long plane, const float* rho,
                             float* acc, float* out) {
  for (long long p = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; p < plane;
       p += static_cast<long long>(gridDim.x) * blockDim.x) {
    const float surface = rho[p];
    for (long long k = k_begin; k < k_end; ++k) {
      const float here = rho[k * plane + p];
      const float above = k > 0 ? rho[(k - 1) * plane + p] : surface;
      out[k * plane + p] = __fmul_rn(__fsub_rn(here, above), __fadd_rn(surface, 1.0f));
      acc[k * plane + p] = __fadd_rn(acc[k * plane + p], __fmul_rn(here, surface));
    }
  }
}

} // namespace

Status columnGrid(int blockThreads, unsigned* grid) {
  return gridStrideGrid(columnKernel, blockThreads, 0, grid);
}

Status ColumnBinding::launch(void* const* bases, long long lo, long long hi,
                             cudaStream_t stream) const {
  unsigned grid_x = 0;
  OVERLAP_TRY(columnGrid(kBlock, &grid_x));
  columnKernel<<<grid_x, kBlock, 0, stream>>>(lo, hi, plane, static_cast<const float*>(bases[0]),
                                              static_cast<float*>(bases[1]),
                                              static_cast<float*>(bases[2]));
  return launchStatus("column<<<...>>>");
}

void columnReference(long long levels, long long plane, const float* rho, float* acc, float* out) {
  for (long long p = 0; p < plane; ++p) {
    const float surface = rho[p];
    for (long long k = 0; k < levels; ++k) {
      const float here = rho[k * plane + p];
      const float above = k > 0 ? rho[(k - 1) * plane + p] : surface;
      const float difference = here - above;
      const float scale = surface + 1.0f;
      out[k * plane + p] = difference * scale;
      const float product = here * surface;
      acc[k * plane + p] = acc[k * plane + p] + product;
    }
  }
}

} // namespace overlap::test
