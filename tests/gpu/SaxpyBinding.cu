#include "GpuBindingSupport.cuh"
#include "SaxpyBinding.h"

namespace overlap::test {
namespace {

__global__ void saxpyKernel(long long n, float a, const float* x, float* y) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i < n)
    y[i] = __fadd_rn(__fmul_rn(a, x[i]), y[i]);
}

} // namespace

Status SaxpyBinding::launch(void* const* bases, long long lo, long long hi,
                            cudaStream_t stream) const {
  const long long len = hi - lo;
  unsigned block_x = 0;
  OVERLAP_TRY(checkedDim(block, "saxpy: block.x = block", &block_x));
  unsigned grid_x = 0;
  OVERLAP_TRY(
      checkedDim((len + block - 1) / block, "saxpy: grid.x = ceil_div(len, block)", &grid_x));
  saxpyKernel<<<grid_x, block_x, 0, stream>>>(len, a, static_cast<const float*>(bases[0]) + lo,
                                              static_cast<float*>(bases[1]) + lo);
  return launchStatus("saxpy<<<...>>>");
}

void saxpyReference(long long n, float a, const float* x, float* y) {
  for (long long i = 0; i < n; ++i) {
    const float product = a * x[i];
    y[i] = product + y[i];
  }
}

} // namespace overlap::test
