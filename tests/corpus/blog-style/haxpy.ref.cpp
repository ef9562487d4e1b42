// CPU reference of haxpy.cu (haxpy): __hfma rounds a * x + y once to half. Here a * x is exact in
// double (11-bit significands), and with the prepared inputs (|a| < 1, |x|, |y| <= 4) so is the
// sum; __double2half rounds it once to nearest even: bit for bit.
#include "CorpusCase.h"

#include <cuda_fp16.h>

#include <cstdint>
#include <random>

namespace {

using overlap::corpus::arg;
using overlap::corpus::CallArgs;

// Entry point: haxpy(int n, __half a, const __half* x, __half* y).
void reference(CallArgs args) {
  const int n = arg<int>(args, 0);
  const double a = __half2float(arg<__half>(args, 1));
  const __half* x = arg<const __half*>(args, 2);
  __half* y = arg<__half*>(args, 3);
  for (int i = 0; i < n; ++i)
    y[i] = __double2half(a * __half2float(x[i]) + __half2float(y[i]));
}

// __half arrays are filled with random bytes (NaN, infinity): finite values in [-4, 4] instead.
void prepare(CallArgs args, std::uint64_t seed) {
  const int n = arg<int>(args, 0);
  __half* x = arg<__half*>(args, 2);
  __half* y = arg<__half*>(args, 3);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> value(-4.0f, 4.0f);
  for (int i = 0; i < n; ++i) {
    x[i] = __float2half_rn(value(rng));
    y[i] = __float2half_rn(value(rng));
  }
}

} // namespace

OVERLAP_CORPUS_CASE(haxpy, "haxpy",
                    {{{"n", 1}, {"a", 0.75}},
                     {{"n", 3}, {"a", -0.5}},
                     {{"n", 1009}, {"a", 0.333251953125}}, // a half: 0x3555
                     {{"n", 262143}, {"a", 0.75}},
                     {{"n", 4096}, {"a", 0.75}}},
                    {{"n", 33554432}, {"a", 0.75}}, // 2 x 64 MiB
                    0.0, reference, prepare);
