// CPU reference of vector_add_vec4.cu (vector_add): one float addition per element,
// bit for bit.
#include "CorpusCase.h"

namespace {

using overlap::corpus::arg;
using overlap::corpus::CallArgs;

// Entry point: vector_add(float* c, const float* a, const float* b, int n).
void reference(CallArgs args) {
  float* c = arg<float*>(args, 0);
  const float* a = arg<const float*>(args, 1);
  const float* b = arg<const float*>(args, 2);
  const int n = arg<int>(args, 3);
  for (int i = 0; i < n; ++i)
    c[i] = a[i] + b[i];
}

} // namespace

// 1 and 3: only the scalar tail; 1009 = 252 float4 and a tail of 1; 250003: a tail of 3.
OVERLAP_CORPUS_CASE(vector_add, "vector_add",
                    {{{"n", 1}}, {{"n", 3}}, {{"n", 1009}}, {{"n", 250003}}, {{"n", 4096}}},
                    {{"n", 16777216}}, // 3 x 64 MiB
                    0.0, reference, nullptr);
