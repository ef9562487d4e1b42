// CPU reference of reduction.cu (reduceSum<float, 256>, reduceSum<unsigned int, 512>,
// reduceSum<double, 128>): the previous *g_odata plus the sum of the inputs (reduce(+) starts
// from what the host holds).
//
// float: the order of the GPU's additions depends on the grid, the chunking and the order of the
// atomics, so the reference sums in double and the tolerance is relative 1e-4 (16 M terms, float
// partial sums over a few hundred terms each). prepare makes the float inputs non-negative: a
// relative check of a sum of values of both signs is meaningless when it cancels to near zero.
// double: the same with a long double sum and relative tolerance 1e-12.
// unsigned int: sums modulo 2^32 are exact in any order: bit for bit.
#include "CorpusCase.h"

#include <cstdint>
#include <random>

namespace {

using overlap::corpus::arg;
using overlap::corpus::CallArgs;

// Entry points: reduceSum_float_256 / reduceSum_f64(const T* g_idata, T* g_odata, unsigned n).
template <class T> void floating_reference(CallArgs args) {
  const T* in = arg<const T*>(args, 0);
  T* out = arg<T*>(args, 1);
  const unsigned int n = arg<unsigned int>(args, 2);
  long double sum = *out;
  for (unsigned int i = 0; i < n; ++i)
    sum += in[i];
  *out = static_cast<T>(sum);
}

template <class T> void floating_prepare(CallArgs args, std::uint64_t seed) {
  T* in = arg<T*>(args, 0);
  T* out = arg<T*>(args, 1);
  const unsigned int n = arg<unsigned int>(args, 2);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<T> unit(0, 1);
  for (unsigned int i = 0; i < n; ++i)
    in[i] = unit(rng);
  *out = unit(rng);
}

// Entry point: reduceSum_u32(const unsigned* g_idata, unsigned* g_odata, unsigned n).
void u32_reference(CallArgs args) {
  const unsigned int* in = arg<const unsigned int*>(args, 0);
  unsigned int* out = arg<unsigned int*>(args, 1);
  const unsigned int n = arg<unsigned int>(args, 2);
  unsigned int sum = *out;
  for (unsigned int i = 0; i < n; ++i)
    sum += in[i];
  *out = sum;
}

} // namespace

// The default name of instantiate(T = float, blockSize = 256): kernel name + arguments.
OVERLAP_CORPUS_CASE(reduceSum_float_256, "reduceSum_float_256",
                    {{{"n", 1}}, {{"n", 3}}, {{"n", 1009}}, {{"n", 777777}}},
                    {{"n", 16777216}}, // 64 MiB
                    1e-4, floating_reference<float>, floating_prepare<float>);

OVERLAP_CORPUS_CASE(reduceSum_u32, "reduceSum_u32",
                    {{{"n", 1}}, {{"n", 3}}, {{"n", 1009}}, {{"n", 777777}}},
                    {{"n", 16777216}}, // 64 MiB
                    0.0, u32_reference, nullptr);

OVERLAP_CORPUS_CASE(reduceSum_f64, "reduceSum_f64",
                    {{{"n", 1}}, {{"n", 3}}, {{"n", 1009}}, {{"n", 777777}}},
                    {{"n", 8388608}}, // 64 MiB
                    1e-12, floating_reference<double>, floating_prepare<double>);
