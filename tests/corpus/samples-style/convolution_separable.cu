// Separable 17-tap convolution of a single-channel float image: a row pass and a column pass,
// both tiled through shared memory, both reading the filter from one __constant__ array.
//
// convolutionRowsKernel filters along rows (zero outside the row): rows are independent, so a
// chunk is a band of rows. convolutionColumnsKernel filters along columns. It takes d_Src at the
// image's first row inside a buffer that holds KERNEL_RADIUS apron rows above and below the image
// (as a tiled or multi-GPU pipeline leaves them), so it reads rows -KERNEL_RADIUS ..
// imageH - 1 + KERNEL_RADIUS and never zero-pads: the host buffer starts with the apron, its
// section begins KERNEL_RADIUS rows in, and halo() adds the apron rows of each band.
//
// Modeled on: NVIDIA cuda-samples,
// Samples/2_Concepts_and_Techniques/convolutionSeparable/convolutionSeparable.cu
// (convolutionRowsKernel, convolutionColumnsKernel, c_Kernel). Unlike the sample, sizes need not
// be multiples of the tile and the column pass reads an apron instead of zero-padding. Written
// anew for this corpus.
//
// Exercises: a __constant__ array the host sets through the generated setter; offset mode with a
// halo before and after the chunk, the kernel reading negative offsets from its pointer; pitched
// rows (an output the kernel writes only in part, hence copy); 2-D launches; __restrict__; the
// file's macros (KERNEL_RADIUS, tile sizes) in sections, halo, extent and launch.
#include <overlap/annotate.h>

#define KERNEL_RADIUS 8
#define KERNEL_LENGTH (2 * KERNEL_RADIUS + 1)

__constant__ float c_Kernel[KERNEL_LENGTH];

#define ROWS_BLOCKDIM_X 16
#define ROWS_BLOCKDIM_Y 4
#define ROWS_RESULT_STEPS 8
#define ROWS_HALO_STEPS 1 // ROWS_HALO_STEPS * ROWS_BLOCKDIM_X >= KERNEL_RADIUS

#define COLUMNS_BLOCKDIM_X 16
#define COLUMNS_BLOCKDIM_Y 8
#define COLUMNS_RESULT_STEPS 4
#define COLUMNS_HALO_STEPS 1 // COLUMNS_HALO_STEPS * COLUMNS_BLOCKDIM_Y >= KERNEL_RADIUS

// The pitch padding of d_Dst (columns imageW .. pitch - 1) is never written: d_Dst is copy.
OVERLAP_KERNEL(partition(imageH) offset(imageH)
               extent(d_Dst, d_Src: imageH * pitch)
               copyin(d_Src[lo * pitch : hi * pitch])
               copy(d_Dst[lo * pitch : hi * pitch])
               launch(grid: (ceil_div(imageW, ROWS_RESULT_STEPS * ROWS_BLOCKDIM_X),
                             ceil_div(len, ROWS_BLOCKDIM_Y)),
                      block: (ROWS_BLOCKDIM_X, ROWS_BLOCKDIM_Y))
               tune(imageW = 4096, imageH = 4096, pitch = imageW))
__global__ void convolutionRowsKernel(float *__restrict__ d_Dst, const float *__restrict__ d_Src,
                                      int imageW, int imageH, int pitch) {
  __shared__ float s_Data[ROWS_BLOCKDIM_Y]
                         [(ROWS_RESULT_STEPS + 2 * ROWS_HALO_STEPS) * ROWS_BLOCKDIM_X];

  // First column this thread loads: one halo step left of the block's result columns.
  const int baseX =
      (blockIdx.x * ROWS_RESULT_STEPS - ROWS_HALO_STEPS) * ROWS_BLOCKDIM_X + threadIdx.x;
  const int row = blockIdx.y * ROWS_BLOCKDIM_Y + threadIdx.y;
  const bool rowInImage = row < imageH;

#pragma unroll
  for (int step = 0; step < ROWS_RESULT_STEPS + 2 * ROWS_HALO_STEPS; ++step) {
    const int x = baseX + step * ROWS_BLOCKDIM_X;
    s_Data[threadIdx.y][threadIdx.x + step * ROWS_BLOCKDIM_X] =
        (rowInImage && x >= 0 && x < imageW) ? d_Src[(long long)row * pitch + x] : 0.0f;
  }
  __syncthreads();
  if (!rowInImage)
    return;

#pragma unroll
  for (int step = ROWS_HALO_STEPS; step < ROWS_HALO_STEPS + ROWS_RESULT_STEPS; ++step) {
    const int x = baseX + step * ROWS_BLOCKDIM_X;
    if (x >= imageW)
      continue;
    float sum = 0.0f;
#pragma unroll
    for (int j = -KERNEL_RADIUS; j <= KERNEL_RADIUS; ++j)
      sum += c_Kernel[KERNEL_RADIUS - j] *
             s_Data[threadIdx.y][threadIdx.x + step * ROWS_BLOCKDIM_X + j];
    d_Dst[(long long)row * pitch + x] = sum;
  }
}

