// 2-D convolution of an image with a 15x15 filter, "valid" form: the input is the image with a
// border of filter_width - 1 columns and filter_height - 1 rows already added at the right and
// the bottom, so output pixel (y, x) reads input rows y .. y + 14 and columns x .. x + 14. Each
// block stages its input tile plus border in shared memory.
//
// Modeled on: Kernel Tuner, examples/cuda/convolution.cu (convolution_kernel over a padded input
// of (image_height + filter_height - 1) x (image_width + filter_width - 1), block_size_x/y and
// filter_width/height macros, a shared-memory input tile; the filter in constant memory there).
// Here the image size is a run-time argument and the filter a plain global array. Written anew
// for this corpus.
//
// Exercises: offset mode with a halo after the chunk only, halo(input: 0, 14 rows); an input
// whose extent is not the output's; a broadcast filter; a 2-D launch with 2-D blocks and a static
// shared-memory tile; the file's macros (filter and block sizes) in every expression.
#include <overlap/annotate.h>

#ifndef block_size_x
#define block_size_x 16
#endif
#ifndef block_size_y
#define block_size_y 16
#endif
#define filter_width 15
#define filter_height 15

OVERLAP_KERNEL(partition(image_height) offset(image_height)
               extent(output: image_height * image_width)
               extent(input: (image_height + filter_height - 1) * (image_width + filter_width - 1))
               extent(filter: filter_height * filter_width)
               copyin(input[lo * (image_width + filter_width - 1) :
                            hi * (image_width + filter_width - 1)], filter)
               halo(input: 0, (filter_height - 1) * (image_width + filter_width - 1))
               copyout(output[lo * image_width : hi * image_width])
               launch(grid: (ceil_div(image_width, block_size_x), ceil_div(len, block_size_y)),
                      block: (block_size_x, block_size_y))
               tune(image_width = 4096, image_height = 4096))
__global__ void convolution_kernel(float *__restrict__ output, const float *__restrict__ input,
                                   const float *__restrict__ filter, int image_width,
                                   int image_height) {
  __shared__ float sh_input[block_size_y + filter_height - 1][block_size_x + filter_width - 1];

  const int input_width = image_width + filter_width - 1;
  const int input_height = image_height + filter_height - 1;
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x0 = blockIdx.x * block_size_x;
  const int y0 = blockIdx.y * block_size_y;

  for (int i = ty; i < block_size_y + filter_height - 1; i += block_size_y)
    for (int j = tx; j < block_size_x + filter_width - 1; j += block_size_x) {
      const int y = y0 + i, x = x0 + j;
      sh_input[i][j] =
          (y < input_height && x < input_width) ? input[(long long)y * input_width + x] : 0.0f;
    }
  __syncthreads();

  const int x = x0 + tx, y = y0 + ty;
  if (x >= image_width || y >= image_height)
    return;
  float sum = 0.0f;
  for (int i = 0; i < filter_height; ++i)
    for (int j = 0; j < filter_width; ++j)
      sum += sh_input[ty + i][tx + j] * filter[i * filter_width + j];
  output[(long long)y * image_width + x] = sum;
}
