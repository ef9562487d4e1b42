// CPU reference of bounding_box.cu (bounding_box): the previous lower / upper / labels combined
// with every point (reduce(min/max/|) starts from what the host holds). Order-free integer
// operations: bit for bit.
#include "CorpusCase.h"

#include <vector_types.h>

#include <algorithm>

namespace {

using overlap::corpus::arg;
using overlap::corpus::CallArgs;

// Entry point: bounding_box(const int4* points, int n, int* lower, int* upper, unsigned* labels).
void reference(CallArgs args) {
  const int4* points = arg<const int4*>(args, 0);
  const int n = arg<int>(args, 1);
  int* lower = arg<int*>(args, 2);
  int* upper = arg<int*>(args, 3);
  unsigned int* labels = arg<unsigned int*>(args, 4);
  for (int i = 0; i < n; ++i) {
    const int4 p = points[i];
    lower[0] = std::min(lower[0], p.x);
    lower[1] = std::min(lower[1], p.y);
    lower[2] = std::min(lower[2], p.z);
    upper[0] = std::max(upper[0], p.x);
    upper[1] = std::max(upper[1], p.y);
    upper[2] = std::max(upper[2], p.z);
    *labels |= 1u << (p.w & 31);
  }
}

} // namespace

OVERLAP_CORPUS_CASE(bounding_box, "bounding_box",
                    {{{"n", 1}}, {{"n", 3}}, {{"n", 1009}}, {{"n", 99999}}},
                    {{"n", 4194304}}, // 64 MiB
                    0.0, reference, nullptr);
