// CPU reference of residual_packed.cu (llmc::residual_forward_kernel): one float addition per
// element, rounded as the GPU rounds it: bit for bit.
#include "CorpusCase.h"

namespace {

using overlap::corpus::arg;
using overlap::corpus::CallArgs;

// Entry point: residual_forward_kernel(float* out, const float* inp1, const float* inp2, int N).
void reference(CallArgs args) {
  float* out = arg<float*>(args, 0);
  const float* inp1 = arg<const float*>(args, 1);
  const float* inp2 = arg<const float*>(args, 2);
  const int n = arg<int>(args, 3);
  for (int i = 0; i < n; ++i)
    out[i] = inp1[i] + inp2[i];
}

} // namespace

// N a multiple of 4 (the kernel's contract): 4, 12, 4 x 1009, 4 x 65537.
OVERLAP_CORPUS_CASE(residual_packed, "llmc::residual_forward_kernel",
                    {{{"N", 4}}, {{"N", 12}}, {{"N", 4036}}, {{"N", 262148}}},
                    {{"N", 16777216}}, // 3 x 64 MiB
                    0.0, reference, nullptr);
