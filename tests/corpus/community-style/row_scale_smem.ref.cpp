// CPU reference of row_scale_smem.cu: each row divided by its largest magnitude. The maximum is
// exact in any order and the division correctly rounded on both sides, so the results match bit
// for bit.
#include "CorpusCase.h"

#include <algorithm>
#include <cmath>

namespace {

using overlap::corpus::arg;
using overlap::corpus::CallArgs;

// Entry point: row_scale_smem(float* out, const float* inp, int C, int rows).
void reference(CallArgs args) {
  float* out = arg<float*>(args, 0);
  const float* inp = arg<const float*>(args, 1);
  const int C = arg<int>(args, 2);
  const int rows = arg<int>(args, 3);
  for (long long r = 0; r < rows; ++r) {
    const float* x = inp + r * C;
    float amax = 0.0f;
    for (int i = 0; i < C; ++i)
      amax = std::max(amax, std::fabs(x[i]));
    for (int i = 0; i < C; ++i)
      out[r * C + i] = x[i] / amax;
  }
}

} // namespace

// C = 12289 is one float over the 48 KiB a kernel may use without opting in.
OVERLAP_CORPUS_CASE(row_scale_smem, "row_scale_smem",
                    {{{"rows", 1}, {"C", 12289}},
                     {{"rows", 3}, {"C", 1}},
                     {{"rows", 1009}, {"C", 300}},
                     {{"rows", 5}, {"C", 16384}}},
                    {{"rows", 1024}, {"C", 16384}}, // 64 MiB in and out
                    0, reference, nullptr);
