// Leaky ReLU forward, Caffe style: out = in > 0 ? in : in * negative_slope over `n` elements, one
// thread per element through the framework's CUDA_KERNEL_LOOP (a grid-stride loop in a macro),
// launched with CAFFE_GET_BLOCKS(count) blocks of CAFFE_CUDA_NUM_THREADS threads. The layer is a
// template over Dtype, dispatched for float and double.
//
// Modeled on: BVLC/caffe, src/caffe/layers/relu_layer.cu (ReLUForward) and
// include/caffe/util/device_alternate.hpp (CUDA_KERNEL_LOOP, CAFFE_CUDA_NUM_THREADS,
// CAFFE_GET_BLOCKS). Written anew for this corpus.
//
// Exercises: a function-like macro that opens the kernel's loop; the launch as Caffe writes it,
// CAFFE_GET_BLOCKS(len) blocks (a call of the namespace's inline function, expanded in the
// annotation) of a namespace-scope `const int`; a kernel template in a named namespace with two
// default-named instantiations; a `const int` length; a Dtype scalar (float and double).
#include <overlap/annotate.h>

// Caffe's loop over the elements of a launch (device_alternate.hpp).
#define CUDA_KERNEL_LOOP(i, n)                                                                     \
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += blockDim.x * gridDim.x)

namespace caffe {

// Threads per block for every Caffe kernel.
const int CAFFE_CUDA_NUM_THREADS = 512;

// Blocks for N threads.
inline int CAFFE_GET_BLOCKS(const int N) {
  return (N + CAFFE_CUDA_NUM_THREADS - 1) / CAFFE_CUDA_NUM_THREADS;
}

// clang-format off
OVERLAP_KERNEL(partition(n) offset(n)
               extent(in, out: n)
               copyin(in[lo:hi]) copyout(out[lo:hi])
               launch(grid: CAFFE_GET_BLOCKS(len), block: CAFFE_CUDA_NUM_THREADS)
               instantiate(Dtype = float) instantiate(Dtype = double)
               tune(n = 16777216))
// clang-format on
template <typename Dtype>
__global__ void ReLUForward(const int n, const Dtype* in, Dtype* out, Dtype negative_slope) {
  CUDA_KERNEL_LOOP(index, n) {
    out[index] = in[index] > 0 ? in[index] : in[index] * negative_slope;
  }
}

// The layer's Forward_gpu, as Caffe launches the kernel.
template <typename Dtype>
void relu_forward_gpu(const int count, const Dtype* bottom_data, Dtype* top_data,
                      Dtype negative_slope) {
  ReLUForward<Dtype><<<CAFFE_GET_BLOCKS(count), CAFFE_CUDA_NUM_THREADS>>>(count, bottom_data,
                                                                          top_data, negative_slope);
}

} // namespace caffe
