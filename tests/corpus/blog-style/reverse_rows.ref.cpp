// CPU reference of reverse_rows.cu (dynamicReverseRows): every row reversed. Bit for bit.
#include "CorpusCase.h"

#include <algorithm>

namespace {

using overlap::corpus::arg;
using overlap::corpus::CallArgs;

// Entry point: dynamicReverseRows(int* d, int cols, int rows).
void reference(CallArgs args) {
  int* d = arg<int*>(args, 0);
  const int cols = arg<int>(args, 1);
  const int rows = arg<int>(args, 2);
  for (long long r = 0; r < rows; ++r)
    std::reverse(d + r * cols, d + (r + 1) * cols);
}

} // namespace

OVERLAP_CORPUS_CASE(dynamicReverseRows, "dynamicReverseRows",
                    {{{"rows", 1}, {"cols", 64}},
                     {{"rows", 3}, {"cols", 1}},
                     {{"rows", 1009}, {"cols", 257}},
                     {{"rows", 4097}, {"cols", 12000}}},
                    {{"rows", 16384}, {"cols", 1024}}, // 64 MiB in and out
                    0.0, reference, nullptr);
