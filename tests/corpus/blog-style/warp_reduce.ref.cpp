// CPU reference of warp_reduce.cu (deviceReduceWarpAtomicKernel): *out plus the sum of the
// inputs, modulo 2^32 as the GPU's integer additions wrap (random ints overflow; computed in
// unsigned arithmetic here, where wrapping is defined). Order-free: bit for bit.
#include "CorpusCase.h"

#include <cstdint>

namespace {

using overlap::corpus::arg;
using overlap::corpus::CallArgs;

// Entry point: deviceReduceWarpAtomicKernel(const int* in, int* out, int N).
void reference(CallArgs args) {
  const int* in = arg<const int*>(args, 0);
  int* out = arg<int*>(args, 1);
  const int n = arg<int>(args, 2);
  std::uint32_t sum = static_cast<std::uint32_t>(*out);
  for (int i = 0; i < n; ++i)
    sum += static_cast<std::uint32_t>(in[i]);
  *out = static_cast<int>(sum);
}

} // namespace

OVERLAP_CORPUS_CASE(deviceReduceWarpAtomicKernel, "deviceReduceWarpAtomicKernel",
                    {{{"N", 1}}, {{"N", 3}}, {{"N", 1009}}, {{"N", 654321}}},
                    {{"N", 16777216}}, // 64 MiB
                    0.0, reference, nullptr);
