// Sepia filter over an RGB image (paper 002 §5.1), one chunk a range of pixels. Integer weights
// in thousandths, clamped to 255, so the CPU reference agrees exactly.
#include <overlap/annotate.h>

OVERLAP_KERNEL(partition(pixels) offset(pixels) extent(rgb, sepia : pixels * 3)
                   copyin(rgb [lo * 3:hi * 3]) copyout(sepia [lo * 3:hi * 3])
                       launch(grid : ceil_div(len, 256), block : 256) tune(pixels = 33554432))
__global__ void sepia(int pixels, const unsigned char* rgb, unsigned char* sepia) {
  const long long p = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (p >= pixels)
    return;
  const unsigned int r = rgb[3 * p], g = rgb[3 * p + 1], b = rgb[3 * p + 2];
  sepia[3 * p] = static_cast<unsigned char>(min(255u, (393u * r + 769u * g + 189u * b) / 1000u));
  sepia[3 * p + 1] =
      static_cast<unsigned char>(min(255u, (349u * r + 686u * g + 168u * b) / 1000u));
  sepia[3 * p + 2] =
      static_cast<unsigned char>(min(255u, (272u * r + 534u * g + 131u * b) / 1000u));
}
