// CPU references of convolution_separable.cu (convolutionRowsKernel, convolutionColumnsKernel).
// The sums run over the same taps in the same order as the kernels (j = -8 .. 8, zero taps
// included), but the GPU contracts `sum += c * s` into fmaf and this reference (built with
// -ffp-contract=off) does not: relative tolerance 1e-5 (17 terms, one rounding each differs).
// prepare makes the images non-negative (intensities): with a positive filter the sums cannot
// cancel, so a per-element relative check holds (random values of both signs give outputs near 0
// whose relative error is unbounded).
// The harness stores c_Kernel (below) in the kernel file's __constant__ c_Kernel through the
// generated setter before running either kernel.
#include "CorpusCase.h"
#include "convolution_separable.overlap.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <random>

namespace overlap::corpus {

// Binomial(16, k) / 2^16: a normalized, symmetric 17-tap Gaussian-like filter, exact in float.
extern const float convolution_separable_c_Kernel[17];
const float convolution_separable_c_Kernel[17] = {
    1.0f / 65536,    16.0f / 65536,   120.0f / 65536,   560.0f / 65536,   1820.0f / 65536,
    4368.0f / 65536, 8008.0f / 65536, 11440.0f / 65536, 12870.0f / 65536, 11440.0f / 65536,
    8008.0f / 65536, 4368.0f / 65536, 1820.0f / 65536,  560.0f / 65536,   120.0f / 65536,
    16.0f / 65536,   1.0f / 65536};

} // namespace overlap::corpus

namespace {

using overlap::corpus::arg;
using overlap::corpus::CallArgs;
using overlap::corpus::convolution_separable_c_Kernel;

constexpr int kRadius = 8;

// Entry point: convolutionRowsKernel(float* d_Dst, const float* d_Src, int imageW, int imageH,
// int pitch).
void rows_reference(CallArgs args) {
  float* dst = arg<float*>(args, 0);
  const float* src = arg<const float*>(args, 1);
  const int w = arg<int>(args, 2), h = arg<int>(args, 3), pitch = arg<int>(args, 4);
  for (int y = 0; y < h; ++y) {
    const float* row = src + static_cast<std::ptrdiff_t>(y) * pitch;
    for (int x = 0; x < w; ++x) {
      float sum = 0.0f;
      for (int j = -kRadius; j <= kRadius; ++j) {
        const float s = (x + j >= 0 && x + j < w) ? row[x + j] : 0.0f;
        sum += convolution_separable_c_Kernel[kRadius - j] * s;
      }
      dst[static_cast<std::ptrdiff_t>(y) * pitch + x] = sum;
    }
  }
}

// Entry point: convolutionColumnsKernel(float* d_Dst, const float* d_Src, int imageW,
// int imageH, int pitch). d_Src holds imageH + 16 rows; image row y is buffer row y + 8.
void columns_reference(CallArgs args) {
  float* dst = arg<float*>(args, 0);
  const float* src = arg<const float*>(args, 1);
  const int w = arg<int>(args, 2), h = arg<int>(args, 3), pitch = arg<int>(args, 4);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      float sum = 0.0f;
      for (int j = -kRadius; j <= kRadius; ++j)
        sum += convolution_separable_c_Kernel[kRadius - j] *
               src[static_cast<std::ptrdiff_t>(y + kRadius + j) * pitch + x];
      dst[static_cast<std::ptrdiff_t>(y) * pitch + x] = sum;
    }
}

// Both kernels: d_Src (argument 1) holds intensities in [0, 1). Its extent differs: imageH rows
// for the row pass, imageH + 16 for the column pass.
template <int ExtraRows> void prepare(CallArgs args, std::uint64_t seed) {
  // The filter, in the kernel file's __constant__ c_Kernel, through its generated setter.
  if (!c_Kernel_set(convolution_separable_c_Kernel).ok())
    std::abort();
  float* src = arg<float*>(args, 1);
  const long long count = static_cast<long long>(arg<int>(args, 3) + ExtraRows) * arg<int>(args, 4);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> intensity(0.0f, 1.0f);
  for (long long i = 0; i < count; ++i)
    src[i] = intensity(rng);
}

} // namespace

OVERLAP_CORPUS_CASE(convolutionRowsKernel, "convolutionRowsKernel",
                    {{{"imageH", 1}, {"imageW", 1000}, {"pitch", 1024}},
                     {{"imageH", 3}, {"imageW", 5}, {"pitch", 5}},
                     {{"imageH", 1009}, {"imageW", 1000}, {"pitch", 1024}},
                     {{"imageH", 517}, {"imageW", 777}, {"pitch", 777}}},
                    {{"imageH", 4096}, {"imageW", 4096}, {"pitch", 4096}}, // 2 x 64 MiB
                    1e-5, rows_reference, prepare<0>);

OVERLAP_CORPUS_CASE(convolutionColumnsKernel, "convolutionColumnsKernel",
                    {{{"imageH", 1}, {"imageW", 1000}, {"pitch", 1024}},
                     {{"imageH", 3}, {"imageW", 5}, {"pitch", 5}},
                     {{"imageH", 1009}, {"imageW", 1000}, {"pitch", 1024}},
                     {{"imageH", 517}, {"imageW", 777}, {"pitch", 777}}},
                    {{"imageH", 4096}, {"imageW", 4096}, {"pitch", 4096}}, // 2 x 64 MiB
                    1e-5, columns_reference, prepare<2 * kRadius>);
