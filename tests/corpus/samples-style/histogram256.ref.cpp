// CPU reference of histogram256.cu (histogram256Kernel): the counts of the four bytes of every
// word, added to the histogram's previous contents (reduce(+) starts from what the host holds).
// Unsigned integer sums are exact and order-free: bit for bit.
#include "CorpusCase.h"

namespace {

using overlap::corpus::arg;
using overlap::corpus::CallArgs;

// Entry point: histogram256Kernel(unsigned* d_Histogram, const unsigned* d_Data, unsigned
// dataCount).
void reference(CallArgs args) {
  unsigned int* hist = arg<unsigned int*>(args, 0);
  const unsigned int* data = arg<const unsigned int*>(args, 1);
  const unsigned int count = arg<unsigned int>(args, 2);
  for (unsigned int i = 0; i < count; ++i) {
    const unsigned int word = data[i];
    ++hist[word & 0xFFu];
    ++hist[(word >> 8) & 0xFFu];
    ++hist[(word >> 16) & 0xFFu];
    ++hist[word >> 24];
  }
}

} // namespace

OVERLAP_CORPUS_CASE(
    histogram256Kernel, "histogram256Kernel",
    {{{"dataCount", 1}}, {{"dataCount", 3}}, {{"dataCount", 1009}}, {{"dataCount", 524287}}},
    {{"dataCount", 16777216}}, // 64 MiB of bytes
    0.0, reference, nullptr);
