// CPU reference of index_select.cu (at::native::index_select_large_index as
// index_select_float_int64 and index_select_double_int32): copies: bit for bit. prepare draws the
// indices in [0, srcSelectDimSize), with repeats (random integers are also negative or too large).
#include "CorpusCase.h"

#include <cstdint>
#include <random>

namespace {

using overlap::corpus::arg;
using overlap::corpus::CallArgs;

// Entry point: index_select_<scalar>_<index>(scalar_t* dst, const scalar_t* src,
// const index_t* indices, int64_t numIndices, int64_t innerSize, int64_t srcSelectDimSize).
template <class Scalar, class Index> void reference(CallArgs args) {
  Scalar* dst = arg<Scalar*>(args, 0);
  const Scalar* src = arg<const Scalar*>(args, 1);
  const Index* indices = arg<const Index*>(args, 2);
  const std::int64_t numIndices = arg<std::int64_t>(args, 3);
  const std::int64_t innerSize = arg<std::int64_t>(args, 4);
  for (std::int64_t j = 0; j < numIndices; ++j)
    for (std::int64_t e = 0; e < innerSize; ++e)
      dst[j * innerSize + e] = src[static_cast<std::int64_t>(indices[j]) * innerSize + e];
}

template <class Index> void prepare(CallArgs args, std::uint64_t seed) {
  Index* indices = arg<Index*>(args, 2);
  const std::int64_t numIndices = arg<std::int64_t>(args, 3);
  const std::int64_t srcSelectDimSize = arg<std::int64_t>(args, 5);
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::int64_t> row(0, srcSelectDimSize - 1);
  for (std::int64_t j = 0; j < numIndices; ++j)
    indices[j] = static_cast<Index>(row(rng));
}

} // namespace

// Indices: 1, 3, 1009 (prime), 12345; slices of 1, 5, 3 and 64 elements from tables of 1, 2,
// 17 and 1000 rows (3 indices into 2 rows repeat one). The large calls write 64 MiB from an
// 8 MiB table.
OVERLAP_CORPUS_CASE(index_select_float_int64, "at::native::index_select_float_int64",
                    {{{"numIndices", 1}, {"innerSize", 1}, {"srcSelectDimSize", 1}},
                     {{"numIndices", 3}, {"innerSize", 5}, {"srcSelectDimSize", 2}},
                     {{"numIndices", 1009}, {"innerSize", 3}, {"srcSelectDimSize", 17}},
                     {{"numIndices", 12345}, {"innerSize", 64}, {"srcSelectDimSize", 1000}}},
                    {{"numIndices", 65536}, {"innerSize", 256}, {"srcSelectDimSize", 8192}}, 0.0,
                    reference<float, std::int64_t>, prepare<std::int64_t>);

OVERLAP_CORPUS_CASE(index_select_double_int32, "at::native::index_select_double_int32",
                    {{{"numIndices", 1}, {"innerSize", 1}, {"srcSelectDimSize", 1}},
                     {{"numIndices", 3}, {"innerSize", 5}, {"srcSelectDimSize", 2}},
                     {{"numIndices", 1009}, {"innerSize", 3}, {"srcSelectDimSize", 17}},
                     {{"numIndices", 12345}, {"innerSize", 64}, {"srcSelectDimSize", 1000}}},
                    {{"numIndices", 32768}, {"innerSize", 256}, {"srcSelectDimSize", 4096}}, 0.0,
                    reference<double, int>, prepare<int>);
