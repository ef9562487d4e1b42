// data[i] = factor * data[i] in place, for any floating-point type, with a grid-stride loop so
// that one launch of any grid size covers any n. The factor defaults to 2.
//
// Modeled on: NVIDIA developer blog, "CUDA Pro Tip: Write Flexible Kernels with Grid-Stride
// Loops" (the grid-stride saxpy) and "How to Access Global Memory Efficiently in CUDA C/C++
// Kernels", NVIDIA-developer-blog/code-samples series/cuda-cpp/coalescing-global/coalescing.cu
// (template <typename T> kernels instantiated for float and double). Written anew for this
// corpus.
//
// Exercises: a template kernel without instantiate(...) clauses: the file's explicit
// instantiations (float, double) are the instantiations; a default argument; a read-write array
// (copy) and nothing else; grid-stride launch.
#include <overlap/annotate.h>

OVERLAP_KERNEL(partition(n) offset(n)
               extent(data: n)
               copy(data[lo:hi])
               launch(gridstride, block: 256)
               tune(n = 16777216))
template <typename T>
__global__ void scale(T *__restrict__ data, int n, T factor = T(2)) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    data[i] = factor * data[i];
}

template __global__ void scale<float>(float *__restrict__ data, int n, float factor);
template __global__ void scale<double>(double *__restrict__ data, int n, double factor);
