// Range mode with a halo: chunk [lo, hi) of the output reads inputs lo .. hi + 1, so adjacent
// chunks share two input elements; the kernel indexes globally from begin to end.
#include <overlap/annotate.h>

OVERLAP_KERNEL(partition(n) range(begin, end)
               extent(in: n + 2) extent(out: n)
               copyin(in[lo:hi + 2]) copyout(out[lo:hi])
               launch(grid: ceil_div(len, 128), block: 128))
__global__ void blur(long n, long begin, long end, const float* in, float* out) {
  const long i = begin + blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x;
  if (i < end)
    out[i] = (in[i] + in[i + 1] + in[i + 2]) / 3.0f;
}
