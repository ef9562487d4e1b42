// Buoyancy difference between vertical levels of an ocean grid, after the Parallel Ocean
// Program's buoydiff() (paper 001 §VII): level k needs the surface level 0 and levels k-1 and k.
// One thread per horizontal point walks the levels of its chunk, so the kernel takes the chunk's
// levels as [k_begin, k_end) and indexes the whole grid: range mode. The surface level is a
// broadcast section (sent once), level k-1 a halo into the previous chunk.
#include <overlap/annotate.h>

OVERLAP_KERNEL(partition(levels) range(k_begin, k_end)
               extent(rho, dbloc: levels * plane)
               copyin(rho[0 : plane], rho[(lo - 1) * plane : hi * plane])
               copyout(dbloc[lo * plane : hi * plane])
               launch(grid: ceil_div(plane, 256), block: 256)
               tune(levels = 42, plane = 1048576))
__global__ void buoydiff(int levels, long long plane, int k_begin, int k_end, const float* rho,
                         float* dbloc) {
  const long long p = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (p >= plane || k_end > levels)
    return;
  const float surface = rho[p];
  for (int k = k_begin; k < k_end; ++k) {
    const float here = rho[k * plane + p];
    const float above = k > 0 ? rho[(k - 1) * plane + p] : surface;
    // Explicitly rounded operations: the CPU reference computes exactly the same values.
    dbloc[k * plane + p] = __fmul_rn(__fsub_rn(here, above), __fadd_rn(surface, 1.0f));
  }
}
