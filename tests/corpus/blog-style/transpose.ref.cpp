// CPU reference of transpose.cu (transposeSlices): out[s][x][y] = in[s][y][x]. Copies only: bit
// for bit.
#include "CorpusCase.h"

namespace {

using overlap::corpus::arg;
using overlap::corpus::CallArgs;

// Entry point: transposeSlices(float* odata, const float* idata, int width, int height,
// int nslices).
void reference(CallArgs args) {
  float* out = arg<float*>(args, 0);
  const float* in = arg<const float*>(args, 1);
  const long long width = arg<int>(args, 2), height = arg<int>(args, 3);
  const int nslices = arg<int>(args, 4);
  const long long plane = width * height;
  for (int s = 0; s < nslices; ++s)
    for (long long y = 0; y < height; ++y)
      for (long long x = 0; x < width; ++x)
        out[s * plane + x * height + y] = in[s * plane + y * width + x];
}

} // namespace

OVERLAP_CORPUS_CASE(transposeSlices, "transposeSlices",
                    {{{"nslices", 1}, {"width", 1}, {"height", 1}},
                     {{"nslices", 3}, {"width", 100}, {"height", 37}},
                     {{"nslices", 1009}, {"width", 33}, {"height", 31}},
                     {{"nslices", 7}, {"width", 1025}, {"height", 999}}},
                    {{"nslices", 16}, {"width", 1024}, {"height", 1024}}, // 2 x 64 MiB
                    0.0, reference, nullptr);
