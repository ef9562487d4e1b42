// Host-side handling of a kernel's arrays for verification: fresh random contents of the right
// element kind, and the comparison of a candidate's outputs with the reference's. CUDA-free.
#pragma once

#include "overlap/KernelTypes.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace overlap::tune {

// A small, fast generator (xoshiro256**): filling a few hundred MiB must not dominate a tuning.
class RandomBits {
public:
  explicit RandomBits(std::uint64_t seed);
  std::uint64_t next();

private:
  std::uint64_t state_[4];
};

// IEEE binary16 (__half) and bfloat16 from a float, rounded to nearest even (overflow gives
// infinity, NaN stays NaN), and back (exactly). Host code of our own: the tuner's host side is
// built without CUDA's half headers.
std::uint16_t floatToHalf(float value);
float halfToFloat(std::uint16_t bits);
std::uint16_t floatToBfloat16(float value);
float bfloat16ToFloat(std::uint16_t bits);

// Fills `count` elements with random values that are never zero: floating point (F16 and BF16
// included) in ±[0.25, 1), integers in ±[1, 100] (unsigned: [1, 100]) so sums and products of a
// few stay in range. Elements made of several lanes of `kind` (laneCount: float4, int2) get a
// value per lane; Other kinds, and sizes that are no multiple of the kind's, random bytes.
void fill_random(ElementKind kind, std::size_t elementSize, void* data, long long count,
                 RandomBits& bits);

struct Comparison {
  long long mismatches = 0;
  long long firstMismatch = -1; // element index
  double maxAbsDifference = 0;  // over floating-point elements
  bool equal() const { return mismatches == 0; }
  // "3 of 1000 elements differ; first at [17]; max |difference| 0.5"
  std::string describe(long long count) const;
};

// Exact comparison (bit for bit) when `tolerance` is 0 or the kind is not floating point;
// otherwise floating-point elements match when every lane has |a - b| <= tolerance * max(|a|,
// |b|, 1) (F16 and BF16 compared as floats): relative for large values, absolute for those below
// 1, where cancellation makes relative errors meaningless. Mismatches count elements.
Comparison compareElements(ElementKind kind, std::size_t elementSize, const void* reference,
                           const void* actual, long long count, double tolerance);

// The tolerance a reduction array's comparison needs: floating-point Sum and Product reductions
// round in the order the kernels' atomics happen to run, which differs between runs and
// variants. Each of `terms` roundings errs by up to one epsilon of the partial result, in either
// direction: a random walk, sqrt(terms) epsilons, taken 16 times over for margin. 0 (exact) for
// integers (their wrap-around arithmetic is associative), for Min, Max and the bitwise
// operations, and for ReduceOp::None.
double reductionTolerance(ElementKind kind, ReduceOp op, long long terms);

} // namespace overlap::tune
