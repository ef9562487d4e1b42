// CPU references of the benchmark applications: the same arithmetic as the kernels in the same
// order (integer math, or one IEEE rounding per float operation; build with -ffp-contract=off), so
// every variant's result must equal them bit for bit.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace bench {

inline void scalar_add(int iterations, std::vector<unsigned int>& values) {
  for (unsigned int& value : values)
    for (int step = 0; step < iterations; ++step)
      value = value * 1664525u + 1013904223u;
}

inline unsigned char luma(unsigned int r, unsigned int g, unsigned int b) {
  return static_cast<unsigned char>((77u * r + 150u * g + 29u * b) >> 8);
}

// 256 bins per frame of `pixels` gray values.
inline std::vector<unsigned int> frameHistograms(int frames, int pixels,
                                                 const std::vector<unsigned char>& gray) {
  std::vector<unsigned int> histograms(static_cast<std::size_t>(frames) * 256, 0u);
  for (long long frame = 0; frame < frames; ++frame)
    for (long long p = 0; p < pixels; ++p)
      ++histograms[frame * 256 + gray[frame * pixels + p]];
  return histograms;
}

inline std::vector<unsigned char> grayscale(const std::vector<unsigned char>& rgb) {
  std::vector<unsigned char> gray(rgb.size() / 3);
  for (std::size_t p = 0; p < gray.size(); ++p)
    gray[p] = luma(rgb[3 * p], rgb[3 * p + 1], rgb[3 * p + 2]);
  return gray;
}

inline std::vector<unsigned char> sepia(const std::vector<unsigned char>& rgb) {
  std::vector<unsigned char> out(rgb.size());
  for (std::size_t p = 0; p < rgb.size() / 3; ++p) {
    const unsigned int r = rgb[3 * p], g = rgb[3 * p + 1], b = rgb[3 * p + 2];
    out[3 * p] =
        static_cast<unsigned char>(std::min(255u, (393u * r + 769u * g + 189u * b) / 1000u));
    out[3 * p + 1] =
        static_cast<unsigned char>(std::min(255u, (349u * r + 686u * g + 168u * b) / 1000u));
    out[3 * p + 2] =
        static_cast<unsigned char>(std::min(255u, (272u * r + 534u * g + 131u * b) / 1000u));
  }
  return out;
}

inline std::vector<float> pop_state(int levels, long long plane, const std::vector<float>& tAll,
                                    const std::vector<float>& sAll) {
  std::vector<float> density(tAll.size());
  for (int k = 0; k < levels; ++k)
    for (long long p = 0; p < plane; ++p) {
      const long long at = k * plane + p;
      const float t = tAll[at];
      const float s = sAll[at];
      const float pressure = static_cast<float>(k) * 10.0f;
      const float thermal = t * (6.793952e-2f + t * -9.095290e-3f);
      const float haline = s * (8.24493e-1f + t * -4.0899e-3f);
      const float compress = pressure * ((4.5e-3f + t * -3.0e-5f) + s * 2.0e-5f);
      density[at] = ((999.842594f + thermal) + haline) + compress;
    }
  return density;
}

} // namespace bench
