// Point-in-polygon for many points against a set of polygons, by the crossing-number (even-odd)
// test: bitmap[i] is the number of polygons that contain point i, and, when the caller asks for
// it, which[i] is the first polygon containing it (-1: none). Polygon p's vertices are
// vertices[polyStart[p] .. polyStart[p + 1]) (CSR), closed implicitly. Each thread tests
// tile_size points, block_size_x apart. Compute-bound: every point against every edge.
//
// Modeled on: Kernel Tuner, examples/cuda/pnpoly.cu (cn_pnpoly: crossing number over float2
// points, tile_size points per thread, block_size_x / tile_size macros; one polygon in constant
// memory there), extended to several polygons read from global memory. Written anew for this
// corpus.
//
// Exercises: an optional output (which may be null; the kernel writes it only when given),
// optional(which); host-only param(int numVertices) for an extent; float2 element type; CSR
// offsets that random data would break (prepare); __launch_bounds__ with a macro; broadcast
// inputs; a grid computed with tile_size points per thread (the file's macros in launch).
#include <overlap/annotate.h>

#ifndef block_size_x
#define block_size_x 256
#endif
#ifndef tile_size
#define tile_size 4
#endif

OVERLAP_KERNEL(param(int numVertices)
               partition(n) offset(n)
               extent(bitmap, which, points: n) extent(vertices: numVertices)
               extent(polyStart: numPolygons + 1)
               copyin(points[lo:hi], vertices, polyStart)
               copyout(bitmap[lo:hi], which[lo:hi])
               optional(which)
               launch(grid: ceil_div(len, block_size_x * tile_size), block: block_size_x)
               tune(n = 4194304, numPolygons = 8, numVertices = 600))
__global__ void __launch_bounds__(block_size_x)
pnpoly_multi(int *__restrict__ bitmap, int *__restrict__ which, const float2 *__restrict__ points,
             const float2 *__restrict__ vertices, const int *__restrict__ polyStart, int n,
             int numPolygons) {
  for (int t = 0; t < tile_size; ++t) {
    const int i = blockIdx.x * block_size_x * tile_size + t * block_size_x + threadIdx.x;
    if (i >= n)
      return;
    const float2 p = points[i];
    int containing = 0;
    int first = -1;
    for (int poly = 0; poly < numPolygons; ++poly) {
      const int begin = polyStart[poly];
      const int end = polyStart[poly + 1];
      bool inside = false;
      for (int j = begin, k = end - 1; j < end; k = j++) {
        const float2 vj = vertices[j];
        const float2 vk = vertices[k];
        // Does the edge (vk, vj) cross the horizontal ray from p towards +x?
        if ((vj.y > p.y) != (vk.y > p.y) &&
            p.x < (vk.x - vj.x) * (p.y - vj.y) / (vk.y - vj.y) + vj.x)
          inside = !inside;
      }
      if (inside) {
        ++containing;
        if (first < 0)
          first = poly;
      }
    }
    bitmap[i] = containing;
    if (which != nullptr)
      which[i] = first;
  }
}
