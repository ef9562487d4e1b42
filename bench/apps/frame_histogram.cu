// 256-bin histogram of every frame of a video (paper 000 §4.2): one chunk is a range of frames,
// one block counts one frame in shared memory and writes all its bins, so no output needs zeroing
// and every chunk's result is complete on its own.
#include <overlap/annotate.h>

OVERLAP_KERNEL(partition(frames) offset(frames) extent(video : frames* pixels)
                   extent(histograms : frames * 256) copyin(video [lo * pixels:hi * pixels])
                       copyout(histograms [lo * 256:hi * 256]) launch(grid : len, block : 256)
                           tune(frames = 64, pixels = 25344))
__global__ void frame_histogram(int frames, int pixels, const unsigned char* video,
                                unsigned int* histograms) {
  // One thread per bin: the launch's block of 256 threads.
  __shared__ unsigned int bins[256];
  bins[threadIdx.x] = 0;
  __syncthreads();
  const long long frame = blockIdx.x;
  if (frame < frames) {
    const unsigned char* pixel = video + frame * pixels;
    for (int p = threadIdx.x; p < pixels; p += blockDim.x)
      atomicAdd(&bins[pixel[p]], 1u);
  }
  __syncthreads();
  if (frame < frames)
    histograms[frame * 256 + threadIdx.x] = bins[threadIdx.x];
}
