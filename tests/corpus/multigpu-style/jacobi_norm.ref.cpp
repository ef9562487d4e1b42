// CPU reference of jacobi_norm.cu (jacobi_norm_kernel<32, 8>). a_new as in jacobi.cu (bit for
// bit). *l2_norm: its previous value plus the sum of the squared updates when calculate_norm;
// the GPU adds block sums in an order that depends on the chunking and the atomics, so the
// reference sums in double and the case's tolerance is relative 1e-4 (applied to a_new too, where
// it is not needed: the Case has one tolerance).
#include "CorpusCase.h"

namespace {

using overlap::corpus::arg;
using overlap::corpus::CallArgs;

// Entry point: jacobi_norm_kernel_32_8(float* a_new, const float* a, float* l2_norm,
// int iy_start, int iy_end, int nx, bool calculate_norm, int ny).
void reference(CallArgs args) {
  float* a_new = arg<float*>(args, 0);
  const float* a = arg<const float*>(args, 1);
  float* l2_norm = arg<float*>(args, 2);
  const int iy_start = arg<int>(args, 3), iy_end = arg<int>(args, 4), nx = arg<int>(args, 5);
  const bool calculate_norm = arg<bool>(args, 6);
  double norm = *l2_norm;
  for (int iy = iy_start; iy < iy_end; ++iy)
    for (int ix = 1; ix < nx - 1; ++ix) {
      const float updated =
          static_cast<float>(0.25 * (a[iy * nx + ix + 1] + a[iy * nx + ix - 1] +
                                     a[(iy + 1) * nx + ix] + a[(iy - 1) * nx + ix]));
      a_new[iy * nx + ix] = updated;
      const float update = updated - a[iy * nx + ix];
      norm += static_cast<double>(update * update);
    }
  if (calculate_norm)
    *l2_norm = static_cast<float>(norm);
}

} // namespace

OVERLAP_CORPUS_CASE(
    jacobi_norm_kernel_32_8, "jacobi_norm_kernel_32_8",
    {{{"ny", 3}, {"iy_start", 1}, {"iy_end", 2}, {"nx", 4096}, {"calculate_norm", 1}},
     {{"ny", 5}, {"iy_start", 1}, {"iy_end", 4}, {"nx", 3}, {"calculate_norm", 1}},
     {{"ny", 1100}, {"iy_start", 17}, {"iy_end", 1026}, {"nx", 1001}, {"calculate_norm", 1}},
     {{"ny", 2047}, {"iy_start", 1}, {"iy_end", 2046}, {"nx", 777}, {"calculate_norm", 1}},
     {{"ny", 1100}, {"iy_start", 17}, {"iy_end", 1026}, {"nx", 1001}, {"calculate_norm", 0}}},
    {{"ny", 4096}, {"iy_start", 1}, {"iy_end", 4095}, {"nx", 4096}, {"calculate_norm", 1}}, 1e-4,
    reference, nullptr);
