// RGB frames to grayscale, then the grayscale frame's 256-bin histogram (paper 000 §4.3): two
// outputs per chunk of frames. Integer luma weights (77, 150, 29)/256, so the CPU agrees exactly.
#include <overlap/annotate.h>

OVERLAP_KERNEL(partition(frames) offset(frames) extent(rgb : frames* pixels * 3)
                   extent(gray : frames* pixels) extent(histograms : frames * 256)
                       copyin(rgb [lo * pixels * 3:hi * pixels * 3])
                           copyout(gray [lo * pixels:hi * pixels], histograms [lo * 256:hi * 256])
                               launch(grid : len, block : 1024) tune(frames = 32, pixels = 25344))
__global__ void gray_histogram(int frames, int pixels, const unsigned char* rgb,
                               unsigned char* gray, unsigned int* histograms) {
  // One block per frame, of 1024 threads: a frame's call runs on one SM, and with fewer threads
  // (256, one per bin) its loads' latency bounded a loop of frames (bench/README.md, "Frame loop").
  __shared__ unsigned int bins[256];
  for (int b = threadIdx.x; b < 256; b += blockDim.x)
    bins[b] = 0;
  __syncthreads();
  const long long frame = blockIdx.x;
  if (frame < frames) {
    const unsigned char* in = rgb + frame * pixels * 3;
    unsigned char* out = gray + frame * pixels;
    for (int p = threadIdx.x; p < pixels; p += blockDim.x) {
      const unsigned int luma = (77u * in[3 * p] + 150u * in[3 * p + 1] + 29u * in[3 * p + 2]) >> 8;
      out[p] = static_cast<unsigned char>(luma);
      atomicAdd(&bins[luma], 1u);
    }
  }
  __syncthreads();
  if (frame < frames)
    for (int b = threadIdx.x; b < 256; b += blockDim.x)
      histograms[frame * 256 + b] = bins[b];
}
