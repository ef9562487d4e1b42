// Forward 4x4 integer core transform (the H.264/AVC one, Y = Cf X Cf^T) of every 4x4 block of a
// residual image: one thread per block, rows then columns, coefficients written in place of the
// block's samples. The image is processed in 4-row groups; a partial group at the bottom or a
// partial block at the right is left alone (codecs pad frames to whole blocks).
//
// Modeled on: NVIDIA cuda-samples, Samples/2_Concepts_and_Techniques/dct8x8 (the block DCT
// kernels in dct8x8_kernel1.cuh / dct8x8_kernel2.cuh: one transform per 8x8 image block, block
// rows and columns from blockIdx), reduced to the 4x4 integer transform. Written anew for this
// corpus.
//
// Exercises: a kernel that works on groups of 4 rows: chunk boundaries must fall on multiples of
// 4 rows, granule(4); a chunk of fewer than 4 rows launches a grid of 0 blocks in y (nothing to
// do); an output the kernel writes only in part (copy); short input, int output; 2-D launch.
#include <overlap/annotate.h>

__device__ inline void coreTransform4(int &y0, int &y1, int &y2, int &y3, int x0, int x1, int x2,
                                      int x3) {
  const int s03 = x0 + x3, d03 = x0 - x3;
  const int s12 = x1 + x2, d12 = x1 - x2;
  y0 = s03 + s12;
  y1 = 2 * d03 + d12;
  y2 = s03 - s12;
  y3 = d03 - 2 * d12;
}

OVERLAP_KERNEL(partition(height) offset(height) granule(4)
               extent(coeffs, residual: height * width)
               copyin(residual[lo * width : hi * width])
               copy(coeffs[lo * width : hi * width])
               launch(grid: (ceil_div(width / 4, 16), ceil_div(len / 4, 8)), block: (16, 8))
               tune(width = 4096, height = 4096))
__global__ void forwardTransform4x4(int *__restrict__ coeffs, const short *__restrict__ residual,
                                    int width, int height) {
  const int blockCol = blockIdx.x * blockDim.x + threadIdx.x;
  const int blockRow = blockIdx.y * blockDim.y + threadIdx.y; // 4-row group
  if (blockCol >= width / 4 || blockRow >= height / 4)
    return;

  const short *in = residual + (long long)(4 * blockRow) * width + 4 * blockCol;
  int t[4][4];
  // Horizontal pass over the block's four rows.
  for (int r = 0; r < 4; ++r)
    coreTransform4(t[r][0], t[r][1], t[r][2], t[r][3], in[r * width], in[r * width + 1],
                   in[r * width + 2], in[r * width + 3]);
  // Vertical pass over its four columns.
  int *out = coeffs + (long long)(4 * blockRow) * width + 4 * blockCol;
  for (int c = 0; c < 4; ++c) {
    int y0, y1, y2, y3;
    coreTransform4(y0, y1, y2, y3, t[0][c], t[1][c], t[2][c], t[3][c]);
    out[c] = y0;
    out[width + c] = y1;
    out[2 * width + c] = y2;
    out[3 * width + c] = y3;
  }
}
