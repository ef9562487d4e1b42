// Max pooling forward over an N x C x H x W blob, Caffe style: one thread per pooled output
// (nthreads = N * C * pooled_height * pooled_width, through CUDA_KERNEL_LOOP), each scanning its
// kernel_h x kernel_w window (stride, zero padding clipped at the plane's edges) of its (n, c)
// plane for the maximum and its position in the plane. The position goes to `mask` (int) or, when
// the layer has a second top, to `top_mask` (Dtype): one of the two is null.
//
// Modeled on: BVLC/caffe, src/caffe/layers/pooling_layer.cu (MaxPoolForward) and
// include/caffe/util/device_alternate.hpp. Written anew for this corpus.
//
// Exercises: chunks over the N * C planes (the kernel recovers n and c from its flat index and
// addresses bottom_data by plane), a length that counts pooled outputs
// (offset(nthreads = len * pooled_height * pooled_width)), `const int` parameters throughout,
// `Dtype* const` parameters, two optional outputs of which the caller passes one (the other stays
// as it was: copy), the file's `const int` block size.
#include <overlap/annotate.h>

#include <cfloat>

#define CUDA_KERNEL_LOOP(i, n)                                                                     \
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += blockDim.x * gridDim.x)

namespace caffe {

const int CAFFE_CUDA_NUM_THREADS = 512;

// clang-format off
OVERLAP_KERNEL(partition(num * channels) offset(nthreads = len * pooled_height * pooled_width)
               extent(bottom_data: num * channels * height * width)
               extent(top_data, mask, top_mask: num * channels * pooled_height * pooled_width)
               copyin(bottom_data[lo * height * width : hi * height * width])
               copyout(top_data[lo * pooled_height * pooled_width :
                                hi * pooled_height * pooled_width],
                       mask[lo * pooled_height * pooled_width : hi * pooled_height * pooled_width])
               copy(top_mask[lo * pooled_height * pooled_width : hi * pooled_height * pooled_width])
               optional(mask, top_mask)
               launch(grid: ceil_div(len * pooled_height * pooled_width, CAFFE_CUDA_NUM_THREADS),
                      block: CAFFE_CUDA_NUM_THREADS)
               instantiate(Dtype = float)
               tune(num = 32, channels = 64, height = 64, width = 64, pooled_height = 33,
                    pooled_width = 33, kernel_h = 3, kernel_w = 3, stride_h = 2, stride_w = 2,
                    pad_h = 1, pad_w = 1, nthreads = num * channels * pooled_height * pooled_width))
// clang-format on
template <typename Dtype>
__global__ void MaxPoolForward(const int nthreads, const Dtype* const bottom_data, const int num,
                               const int channels, const int height, const int width,
                               const int pooled_height, const int pooled_width, const int kernel_h,
                               const int kernel_w, const int stride_h, const int stride_w,
                               const int pad_h, const int pad_w, Dtype* const top_data, int* mask,
                               Dtype* top_mask) {
  CUDA_KERNEL_LOOP(index, nthreads) {
    const int pw = index % pooled_width;
    const int ph = (index / pooled_width) % pooled_height;
    const int c = (index / pooled_width / pooled_height) % channels;
    const int n = index / pooled_width / pooled_height / channels;
    int hstart = ph * stride_h - pad_h;
    int wstart = pw * stride_w - pad_w;
    const int hend = min(hstart + kernel_h, height);
    const int wend = min(wstart + kernel_w, width);
    hstart = max(hstart, 0);
    wstart = max(wstart, 0);
    Dtype maxval = -FLT_MAX;
    int maxidx = -1;
    const Dtype* const bottom_slice = bottom_data + (n * channels + c) * height * width;
    for (int h = hstart; h < hend; ++h) {
      for (int w = wstart; w < wend; ++w) {
        if (bottom_slice[h * width + w] > maxval) {
          maxidx = h * width + w;
          maxval = bottom_slice[maxidx];
        }
      }
    }
    top_data[index] = maxval;
    if (mask) {
      mask[index] = maxidx;
    } else {
      top_mask[index] = maxidx;
    }
  }
}

} // namespace caffe
