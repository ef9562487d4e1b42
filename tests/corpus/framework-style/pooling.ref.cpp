// CPU reference of pooling.cu (caffe::MaxPoolForward<float>): the same window scan in the same
// order (rows, then columns; the first maximum wins), comparisons and copies only: bit for bit.
// The harness passes both mask arrays: the kernel writes `mask` and leaves `top_mask` as it was.
// The calls size the pooled output as Caffe's PoolingLayer::Reshape does.
#include "CorpusCase.h"

#include <algorithm>
#include <cfloat>

namespace {

using overlap::corpus::arg;
using overlap::corpus::CallArgs;
using overlap::corpus::Scalars;

// Entry point: MaxPoolForward_float(int nthreads, const float* bottom_data, int num, int channels,
// int height, int width, int pooled_height, int pooled_width, int kernel_h, int kernel_w,
// int stride_h, int stride_w, int pad_h, int pad_w, float* top_data, int* mask, float* top_mask).
void reference(CallArgs args) {
  const float* bottom = arg<const float*>(args, 1);
  const int num = arg<int>(args, 2), channels = arg<int>(args, 3);
  const int height = arg<int>(args, 4), width = arg<int>(args, 5);
  const int pooled_height = arg<int>(args, 6), pooled_width = arg<int>(args, 7);
  const int kernel_h = arg<int>(args, 8), kernel_w = arg<int>(args, 9);
  const int stride_h = arg<int>(args, 10), stride_w = arg<int>(args, 11);
  const int pad_h = arg<int>(args, 12), pad_w = arg<int>(args, 13);
  float* top = arg<float*>(args, 14);
  int* mask = arg<int*>(args, 15);
  for (long long plane = 0; plane < static_cast<long long>(num) * channels; ++plane) {
    const float* slice = bottom + plane * height * width;
    for (int ph = 0; ph < pooled_height; ++ph)
      for (int pw = 0; pw < pooled_width; ++pw) {
        int hstart = ph * stride_h - pad_h;
        int wstart = pw * stride_w - pad_w;
        const int hend = std::min(hstart + kernel_h, height);
        const int wend = std::min(wstart + kernel_w, width);
        hstart = std::max(hstart, 0);
        wstart = std::max(wstart, 0);
        float maxval = -FLT_MAX;
        int maxidx = -1;
        for (int h = hstart; h < hend; ++h)
          for (int w = wstart; w < wend; ++w)
            if (slice[h * width + w] > maxval) {
              maxidx = h * width + w;
              maxval = slice[maxidx];
            }
        const long long out = (plane * pooled_height + ph) * pooled_width + pw;
        top[out] = maxval;
        mask[out] = maxidx;
      }
  }
}

// One call: Caffe's pooled sizes (ceil mode, the last window starting inside the padded image).
Scalars call(int num, int channels, int height, int width, int kernel_h, int kernel_w, int stride_h,
             int stride_w, int pad_h, int pad_w) {
  int pooled_height = (height + 2 * pad_h - kernel_h + stride_h - 1) / stride_h + 1;
  int pooled_width = (width + 2 * pad_w - kernel_w + stride_w - 1) / stride_w + 1;
  if ((pooled_height - 1) * stride_h >= height + pad_h)
    --pooled_height;
  if ((pooled_width - 1) * stride_w >= width + pad_w)
    --pooled_width;
  return {{"nthreads", static_cast<double>(num) * channels * pooled_height * pooled_width},
          {"num", num},
          {"channels", channels},
          {"height", height},
          {"width", width},
          {"pooled_height", pooled_height},
          {"pooled_width", pooled_width},
          {"kernel_h", kernel_h},
          {"kernel_w", kernel_w},
          {"stride_h", stride_h},
          {"stride_w", stride_w},
          {"pad_h", pad_h},
          {"pad_w", pad_w}};
}

} // namespace

// Planes (num * channels): 1, 3, 1009 (prime), 385 and 14; padded, unpadded, overlapping and
// non-square windows. The large call: 2048 planes of 64 x 64 (32 MiB in, 3 x 8.5 MiB out).
OVERLAP_CORPUS_CASE(MaxPoolForward_float, "caffe::MaxPoolForward_float",
                    {call(1, 1, 5, 7, 3, 3, 2, 2, 1, 1), call(3, 1, 4, 4, 2, 2, 2, 2, 0, 0),
                     call(1, 1009, 3, 3, 3, 3, 1, 1, 1, 1), call(5, 77, 13, 11, 3, 3, 2, 2, 0, 0),
                     call(2, 7, 9, 17, 2, 4, 3, 2, 1, 0)},
                    call(32, 64, 64, 64, 3, 3, 2, 2, 1, 1), 0.0, reference, nullptr);
