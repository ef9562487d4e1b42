// CPU reference of complex_mul.cu (ComplexPointwiseMulAndScale): the same double operations in the
// same order. The GPU contracts a.x*b.x - a.y*b.y (and the imaginary part) into one fma, this
// reference (-ffp-contract=off) does not: the real and imaginary parts can cancel, so the
// relative tolerance is 1e-9 rather than a few ulp (a difference of one rounding of a product,
// ~1e-16 of the products, relative to a result that cancels to 1e-7 of them).
#include "CorpusCase.h"

#include <vector_types.h>

#include <cstdint>
#include <random>

namespace {

using overlap::corpus::arg;
using overlap::corpus::CallArgs;

// Entry point: ComplexPointwiseMulAndScale(double2* a, const double2* b, int size, double scale).
void reference(CallArgs args) {
  double2* a = arg<double2*>(args, 0);
  const double2* b = arg<const double2*>(args, 1);
  const int size = arg<int>(args, 2);
  const double scale = arg<double>(args, 3);
  for (int i = 0; i < size; ++i) {
    const double re = a[i].x * b[i].x - a[i].y * b[i].y;
    const double im = a[i].x * b[i].y + a[i].y * b[i].x;
    a[i].x = scale * re;
    a[i].y = scale * im;
  }
}

// double2 arrays are filled with random bytes (NaN, 1e300): signals in [-1, 1].
void prepare(CallArgs args, std::uint64_t seed) {
  double2* a = arg<double2*>(args, 0);
  double2* b = arg<double2*>(args, 1);
  const int size = arg<int>(args, 2);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  for (int i = 0; i < size; ++i) {
    a[i] = double2{unit(rng), unit(rng)};
    b[i] = double2{unit(rng), unit(rng)};
  }
}

} // namespace

OVERLAP_CORPUS_CASE(ComplexPointwiseMulAndScale, "ComplexPointwiseMulAndScale",
                    {{{"size", 1}, {"scale", 0.5}},
                     {{"size", 3}, {"scale", 0.5}},
                     {{"size", 1009}, {"scale", 1.0 / 1009}},
                     {{"size", 131071}, {"scale", 1.0 / 131071}}},
                    {{"size", 4194304}, {"scale", 1.0 / 4194304}}, // 2 x 64 MiB
                    1e-9, reference, prepare);
