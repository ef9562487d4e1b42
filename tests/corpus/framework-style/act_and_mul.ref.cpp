// CPU reference of act_and_mul.cu (vllm::act_and_mul_kernel instantiated as silu_and_mul_float
// and mul_and_silu_half). The same float expression x / (1 + exp(-x)) with glibc's expf where the
// GPU has CUDA's (up to 2 ulp):
// - float: SiLU(x) * y differs by a few ulp at most: relative tolerance 1e-5.
// - half: SiLU rounds to half (__float2half, as the kernel's (T) cast), and the half product
//   rounds the exact float product of two halves once, as __hmul does; a few float ulp in SiLU can
//   move it across a half rounding boundary, one half ulp (<= 2^-10 relative; the results are
//   below 1, where the check is absolute), and the product's rounding can add one: 4e-3.
// Random inputs (±[0.25, 1)) are valid for both; 1 + exp(-x) cannot cancel.
#include "CorpusCase.h"

#include <cuda_fp16.h>

#include <cmath>
#include <cstdint>

namespace {

using overlap::corpus::arg;
using overlap::corpus::CallArgs;

float silu(float x) {
  return x / (1.0f + std::exp(-x));
}

// Entry point: silu_and_mul_float(float* out, const float* input, int d, int64_t num_tokens).
void silu_and_mul_float(CallArgs args) {
  float* out = arg<float*>(args, 0);
  const float* input = arg<const float*>(args, 1);
  const std::int64_t d = arg<int>(args, 2);
  const std::int64_t num_tokens = arg<std::int64_t>(args, 3);
  for (std::int64_t t = 0; t < num_tokens; ++t)
    for (std::int64_t i = 0; i < d; ++i)
      out[t * d + i] = silu(input[t * 2 * d + i]) * input[t * 2 * d + d + i];
}

// Entry point: mul_and_silu_half(__half* out, const __half* input, int d, int64_t num_tokens).
void mul_and_silu_half(CallArgs args) {
  __half* out = arg<__half*>(args, 0);
  const __half* input = arg<const __half*>(args, 1);
  const std::int64_t d = arg<int>(args, 2);
  const std::int64_t num_tokens = arg<std::int64_t>(args, 3);
  for (std::int64_t t = 0; t < num_tokens; ++t)
    for (std::int64_t i = 0; i < d; ++i) {
      const float x = __half2float(input[t * 2 * d + i]);
      const float act = __half2float(__float2half(silu(__half2float(input[t * 2 * d + d + i]))));
      out[t * d + i] = __float2half(x * act);
    }
}

} // namespace

// Tokens: 1, 3, 1009 (prime), 333; d above 1024 (threads stride), 1, odd, and typical widths.
OVERLAP_CORPUS_CASE(silu_and_mul_float, "vllm::silu_and_mul_float",
                    {{{"num_tokens", 1}, {"d", 11008}},
                     {{"num_tokens", 3}, {"d", 1}},
                     {{"num_tokens", 1009}, {"d", 127}},
                     {{"num_tokens", 333}, {"d", 1536}}},
                    {{"num_tokens", 2048}, {"d", 4096}}, // 64 MiB in, 32 MiB out
                    1e-5, silu_and_mul_float, nullptr);

OVERLAP_CORPUS_CASE(mul_and_silu_half, "vllm::mul_and_silu_half",
                    {{{"num_tokens", 1}, {"d", 11008}},
                     {{"num_tokens", 3}, {"d", 1}},
                     {{"num_tokens", 1009}, {"d", 127}},
                     {{"num_tokens", 333}, {"d", 1536}}},
                    {{"num_tokens", 4096}, {"d", 4096}}, // 64 MiB in, 32 MiB out
                    4e-3, mul_and_silu_half, nullptr);
