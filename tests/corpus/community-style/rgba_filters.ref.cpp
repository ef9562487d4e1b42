// CPU references of rgba_filters.cu (rgba_to_greyscale, rgba_to_sepia): the same integer
// arithmetic, bit for bit.
#include "CorpusCase.h"

#include <vector_types.h>

#include <algorithm>

namespace {

using overlap::corpus::arg;
using overlap::corpus::CallArgs;

// Entry point: rgba_to_greyscale(const uchar4* rgbaImage, unsigned char* greyImage, int numRows,
// int numCols).
void greyscale_reference(CallArgs args) {
  const uchar4* rgba = arg<const uchar4*>(args, 0);
  unsigned char* grey = arg<unsigned char*>(args, 1);
  const long long pixels = static_cast<long long>(arg<int>(args, 2)) * arg<int>(args, 3);
  for (long long i = 0; i < pixels; ++i)
    grey[i] = static_cast<unsigned char>(
        (77u * rgba[i].x + 150u * rgba[i].y + 29u * rgba[i].z + 128u) >> 8);
}

// Entry point: rgba_to_sepia(const uchar4* rgbaIn, uchar4* rgbaOut, int numPixels).
void sepia_reference(CallArgs args) {
  const uchar4* in = arg<const uchar4*>(args, 0);
  uchar4* out = arg<uchar4*>(args, 1);
  const int pixels = arg<int>(args, 2);
  for (int i = 0; i < pixels; ++i) {
    const unsigned int r = in[i].x, g = in[i].y, b = in[i].z;
    out[i].x = static_cast<unsigned char>(std::min(255u, (393u * r + 769u * g + 189u * b) / 1000u));
    out[i].y = static_cast<unsigned char>(std::min(255u, (349u * r + 686u * g + 168u * b) / 1000u));
    out[i].z = static_cast<unsigned char>(std::min(255u, (272u * r + 534u * g + 131u * b) / 1000u));
    out[i].w = in[i].w;
  }
}

} // namespace

OVERLAP_CORPUS_CASE(rgba_to_greyscale, "rgba_to_greyscale",
                    {{{"numRows", 1}, {"numCols", 1}},
                     {{"numRows", 3}, {"numCols", 641}},
                     {{"numRows", 1009}, {"numCols", 480}},
                     {{"numRows", 1081}, {"numCols", 1919}}},
                    {{"numRows", 4096}, {"numCols", 4096}}, // 64 MiB in, 16 MiB out
                    0.0, greyscale_reference, nullptr);

OVERLAP_CORPUS_CASE(
    rgba_to_sepia, "rgba_to_sepia",
    {{{"numPixels", 1}}, {{"numPixels", 3}}, {{"numPixels", 1009}}, {{"numPixels", 2073601}}},
    {{"numPixels", 16777216}}, // 64 MiB in and out
    0.0, sepia_reference, nullptr);
