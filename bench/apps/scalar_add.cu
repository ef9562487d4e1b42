// simpleStreams' scalar addition (paper 000 §3.1) with a variable number of inner iterations, so
// one kernel sweeps from transfer-bound (iterations = 1) to compute-bound. Each iteration is a
// step of a linear congruential generator rather than a plain addition: the compiler cannot fold
// the loop into one multiply, so the kernel time really grows with `iterations`.
#include <overlap/annotate.h>

OVERLAP_KERNEL(partition(n) offset(n) extent(values : n) copy(values [lo:hi])
                   launch(grid : ceil_div(len, 256), block : 256)
                       tune(n = 33554432, iterations = 1))
__global__ void scalar_add(int n, int iterations, unsigned int* values) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  unsigned int value = values[i];
  for (int step = 0; step < iterations; ++step)
    value = value * 1664525u + 1013904223u; // unsigned: wraps, exact on CPU and GPU
  values[i] = value;
}
