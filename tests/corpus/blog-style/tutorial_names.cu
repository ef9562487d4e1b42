// Parameters named as tutorials name them (`float* array`) and as Overlap's generated code names
// its own: the binding's members (array, section, launch), the entry points' parameters (stream,
// order, config). The generated code renames its side where they meet. The file's own ceil_div
// macro, as tutorials define one for their launches, must not expand in the generated code's calls
// of ::overlap::ceil_div.
//
// Modeled on: the "increment every element of an array" kernels of CUDA tutorials (an Even Easier
// Introduction to CUDA, NVIDIA developer blog: add(int n, float* x, float* y); many course
// examples name the pointer `array`), with a per-stream seed and a scale of the kind batch
// pipelines pass. Written anew for this corpus.
//
// Exercises: parameter names array, section, launch, stream, order, config; int and float scalars;
// a function-like macro named ceil_div.
#include <overlap/annotate.h>

#define ceil_div(a, b) (((a) + (b)-1) / (b))

OVERLAP_KERNEL(partition(n) offset(n)
               extent(array, section: n)
               copyin(section[lo:hi]) copy(array[lo:hi])
               launch(grid: ceil_div(len, 256), block: 256)
               tune(n = 16777216, stream = 3, order = 2, launch = 1))
__global__ void accumulate(float *array, const float *section, int n, int stream, int order,
                           int launch, float config) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    array[i] = array[i] * config + section[i] * static_cast<float>(stream * order + launch);
}
