// Host-side handling of a kernel's arrays for verification: fresh random contents of the right
// element kind, and the comparison of a candidate's outputs with the reference's. CUDA-free.
#pragma once

#include "overlap/kernel_types.h"

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

// Fills `count` elements with random values that are never zero: floating point in ±[0.25, 1),
// integers in ±[1, 100] (unsigned: [1, 100]) so sums and products of a few stay in range; Other
// kinds get random bytes.
void fill_random(ElementKind kind, std::size_t element_size, void* data, long long count,
                 RandomBits& bits);

struct Comparison {
  long long mismatches = 0;
  long long first_mismatch = -1; // element index
  double max_abs_difference = 0; // over floating-point elements
  bool equal() const { return mismatches == 0; }
  // "3 of 1000 elements differ; first at [17]; max |difference| 0.5"
  std::string describe(long long count) const;
};

// Exact comparison (bit for bit) when `tolerance` is 0 or the kind is not floating point;
// otherwise floating-point elements match when |a - b| <= tolerance * max(|a|, |b|, 1): relative
// for large values, absolute for those below 1, where cancellation makes relative errors
// meaningless.
Comparison compare_elements(ElementKind kind, std::size_t element_size, const void* reference,
                            const void* actual, long long count, double tolerance);

} // namespace overlap::tune
