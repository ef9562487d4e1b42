// CPU reference of softmax.cu (llm::kernels::softmax_forward_kernel): the block of 256 threads
// simulated in the kernel's order (strided per-thread sums, the xor-butterfly of each warp as lane
// 0 computes it, the per-warp sums in warp order), so only expf differs: CUDA's expf has up to
// 2 ulp of error, glibc's is correctly rounded in most cases. Relative tolerance 1e-5.
#include "CorpusCase.h"

#include <algorithm>
#include <cmath>

namespace {

using overlap::corpus::arg;
using overlap::corpus::CallArgs;

constexpr int kThreads = 256; // the annotation's block
constexpr int kWarps = kThreads / 32;

// Lane 0's result of the xor butterfly over one warp's 32 values.
template <class Op> float butterfly_lane0(const float* values, Op op) {
  float v[32];
  std::copy(values, values + 32, v);
  for (int offset = 16; offset > 0; offset /= 2) {
    float next[32];
    for (int l = 0; l < 32; ++l)
      next[l] = op(v[l], v[l ^ offset]);
    std::copy(next, next + 32, v);
  }
  return v[0];
}

// Entry point: softmax_forward_kernel(float* out, const float* inp, int C, int rows).
void reference(CallArgs args) {
  float* out = arg<float*>(args, 0);
  const float* inp = arg<const float*>(args, 1);
  const int C = arg<int>(args, 2);
  const int rows = arg<int>(args, 3);
  auto fmax_op = [](float a, float b) { return std::fmax(a, b); };
  auto add_op = [](float a, float b) { return a + b; };
  for (long long r = 0; r < rows; ++r) {
    const float* x = inp + r * C;
    float* y = out + r * C;
    float part[kThreads], warpResult[kWarps];

    for (int t = 0; t < kThreads; ++t) {
      part[t] = -INFINITY;
      for (int i = t; i < C; i += kThreads)
        part[t] = std::fmax(part[t], x[i]);
    }
    for (int w = 0; w < kWarps; ++w)
      warpResult[w] = butterfly_lane0(part + 32 * w, fmax_op);
    float maxval = warpResult[0];
    for (int w = 1; w < kWarps; ++w)
      maxval = std::fmax(maxval, warpResult[w]);

    for (int t = 0; t < kThreads; ++t) {
      part[t] = 0.0f;
      for (int i = t; i < C; i += kThreads) {
        const float e = std::exp(x[i] - maxval);
        y[i] = e;
        part[t] += e;
      }
    }
    for (int w = 0; w < kWarps; ++w)
      warpResult[w] = butterfly_lane0(part + 32 * w, add_op);
    float sum = warpResult[0];
    for (int w = 1; w < kWarps; ++w)
      sum += warpResult[w];

    const float norm = 1.0f / sum;
    for (int i = 0; i < C; ++i)
      y[i] *= norm;
  }
}

} // namespace

OVERLAP_CORPUS_CASE(softmax_forward_kernel, "llm::kernels::softmax_forward_kernel",
                    {{{"rows", 1}, {"C", 50257}},
                     {{"rows", 3}, {"C", 1}},
                     {{"rows", 1009}, {"C", 300}},
                     {{"rows", 4097}, {"C", 768}}},
                    {{"rows", 8192}, {"C", 1024}}, // 32 MiB in and out
                    1e-5, reference, nullptr);
