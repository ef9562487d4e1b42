// Helpers that generated code calls when it prints annotation expressions (ir::toCxx): min, max
// and ceil_div on long long, with exactly the semantics the generator evaluates them with
// (generator/ir/Expr.cpp), so a bound checked at generation time is the bound used at run time.
// Usable from host and device code; includes nothing from CUDA.
#pragma once

#if defined(__CUDACC__)
#define OVERLAP_EXPR_HOST_DEVICE __host__ __device__
#else
#define OVERLAP_EXPR_HOST_DEVICE
#endif

namespace overlap {

OVERLAP_EXPR_HOST_DEVICE constexpr long long minLL(long long a, long long b) {
  return a < b ? a : b;
}

OVERLAP_EXPR_HOST_DEVICE constexpr long long maxLL(long long a, long long b) {
  return a > b ? a : b;
}

// The exact ceiling of a / b for every sign of a and b (b != 0). (a + b - 1) / b agrees only for
// a >= 0 < b and can overflow.
OVERLAP_EXPR_HOST_DEVICE constexpr long long ceil_div(long long a, long long b) {
  return a / b + ((a % b != 0 && ((a % b > 0) == (b > 0))) ? 1 : 0);
}

// The greatest common divisor of |a| and |b|; gcdLl(a, 0) = |a|.
OVERLAP_EXPR_HOST_DEVICE constexpr long long gcdLl(long long a, long long b) {
  a = a < 0 ? -a : a;
  b = b < 0 ? -b : b;
  while (b != 0) {
    const long long r = a % b;
    a = b;
    b = r;
  }
  return a;
}

// The least common multiple of two positive values.
OVERLAP_EXPR_HOST_DEVICE constexpr long long lcmLL(long long a, long long b) {
  return a / gcdLl(a, b) * b;
}

// The granule (in partition indices) at which chunk starts keep an array's pointer aligned to
// `alignment` bytes when each partition index moves it by `strideBytes`: a kernel that reads
// float4 from its chunk's first float needs chunks starting at multiples of 4.
OVERLAP_EXPR_HOST_DEVICE constexpr long long alignmentGranule(long long alignment,
                                                              long long strideBytes) {
  return alignment / gcdLl(alignment, strideBytes);
}

} // namespace overlap

#undef OVERLAP_EXPR_HOST_DEVICE
