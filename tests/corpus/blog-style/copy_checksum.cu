// Copies n4 int4 vectors (16 bytes each, one 128-bit load and store per element) and folds a
// checksum of everything copied into *checksum with atomicXor. The checksum depends on the values
// only, not on their positions, so any split of the copy gives the same checksum.
//
// Modeled on: NVIDIA developer blog, "CUDA Pro Tip: Increase Performance with Vectorized Memory
// Access" (device_copy_vector4_kernel: int4 loads and stores in a grid-stride loop), with an
// integrity checksum added. Written anew for this corpus.
//
// Exercises: int4 element type (extents count int4s); reduce(^: checksum), a bitwise XOR
// reduction; __shfl_xor_sync; grid-stride launch.
#include <overlap/annotate.h>

__device__ inline unsigned int mixWord(int word) {
  unsigned int h = static_cast<unsigned int>(word) * 0x9E3779B1U;
  return h ^ (h >> 16);
}

OVERLAP_KERNEL(partition(n4) offset(n4)
               extent(d_out, d_in: n4) extent(checksum: 1)
               copyin(d_in[lo:hi]) copyout(d_out[lo:hi])
               reduce(^: checksum)
               launch(gridstride, block: 256)
               tune(n4 = 4194304))
__global__ void device_copy_vector4_checksum(int4 *__restrict__ d_out,
                                             const int4 *__restrict__ d_in, int n4,
                                             unsigned int *__restrict__ checksum) {
  unsigned int folded = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += blockDim.x * gridDim.x) {
    const int4 v = d_in[i];
    d_out[i] = v;
    folded ^= mixWord(v.x) ^ mixWord(v.y) ^ mixWord(v.z) ^ mixWord(v.w);
  }
  for (int offset = 16; offset > 0; offset /= 2)
    folded ^= __shfl_xor_sync(0xffffffffU, folded, offset);
  if ((threadIdx.x & 31) == 0 && folded != 0)
    atomicXor(checksum, folded);
}