// d_Src: the buffer the caller passes begins with the KERNEL_RADIUS apron rows; the kernel gets
// it advanced to the band's first image row and reads KERNEL_RADIUS rows either side of the band.
OVERLAP_KERNEL(partition(imageH) offset(imageH)
               extent(d_Dst: imageH * pitch)
               extent(d_Src: (imageH + 2 * KERNEL_RADIUS) * pitch)
               copyin(d_Src[(lo + KERNEL_RADIUS) * pitch : (hi + KERNEL_RADIUS) * pitch])
               halo(d_Src: KERNEL_RADIUS * pitch)
               copy(d_Dst[lo * pitch : hi * pitch])
               launch(grid: (ceil_div(imageW, COLUMNS_BLOCKDIM_X),
                             ceil_div(len, COLUMNS_RESULT_STEPS * COLUMNS_BLOCKDIM_Y)),
                      block: (COLUMNS_BLOCKDIM_X, COLUMNS_BLOCKDIM_Y))
               tune(imageW = 4096, imageH = 4096, pitch = imageW))
__global__ void convolutionColumnsKernel(float *__restrict__ d_Dst,
                                         const float *__restrict__ d_Src, int imageW, int imageH,
                                         int pitch) {
  __shared__ float s_Data[COLUMNS_BLOCKDIM_X]
                         [(COLUMNS_RESULT_STEPS + 2 * COLUMNS_HALO_STEPS) * COLUMNS_BLOCKDIM_Y + 1];

  const int x = blockIdx.x * COLUMNS_BLOCKDIM_X + threadIdx.x;
  // First row this thread loads: one halo step above the block's result rows (may be < 0).
  const int baseY =
      (blockIdx.y * COLUMNS_RESULT_STEPS - COLUMNS_HALO_STEPS) * COLUMNS_BLOCKDIM_Y + threadIdx.y;

#pragma unroll
  for (int step = 0; step < COLUMNS_RESULT_STEPS + 2 * COLUMNS_HALO_STEPS; ++step) {
    const int y = baseY + step * COLUMNS_BLOCKDIM_Y;
    // Rows -KERNEL_RADIUS .. imageH + KERNEL_RADIUS - 1 exist (the apron); nothing beyond.
    const bool inBuffer = x < imageW && y >= -KERNEL_RADIUS && y < imageH + KERNEL_RADIUS;
    s_Data[threadIdx.x][threadIdx.y + step * COLUMNS_BLOCKDIM_Y] =
        inBuffer ? d_Src[(long long)y * pitch + x] : 0.0f;
  }
  __syncthreads();
  if (x >= imageW)
    return;

#pragma unroll
  for (int step = COLUMNS_HALO_STEPS; step < COLUMNS_HALO_STEPS + COLUMNS_RESULT_STEPS; ++step) {
    const int y = baseY + step * COLUMNS_BLOCKDIM_Y;
    if (y >= imageH)
      continue;
    float sum = 0.0f;
#pragma unroll
    for (int j = -KERNEL_RADIUS; j <= KERNEL_RADIUS; ++j)
      sum += c_Kernel[KERNEL_RADIUS - j] *
             s_Data[threadIdx.x][threadIdx.y + step * COLUMNS_BLOCKDIM_Y + j];
    d_Dst[(long long)y * pitch + x] = sum;
  }
}
