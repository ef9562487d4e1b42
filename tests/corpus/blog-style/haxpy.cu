// y = a * x + y in half precision, two halves at a time: the arrays are read and written as
// half2 through a cast of the half pointers, with a fused half2 multiply-add; when n is odd the
// first thread of the grid does the last element alone. Grid-stride loop.
//
// Modeled on: NVIDIA developer blog, "Mixed-Precision Programming with CUDA 8",
// NVIDIA-developer-blog/code-samples posts/mixed-precision/haxpy.cu (haxpy: half2 loads through
// casts, __hfma2, the odd element done by thread 0). Written anew for this corpus.
//
// Exercises: __half scalar and arrays; half2 loads and stores from a half* (4-byte alignment):
// chunks must start at even elements, granule(2); an odd tail in the last chunk only; grid-stride
// launch; __restrict__.
#include <overlap/annotate.h>

#include <cuda_fp16.h>

OVERLAP_KERNEL(partition(n) offset(n) granule(2)
               extent(x, y: n)
               copyin(x[lo:hi]) copy(y[lo:hi])
               launch(gridstride, block: 256)
               tune(n = 33554432))
__global__ void haxpy(int n, __half a, const __half *__restrict__ x, __half *__restrict__ y) {
  const int first = blockIdx.x * blockDim.x + threadIdx.x;
  const int stride = blockDim.x * gridDim.x;

  const int pairs = n / 2;
  const __half2 a2 = __halves2half2(a, a);
  const __half2 *x2 = reinterpret_cast<const __half2 *>(x);
  __half2 *y2 = reinterpret_cast<__half2 *>(y);
  for (int i = first; i < pairs; i += stride)
    y2[i] = __hfma2(a2, x2[i], y2[i]);

  if (first == 0 && n % 2 != 0)
    y[n - 1] = __hfma(a, x[n - 1], y[n - 1]);
}
