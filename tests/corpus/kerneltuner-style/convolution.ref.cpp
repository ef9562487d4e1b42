// CPU reference of kerneltuner-style/convolution.cu (convolution_kernel): the 225 products summed
// in the kernel's order (filter row by row). The GPU contracts sum += a * b into fmaf, this
// reference does not: each of the 225 roundings may differ, relative tolerance 1e-5. prepare
// makes the image and the filter non-negative (intensities, a smoothing filter) so that the sums
// cannot cancel and a per-element relative check holds.
#include "CorpusCase.h"

#include <cstdint>
#include <random>

namespace {

using overlap::corpus::arg;
using overlap::corpus::CallArgs;

constexpr int kFilter = 15;

// Entry point: convolution_kernel(float* output, const float* input, const float* filter,
// int image_width, int image_height).
void reference(CallArgs args) {
  float* output = arg<float*>(args, 0);
  const float* input = arg<const float*>(args, 1);
  const float* filter = arg<const float*>(args, 2);
  const int w = arg<int>(args, 3), h = arg<int>(args, 4);
  const long long input_width = w + kFilter - 1;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      float sum = 0.0f;
      for (int i = 0; i < kFilter; ++i)
        for (int j = 0; j < kFilter; ++j)
          sum += input[(y + i) * input_width + x + j] * filter[i * kFilter + j];
      output[static_cast<long long>(y) * w + x] = sum;
    }
}

void prepare(CallArgs args, std::uint64_t seed) {
  float* input = arg<float*>(args, 1);
  float* filter = arg<float*>(args, 2);
  const long long w = arg<int>(args, 3), h = arg<int>(args, 4);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  for (long long i = 0; i < (h + kFilter - 1) * (w + kFilter - 1); ++i)
    input[i] = unit(rng);
  for (int i = 0; i < kFilter * kFilter; ++i)
    filter[i] = unit(rng);
}

} // namespace

OVERLAP_CORPUS_CASE(convolution_kernel, "convolution_kernel",
                    {{{"image_height", 1}, {"image_width", 100}},
                     {{"image_height", 3}, {"image_width", 1}},
                     {{"image_height", 1009}, {"image_width", 200}},
                     {{"image_height", 333}, {"image_width", 1001}}},
                    {{"image_height", 2048}, {"image_width", 2048}}, // 16 MiB in, 16 MiB out
                    1e-5, reference, prepare);
