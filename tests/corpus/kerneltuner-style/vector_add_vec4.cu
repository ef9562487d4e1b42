// c = a + b over n floats, four per thread through float4 loads and stores; the n % 4 floats at
// the end are added one by one by the thread after the last float4. The block size is a
// compile-time macro that a Kernel Tuner run overrides with -Dblock_size_x=...
//
// Modeled on: Kernel Tuner, examples/cuda/vector_add.py (the vector_add(float *c, float *a,
// float *b, int n) kernel with the block_size_x macro), vectorized as examples/cuda/reduction.cu
// does with its float2/float4 "vector" tunable. Written anew for this corpus.
//
// Exercises: float4 loads and stores through reinterpret_cast of float* parameters: a chunk must
// begin at a multiple of 4 floats (16-byte alignment), granule(4); the tail of a chunk that is
// not a multiple of 4 (only the last one) handled in the kernel; output first in the parameter
// list; a block size macro (overridable with -D) in the annotation.
#include <overlap/annotate.h>

#ifndef block_size_x
#define block_size_x 256
#endif

OVERLAP_KERNEL(partition(n) offset(n) granule(4)
               extent(c, a, b: n)
               copyin(a[lo:hi], b[lo:hi]) copyout(c[lo:hi])
               launch(grid: ceil_div(len / 4 + 1, block_size_x), block: block_size_x)
               tune(n = 16777216))
__global__ void vector_add(float *__restrict__ c, const float *__restrict__ a,
                           const float *__restrict__ b, int n) {
  const int i = blockIdx.x * block_size_x + threadIdx.x;
  const int n4 = n / 4;
  if (i < n4) {
    const float4 va = reinterpret_cast<const float4 *>(a)[i];
    const float4 vb = reinterpret_cast<const float4 *>(b)[i];
    reinterpret_cast<float4 *>(c)[i] = make_float4(va.x + vb.x, va.y + vb.y, va.z + vb.z, va.w + vb.w);
  } else if (i == n4) {
    for (int j = 4 * n4; j < n; ++j)
      c[j] = a[j] + b[j];
  }
}
