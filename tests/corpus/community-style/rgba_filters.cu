// Two per-pixel filters of an RGBA image stored as uchar4 (x = R, y = G, z = B, w = A):
// rgba_to_greyscale writes one luma byte per pixel (BT.601 weights in 8-bit fixed point,
// (77 R + 150 G + 29 B + 128) / 256), on a 2-D grid over rows and columns; rgba_to_sepia writes
// an RGBA pixel with the classic sepia matrix (weights in thousandths, clamped to 255, alpha
// kept), on a 1-D grid over pixels.
//
// Modeled on: Udacity CS344 "Intro to Parallel Programming", Problem Sets/Problem Set 1/
// student_func.cu (rgba_to_greyscale(const uchar4* const rgbaImage, unsigned char* const
// greyImage, int numRows, int numCols), 2-D blocks over the image); the published solutions
// weight with .299f/.587f/.114f floats, this file in fixed point as image libraries do. Written
// anew for this corpus.
//
// Exercises: uchar4 element type as input and as output; `T* const` pointer parameters; a 2-D
// launch over rows with the rows partitioned; integer arithmetic only (bit for bit).
#include <overlap/annotate.h>

OVERLAP_KERNEL(partition(numRows) offset(numRows)
               extent(rgbaImage, greyImage: numRows * numCols)
               copyin(rgbaImage[lo * numCols : hi * numCols])
               copyout(greyImage[lo * numCols : hi * numCols])
               launch(grid: (ceil_div(numCols, 32), ceil_div(len, 8)), block: (32, 8))
               tune(numRows = 4096, numCols = 4096))
__global__ void rgba_to_greyscale(const uchar4 *const rgbaImage, unsigned char *const greyImage,
                                  int numRows, int numCols) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= numRows || col >= numCols)
    return;
  const long long index = (long long)row * numCols + col;
  const uchar4 px = rgbaImage[index];
  greyImage[index] = static_cast<unsigned char>((77u * px.x + 150u * px.y + 29u * px.z + 128u) >> 8);
}

OVERLAP_KERNEL(partition(numPixels) offset(numPixels)
               extent(rgbaIn, rgbaOut: numPixels)
               copyin(rgbaIn[lo:hi]) copyout(rgbaOut[lo:hi])
               launch(grid: ceil_div(len, 256), block: 256)
               tune(numPixels = 16777216))
__global__ void rgba_to_sepia(const uchar4 *__restrict__ rgbaIn, uchar4 *__restrict__ rgbaOut,
                              int numPixels) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= numPixels)
    return;
  const uchar4 px = rgbaIn[i];
  const unsigned int r = px.x, g = px.y, b = px.z;
  uchar4 out;
  out.x = static_cast<unsigned char>(min(255u, (393u * r + 769u * g + 189u * b) / 1000u));
  out.y = static_cast<unsigned char>(min(255u, (349u * r + 686u * g + 168u * b) / 1000u));
  out.z = static_cast<unsigned char>(min(255u, (272u * r + 534u * g + 131u * b) / 1000u));
  out.w = px.w;
  rgbaOut[i] = out;
}
