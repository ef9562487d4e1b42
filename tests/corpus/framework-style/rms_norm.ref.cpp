// CPU reference of rms_norm.cu (rms_norm_f32<WARP_SIZE>, rms_norm_f32<1024>): the block
// simulated in the kernel's order (each thread's strided sum of squares, contracted to fmaf as
// nvcc does; the xor butterfly of each warp, in which every lane ends with the same sum; for 1024
// threads the 32 warp sums through the butterfly again), then the same division. Only rsqrtf
// (up to 2 ulp) differs from 1 / sqrtf: relative tolerance 1e-5. Squares cannot cancel.
#include "CorpusCase.h"

#include <cmath>
#include <cstdint>
#include <vector>

namespace {

using overlap::corpus::arg;
using overlap::corpus::CallArgs;

// Every lane's result of the xor butterfly over one warp's 32 values.
float butterfly(const float* values) {
  float v[32];
  for (int l = 0; l < 32; ++l)
    v[l] = values[l];
  for (int offset = 16; offset > 0; offset >>= 1) {
    float next[32];
    for (int l = 0; l < 32; ++l)
      next[l] = v[l] + v[l ^ offset];
    for (int l = 0; l < 32; ++l)
      v[l] = next[l];
  }
  return v[0];
}

// Entry point: rms_norm_f32_warp / _1024(const float* x, float* dst, int ncols,
// int64_t stride_row, float eps, int64_t nrows).
template <int kBlock> void reference(CallArgs args) {
  const float* x = arg<const float*>(args, 0);
  float* dst = arg<float*>(args, 1);
  const int ncols = arg<int>(args, 2);
  const std::int64_t stride_row = arg<std::int64_t>(args, 3);
  const float eps = arg<float>(args, 4);
  const std::int64_t nrows = arg<std::int64_t>(args, 5);
  std::vector<float> part(kBlock);
  for (std::int64_t row = 0; row < nrows; ++row) {
    const float* in = x + row * stride_row;
    float* out = dst + row * ncols;
    for (int t = 0; t < kBlock; ++t) {
      float tmp = 0.0f;
      for (int col = t; col < ncols; col += kBlock)
        tmp = std::fma(in[col], in[col], tmp);
      part[static_cast<std::size_t>(t)] = tmp;
    }
    float sum;
    if (kBlock == 32) {
      sum = butterfly(part.data());
    } else {
      float warps[32];
      for (int w = 0; w < 32; ++w)
        warps[w] = butterfly(part.data() + 32 * w);
      sum = butterfly(warps);
    }
    const float mean = sum / static_cast<float>(ncols);
    const float scale = 1.0f / std::sqrt(mean + eps);
    for (int col = 0; col < ncols; ++col)
      out[col] = scale * in[col];
  }
}

} // namespace

// Rows: 1, 3, 1009 (prime), 333; row lengths below, at and above the block, padded strides.
// The large call: 16384 rows of 1024 floats (64 MiB in and out).
OVERLAP_CORPUS_CASE(rms_norm_f32_warp, "rms_norm_f32_warp",
                    {{{"nrows", 1}, {"ncols", 4096}, {"stride_row", 4096}, {"eps", 1e-6}},
                     {{"nrows", 3}, {"ncols", 1}, {"stride_row", 3}, {"eps", 1e-5}},
                     {{"nrows", 1009}, {"ncols", 33}, {"stride_row", 40}, {"eps", 1e-6}},
                     {{"nrows", 333}, {"ncols", 768}, {"stride_row", 1000}, {"eps", 1e-5}}},
                    {{"nrows", 16384}, {"ncols", 1024}, {"stride_row", 1024}, {"eps", 1e-6}}, 1e-5,
                    reference<32>, nullptr);

OVERLAP_CORPUS_CASE(rms_norm_f32_1024, "rms_norm_f32_1024",
                    {{{"nrows", 1}, {"ncols", 5120}, {"stride_row", 5123}, {"eps", 1e-6}},
                     {{"nrows", 3}, {"ncols", 7}, {"stride_row", 7}, {"eps", 1e-5}},
                     {{"nrows", 1009}, {"ncols", 1025}, {"stride_row", 1025}, {"eps", 1e-6}},
                     {{"nrows", 333}, {"ncols", 4096}, {"stride_row", 4160}, {"eps", 1e-5}}},
                    {{"nrows", 16384}, {"ncols", 1024}, {"stride_row", 1024}, {"eps", 1e-6}}, 1e-5,
                    reference<1024>, nullptr);
