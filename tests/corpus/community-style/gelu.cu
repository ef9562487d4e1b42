// GELU activation (tanh approximation) of N bfloat16 values, computed in float:
// 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))). Storage in bfloat16 halves the traffic of
// this transfer-bound kernel.
//
// Modeled on: karpathy/llm.c, dev/cuda/gelu_forward.cu and train_gpt2.cu (gelu_forward_kernel
// with GELU_SCALING_FACTOR, the floatX = __nv_bfloat16 storage type, conversions to float for the
// arithmetic). Written anew for this corpus.
//
// Exercises: __nv_bfloat16 element type behind a typedef; a kernel in a nested namespace (the
// same one as softmax.cu); tanhf; offset mode, elementwise; a launch sized by a helper of a
// sibling namespace whose default argument is its own namespace's constant.
#include <overlap/annotate.h>

#include <cuda_bf16.h>

namespace llm {
namespace cuda_common {
constexpr int kBlockSize = 512;
constexpr int num_blocks(int n, int block_size = kBlockSize) {
  return (n + block_size - 1) / block_size;
}
} // namespace cuda_common

namespace kernels {

typedef __nv_bfloat16 floatX;

#define GELU_SCALING_FACTOR 0.7978845608028654f // sqrt(2 / pi)

OVERLAP_KERNEL(partition(N) offset(N)
               extent(out, inp: N)
               copyin(inp[lo:hi]) copyout(out[lo:hi])
               launch(grid: cuda_common::num_blocks(len), block: cuda_common::kBlockSize)
               tune(N = 16777216))
__global__ void gelu_forward_kernel(floatX *__restrict__ out, const floatX *__restrict__ inp,
                                    int N) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N)
    return;
  const float x = __bfloat162float(inp[i]);
  const float cube = 0.044715f * x * x * x;
  out[i] = __float2bfloat16(0.5f * x * (1.0f + tanhf(GELU_SCALING_FACTOR * (x + cube))));
}

} // namespace kernels
} // namespace llm
