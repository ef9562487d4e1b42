// Restrict pointers to half precision, loaded two at a time: the generator finds the half2
// accesses and keeps every chunk's first element even; the header includes <cuda_fp16.h>.
#include <overlap/annotate.h>

#include <cuda_fp16.h>

OVERLAP_KERNEL(partition(n) offset(n) extent(x, y: n) copyin(x[lo:hi]) copy(y[lo:hi])
               launch(grid: ceil_div(len, 512), block: 256))
__global__ void haxpy(const int n, const half a, const half* __restrict__ x,
                      half* __restrict__ y) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const half2 a2 = __halves2half2(a, a);
  if (2 * i + 1 < n)
    reinterpret_cast<half2*>(y)[i] =
        __hfma2(a2, reinterpret_cast<const half2*>(x)[i], reinterpret_cast<half2*>(y)[i]);
  else if (2 * i < n)
    y[2 * i] = __hfma(a, x[2 * i], y[2 * i]);
}
