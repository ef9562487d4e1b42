// CPU reference of copy_checksum.cu (device_copy_vector4_checksum): the copy, and *checksum XOR
// the mixed words of every element (XOR is order-free): bit for bit.
#include "CorpusCase.h"

#include <vector_types.h>

namespace {

using overlap::corpus::arg;
using overlap::corpus::CallArgs;

unsigned int mixWord(int word) {
  const unsigned int h = static_cast<unsigned int>(word) * 0x9E3779B1u;
  return h ^ (h >> 16);
}

// Entry point: device_copy_vector4_checksum(int4* d_out, const int4* d_in, int n4,
// unsigned* checksum).
void reference(CallArgs args) {
  int4* out = arg<int4*>(args, 0);
  const int4* in = arg<const int4*>(args, 1);
  const int n4 = arg<int>(args, 2);
  unsigned int* checksum = arg<unsigned int*>(args, 3);
  for (int i = 0; i < n4; ++i) {
    out[i] = in[i];
    *checksum ^= mixWord(in[i].x) ^ mixWord(in[i].y) ^ mixWord(in[i].z) ^ mixWord(in[i].w);
  }
}

} // namespace

OVERLAP_CORPUS_CASE(device_copy_vector4_checksum, "device_copy_vector4_checksum",
                    {{{"n4", 1}}, {{"n4", 3}}, {{"n4", 1009}}, {{"n4", 333333}}},
                    {{"n4", 4194304}}, // 64 MiB in and out
                    0.0, reference, nullptr);
