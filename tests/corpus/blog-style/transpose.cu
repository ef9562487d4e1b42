// Transpose of every width x height slice of a stack of nslices slices (a volume's xy-planes),
// through a 32x33 shared-memory tile so that both the loads and the stores are coalesced and the
// tile's column reads have no bank conflicts; each 32x8 thread block moves a 32x32 tile.
//
// Modeled on: NVIDIA developer blog, "An Efficient Matrix Transpose in CUDA C/C++",
// NVIDIA-developer-blog/code-samples series/cuda-cpp/transpose/transpose.cu
// (transposeNoBankConflicts: TILE_DIM 32, BLOCK_ROWS 8, tile[TILE_DIM][TILE_DIM + 1]), and the
// same kernel in cuda-samples Samples/6_Performance/transpose/transpose.cu. The published kernel
// transposes one square matrix whose size is a multiple of 32; this one takes any width and
// height and a third grid dimension over slices. Written anew for this corpus.
//
// Exercises: matrix transpose via shared tiles (an output whose elements come from another
// row/column of the input, so a chunk must hold whole slices); a 3-D grid whose z extent is the
// chunk; __restrict__; the file's macros in launch.
#include <overlap/annotate.h>

#define TILE_DIM 32
#define BLOCK_ROWS 8

OVERLAP_KERNEL(partition(nslices) offset(nslices)
               extent(odata, idata: nslices * width * height)
               copyin(idata[lo * width * height : hi * width * height])
               copyout(odata[lo * width * height : hi * width * height])
               launch(grid: (ceil_div(width, TILE_DIM), ceil_div(height, TILE_DIM), len),
                      block: (TILE_DIM, BLOCK_ROWS))
               tune(width = 1024, height = 1024, nslices = 16))
__global__ void transposeSlices(float *__restrict__ odata, const float *__restrict__ idata,
                                int width, int height, int nslices) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];

  const int slice = blockIdx.z;
  if (slice >= nslices) // uniform over the block
    return;
  const long long plane = (long long)width * height;
  const float *in = idata + slice * plane;
  float *out = odata + slice * plane;

  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < width && y + j < height)
      tile[threadIdx.y + j][threadIdx.x] = in[(long long)(y + j) * width + x];
  __syncthreads();

  // The output slice is height wide and width tall: swap the block's coordinates.
  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < height && y + j < width)
      out[(long long)(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}
