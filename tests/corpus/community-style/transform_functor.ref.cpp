// CPU reference of transform_functor.cu (transform_binary): 2 * (a + b), an addition then an exact
// doubling: bit for bit.
#include "CorpusCase.h"

#include <cstddef>

namespace {

using overlap::corpus::arg;
using overlap::corpus::CallArgs;

// Entry point: transform_binary(const double* a, const double* b, double* r, size_t n,
// fn::scaled_plus<double> op); the functor holds no state.
void reference(CallArgs args) {
  const double* a = arg<const double*>(args, 0);
  const double* b = arg<const double*>(args, 1);
  double* r = arg<double*>(args, 2);
  const std::size_t n = arg<std::size_t>(args, 3);
  for (std::size_t i = 0; i < n; ++i)
    r[i] = 2.0 * (a[i] + b[i]);
}

} // namespace

OVERLAP_CORPUS_CASE(transform_functor, "transform_binary",
                    {{{"n", 1}}, {{"n", 3}}, {{"n", 1009}}, {{"n", 262147}}},
                    {{"n", 8388608}}, // 3 x 64 MiB
                    0.0, reference, nullptr);
