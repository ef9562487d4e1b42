// y = a*x + y over n floats: the elementwise kernel of paper 004 (stream3Streams.cu), unchanged
// but for the annotation. Offset mode hands each chunk pointers advanced to it and n = chunk length.
#include <overlap/annotate.h>

OVERLAP_KERNEL(partition(n) offset(n)
               extent(x, y: n)
               copyin(x[lo:hi]) copy(y[lo:hi])
               launch(grid: ceil_div(len, 256), block: 256)
               tune(n = 67108864))
__global__ void saxpy(int n, float a, const float* x, float* y) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = fmaf(a, x[i], y[i]);
}
