// The Parallel Ocean Program's state() (paper 001 §VII): density from temperature, salinity and
// the level's pressure, level by level of a levels × plane grid, one chunk a range of levels.
// The equation of state is a shortened UNESCO-style polynomial (what matters here is its cost
// per point and its data movement, two inputs and one output per level), written with explicitly
// rounded operations so that the CPU reference computes the same bits.
#include <overlap/annotate.h>

OVERLAP_KERNEL(partition(levels) range(k_begin, k_end)
                   extent(temperature, salinity, density : levels* plane)
                       copyin(temperature [lo * plane:hi * plane], salinity [lo * plane:hi * plane])
                           copyout(density [lo * plane:hi * plane])
                               launch(grid : ceil_div(plane, 256), block : 256)
                                   tune(levels = 42, plane = 1048576))
__global__ void pop_state(int levels, long long plane, int k_begin, int k_end,
                          const float* temperature, const float* salinity, float* density) {
  const long long p = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (p >= plane || k_end > levels)
    return;
  for (int k = k_begin; k < k_end; ++k) {
    const long long at = k * plane + p;
    const float t = temperature[at];
    const float s = salinity[at];
    const float pressure = __fmul_rn(static_cast<float>(k), 10.0f); // dbar, 10 per level
    // rho0 + t (a1 + t a2) + s (b1 + t b2) + pressure (c1 + t c2 + s c3)
    const float thermal = __fmul_rn(t, __fadd_rn(6.793952e-2f, __fmul_rn(t, -9.095290e-3f)));
    const float haline = __fmul_rn(s, __fadd_rn(8.24493e-1f, __fmul_rn(t, -4.0899e-3f)));
    const float compress = __fmul_rn(
        pressure, __fadd_rn(__fadd_rn(4.5e-3f, __fmul_rn(t, -3.0e-5f)), __fmul_rn(s, 2.0e-5f)));
    density[at] = __fadd_rn(__fadd_rn(__fadd_rn(999.842594f, thermal), haline), compress);
  }
}
