// C = A + B over numElements floats: the "hello world" of CUDA, transfer-bound (two loads, one
// store, one addition per element).
//
// Modeled on: NVIDIA cuda-samples, Samples/0_Introduction/vectorAdd_nvrtc/vectorAdd_kernel.cu
// (vectorAdd, declared extern "C" there so that NVRTC finds it by its unmangled name) and
// Samples/0_Introduction/vectorAdd/vectorAdd.cu. Written anew for this corpus.
//
// Exercises: an extern "C" kernel; the length parameter last; unqualified pointers; offset mode.
#include <overlap/annotate.h>

OVERLAP_KERNEL(partition(numElements) offset(numElements)
               extent(A, B, C: numElements)
               copyin(A[lo:hi], B[lo:hi]) copyout(C[lo:hi])
               launch(grid: ceil_div(len, 256), block: 256)
               tune(numElements = 8388608))
extern "C" __global__ void vectorAdd(const float *A, const float *B, float *C, int numElements) {
  const int i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i >= numElements)
    return;
  C[i] = A[i] + B[i];
}
