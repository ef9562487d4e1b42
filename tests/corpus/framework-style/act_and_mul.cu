// Gated activation of an MLP, vLLM style: input is [num_tokens, 2, d] (gate and up projections
// side by side), out[t, i] = ACT(x) * y with x = input[t, 0, i] and y = input[t, 1, i] (or
// x * ACT(y) when the activation comes second), one block per token of min(d, 1024) threads
// striding over d. The activation is a template argument (a pointer to a __device__ function
// template's instantiation), the scalar type another.
//
// Modeled on: vllm-project/vllm, csrc/activation_kernels.cu (act_and_mul_kernel, compute,
// silu_kernel; the launch with grid(num_tokens), block(std::min(d, 1024))) and csrc/cuda_compat.h
// (VLLM_LDG). Written anew for this corpus.
//
// Exercises: a kernel template with a type, a function-pointer and a bool parameter, instantiated
// with `silu_kernel<float>` and `silu_kernel<half>` as arguments; __half arrays; `__restrict__`;
// __ldg through a macro; int64_t token indices; no token count in the kernel (param(int64_t
// num_tokens), bare `offset`, grid: len); min(d, 1024) as the block.
#include <overlap/annotate.h>

#include <cuda_fp16.h>

#include <cstdint>

#define VLLM_LDG(arg) __ldg(arg)

namespace vllm {

template <typename scalar_t, scalar_t (*ACT_FN)(const scalar_t&), bool act_first>
__device__ __forceinline__ scalar_t compute(const scalar_t& x, const scalar_t& y) {
  return act_first ? ACT_FN(x) * y : x * ACT_FN(y);
}

template <typename T> __device__ __forceinline__ T silu_kernel(const T& x) {
  // x * sigmoid(x)
  return (T)(((float)x) / (1.0f + expf((float)-x)));
}

// clang-format off
OVERLAP_KERNEL(param(int64_t num_tokens) partition(num_tokens) offset
               extent(out: num_tokens * d) extent(input: num_tokens * 2 * d)
               copyin(input[lo * 2 * d : hi * 2 * d]) copyout(out[lo * d : hi * d])
               launch(grid: len, block: min(d, 1024))
               instantiate(silu_and_mul_float: scalar_t = float, ACT_FN = silu_kernel<float>,
                           act_first = true)
               instantiate(mul_and_silu_half: scalar_t = half, ACT_FN = silu_kernel<half>,
                           act_first = false)
               tune(num_tokens = 4096, d = 4096))
// clang-format on
template <typename scalar_t, scalar_t (*ACT_FN)(const scalar_t&), bool act_first>
__global__ void act_and_mul_kernel(scalar_t* __restrict__ out,         // [..., d]
                                   const scalar_t* __restrict__ input, // [..., 2, d]
                                   const int d) {
  const int64_t token_idx = blockIdx.x;
  for (int64_t idx = threadIdx.x; idx < d; idx += blockDim.x) {
    const scalar_t x = VLLM_LDG(&input[token_idx * 2 * d + idx]);
    const scalar_t y = VLLM_LDG(&input[token_idx * 2 * d + d + idx]);
    out[token_idx * d + idx] = compute<scalar_t, ACT_FN, act_first>(x, y);
  }
}

} // namespace vllm
