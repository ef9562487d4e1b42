// CPU reference of vector_add.cu (vectorAdd): one float addition per element, bit for bit.
#include "CorpusCase.h"

namespace {

using overlap::corpus::arg;
using overlap::corpus::CallArgs;

// Entry point: vectorAdd(const float* A, const float* B, float* C, int numElements).
void reference(CallArgs args) {
  const float* A = arg<const float*>(args, 0);
  const float* B = arg<const float*>(args, 1);
  float* C = arg<float*>(args, 2);
  const int n = arg<int>(args, 3);
  for (int i = 0; i < n; ++i)
    C[i] = A[i] + B[i];
}

} // namespace

OVERLAP_CORPUS_CASE(vectorAdd, "vectorAdd",
                    {{{"numElements", 1}},
                     {{"numElements", 3}},
                     {{"numElements", 1009}},
                     {{"numElements", 250001}}},
                    {{"numElements", 8388608}}, // 3 x 32 MiB
                    0.0, reference, nullptr);
