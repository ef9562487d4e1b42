// A kernel template in a namespace, instantiated twice by its annotation, with a block size from
// a template argument, dynamic shared memory from sizeof(T), a macro of the file, a
// __constant__ table (with its generated setter) and a typedef of the file.
#include <overlap/annotate.h>

#define SCALE_ENTRIES 4

typedef int count_t;

namespace img {

__constant__ float c_scale[SCALE_ENTRIES];

OVERLAP_KERNEL(partition(n) offset(n) extent(in, out: n) copyin(in[lo:hi]) copyout(out[lo:hi])
               launch(grid: ceil_div(len, BLOCK), block: BLOCK, shared: BLOCK * sizeof(T))
               instantiate(T = float, BLOCK = 256) instantiate(transform_d: T = double, BLOCK = 128)
               tune(n = SCALE_ENTRIES * 1048576))
template <class T, int BLOCK>
__global__ void transform(const T* in, T* out, count_t n) {
  extern __shared__ unsigned char staging[];
  T* tile = reinterpret_cast<T*>(staging);
  const count_t i = blockIdx.x * BLOCK + threadIdx.x;
  tile[threadIdx.x] = i < n ? in[i] : T(0);
  __syncthreads();
  if (i < n)
    out[i] = tile[threadIdx.x] * static_cast<T>(c_scale[i % SCALE_ENTRIES]);
}

} // namespace img
