// CPU reference of gelu.cu (llm::kernels::gelu_forward_kernel): the same float expression, then
// rounding to bfloat16. CUDA's tanhf and the GPU's fmaf contractions differ from this reference
// by a few float ulp, which can move a result across a bfloat16 rounding boundary: one bfloat16
// ulp is up to 2^-7 relative, so the relative tolerance is 1e-2. prepare keeps inputs in [-3, 3]
// (random bytes are NaN or huge), where 1 + tanh(...) stays above 1e-3 and cannot cancel to a
// few ulp.
#include "CorpusCase.h"

#include <cuda_bf16.h>

#include <cmath>
#include <cstdint>
#include <random>

namespace {

using overlap::corpus::arg;
using overlap::corpus::CallArgs;

// Entry point: gelu_forward_kernel(__nv_bfloat16* out, const __nv_bfloat16* inp, int N).
void reference(CallArgs args) {
  __nv_bfloat16* out = arg<__nv_bfloat16*>(args, 0);
  const __nv_bfloat16* inp = arg<const __nv_bfloat16*>(args, 1);
  const int n = arg<int>(args, 2);
  for (int i = 0; i < n; ++i) {
    const float x = __bfloat162float(inp[i]);
    const float cube = 0.044715f * x * x * x;
    out[i] = __float2bfloat16(0.5f * x * (1.0f + std::tanh(0.7978845608028654f * (x + cube))));
  }
}

void prepare(CallArgs args, std::uint64_t seed) {
  __nv_bfloat16* inp = arg<__nv_bfloat16*>(args, 1);
  const int n = arg<int>(args, 2);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> value(-3.0f, 3.0f);
  for (int i = 0; i < n; ++i)
    inp[i] = __float2bfloat16(value(rng));
}

} // namespace

OVERLAP_CORPUS_CASE(gelu_forward_kernel, "llm::kernels::gelu_forward_kernel",
                    {{{"N", 1}}, {{"N", 3}}, {{"N", 1009}}, {{"N", 786431}}},
                    {{"N", 16777216}}, // 32 MiB in and out
                    1e-2, reference, prepare);
