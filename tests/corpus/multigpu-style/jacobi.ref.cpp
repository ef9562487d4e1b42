// CPU reference of jacobi.cu (jacobi_kernel): ((east + west) + south) + north in float, then the
// kernel's `0.25 * sum` (double literal: the float sum times 0.25 in double, exact, rounded back
// to float exactly). No product feeds a sum, so nothing to contract: bit for bit. Rows outside
// [iy_start, iy_end) and columns 0 and nx - 1 of a_new keep their contents.
#include "CorpusCase.h"

namespace {

using overlap::corpus::arg;
using overlap::corpus::CallArgs;

// Entry point: jacobi_kernel(float* a_new, const float* a, int iy_start, int iy_end, int nx,
// int ny): partition(iy_start : iy_end) uses the bounds, so they stay caller arguments.
void reference(CallArgs args) {
  float* a_new = arg<float*>(args, 0);
  const float* a = arg<const float*>(args, 1);
  const int iy_start = arg<int>(args, 2), iy_end = arg<int>(args, 3), nx = arg<int>(args, 4);
  for (int iy = iy_start; iy < iy_end; ++iy)
    for (int ix = 1; ix < nx - 1; ++ix) {
      const float east = a[iy * nx + ix + 1];
      const float west = a[iy * nx + ix - 1];
      const float south = a[(iy + 1) * nx + ix];
      const float north = a[(iy - 1) * nx + ix];
      a_new[iy * nx + ix] = static_cast<float>(0.25 * (east + west + south + north));
    }
}

} // namespace

// Bands of 1, 3, 1009 (not starting at row 1) and 2045 rows.
OVERLAP_CORPUS_CASE(jacobi_kernel, "jacobi_kernel",
                    {{{"ny", 3}, {"iy_start", 1}, {"iy_end", 2}, {"nx", 4096}},
                     {{"ny", 5}, {"iy_start", 1}, {"iy_end", 4}, {"nx", 3}},
                     {{"ny", 1100}, {"iy_start", 17}, {"iy_end", 1026}, {"nx", 1001}},
                     {{"ny", 2047}, {"iy_start", 1}, {"iy_end", 2046}, {"nx", 777}}},
                    {{"ny", 4096}, {"iy_start", 1}, {"iy_end", 4095}, {"nx", 4096}}, // 2 x 64 MiB
                    0.0, reference, nullptr);
