// r = op(a, b) elementwise with a functor passed by value, the way Thrust's transform and the
// kernels written after it take theirs: a class template of the kernel file, specialized in the
// kernel's signature (with a defaulted non-type argument), its call operator __host__ __device__.
//
// Modeled on: NVIDIA Thrust, thrust/functional.h (plus<T>, binary functors by value) and the
// transform kernels of thrust/system/cuda (a functor argument applied per element). Written anew
// for this corpus.
//
// Exercises: a kernel parameter whose type is a specialization of a class template the kernel
// file defines (the generated header declares the template ahead); a stateless struct by value;
// size_t length.
#include <overlap/annotate.h>

#include <cstddef>

namespace fn {

template <typename T, int Scale = 2> struct scaled_plus {
  __host__ __device__ T operator()(const T &lhs, const T &rhs) const {
    return static_cast<T>(Scale) * (lhs + rhs);
  }
};

} // namespace fn

OVERLAP_KERNEL(partition(n) offset(n)
               extent(a, b, r: n)
               copyin(a[lo:hi], b[lo:hi]) copyout(r[lo:hi])
               launch(grid: ceil_div(len, 256), block: 256)
               tune(n = 8388608))
__global__ void transform_binary(const double *a, const double *b, double *r, std::size_t n,
                                 fn::scaled_plus<double> op) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n)
    r[i] = op(a[i], b[i]);
}
