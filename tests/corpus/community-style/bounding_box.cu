// Axis-aligned bounding box of n labelled integer points (x, y, z, label in w) and the set of
// labels that occur (bit label % 32 of a 32-bit mask): per-thread minima, maxima and mask over a
// grid-stride loop, a shuffle reduction per warp, then one atomicMin / atomicMax / atomicOr per
// warp into lower[3], upper[3] and *labels.
//
// Modeled on: NVIDIA Thrust, examples/bounding_box.cu (the bounding box of a point set by
// thrust::transform_reduce with a bbox union functor), written as the raw CUDA kernel a user
// writes without Thrust. Written anew for this corpus.
//
// Exercises: three reductions of different operators on three arrays: reduce(min: lower),
// reduce(max: upper), reduce(|: labels); int4 element type; <climits> in the kernel file;
// grid-stride launch.
#include <overlap/annotate.h>

#include <climits>

OVERLAP_KERNEL(partition(n) offset(n)
               extent(points: n) extent(lower, upper: 3) extent(labels: 1)
               copyin(points[lo:hi])
               reduce(min: lower) reduce(max: upper) reduce(|: labels)
               launch(gridstride, block: 256)
               tune(n = 4194304))
__global__ void bounding_box(const int4 *__restrict__ points, int n, int *__restrict__ lower,
                             int *__restrict__ upper, unsigned int *__restrict__ labels) {
  int lx = INT_MAX, ly = INT_MAX, lz = INT_MAX;
  int ux = INT_MIN, uy = INT_MIN, uz = INT_MIN;
  unsigned int seen = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    const int4 p = points[i];
    lx = min(lx, p.x);
    ly = min(ly, p.y);
    lz = min(lz, p.z);
    ux = max(ux, p.x);
    uy = max(uy, p.y);
    uz = max(uz, p.z);
    seen |= 1U << (p.w & 31);
  }
  for (int offset = 16; offset > 0; offset /= 2) {
    lx = min(lx, __shfl_down_sync(0xffffffffU, lx, offset));
    ly = min(ly, __shfl_down_sync(0xffffffffU, ly, offset));
    lz = min(lz, __shfl_down_sync(0xffffffffU, lz, offset));
    ux = max(ux, __shfl_down_sync(0xffffffffU, ux, offset));
    uy = max(uy, __shfl_down_sync(0xffffffffU, uy, offset));
    uz = max(uz, __shfl_down_sync(0xffffffffU, uz, offset));
    seen |= __shfl_down_sync(0xffffffffU, seen, offset);
  }
  if ((threadIdx.x & 31) == 0) {
    atomicMin(lower + 0, lx);
    atomicMin(lower + 1, ly);
    atomicMin(lower + 2, lz);
    atomicMax(upper + 0, ux);
    atomicMax(upper + 1, uy);
    atomicMax(upper + 2, uz);
    atomicOr(labels, seen);
  }
}
