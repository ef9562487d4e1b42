// CPU reference of spmv.cu (spmv_kernel): per row, the 32 lane sums in the kernel's order, then
// the shuffle tree (offsets 16, 8, 4, 2, 1). The GPU contracts sum += v * x into fmaf, this
// reference does not: relative tolerance 1e-5. prepare makes values and x positive so that a
// row's sum cannot cancel (a per-element relative check of a sum near 0 is meaningless).
#include "CorpusCase.h"

#include <algorithm>
#include <cstdint>
#include <random>

namespace {

using overlap::corpus::arg;
using overlap::corpus::CallArgs;

// Entry point: spmv_kernel(float* y, const int* row_start, const int* col_idx,
// const float* values, const float* x, int nrows, int nnz, int ncols).
void reference(CallArgs args) {
  float* y = arg<float*>(args, 0);
  const int* row_start = arg<const int*>(args, 1);
  const int* col_idx = arg<const int*>(args, 2);
  const float* values = arg<const float*>(args, 3);
  const float* x = arg<const float*>(args, 4);
  const int nrows = arg<int>(args, 5);
  for (int row = 0; row < nrows; ++row) {
    float lane[32];
    for (int l = 0; l < 32; ++l) {
      float sum = 0.0f;
      for (int k = row_start[row] + l; k < row_start[row + 1]; k += 32)
        sum += values[k] * x[col_idx[k]];
      lane[l] = sum;
    }
    for (int offset = 16; offset > 0; offset /= 2)
      for (int l = 0; l < offset; ++l)
        lane[l] += lane[l + offset];
    y[row] = lane[0];
  }
}

// CSR structure as Kernel Tuner's spmv.py makes it: sorted random row offsets from 0 to nnz,
// random column indices below ncols; values and x in (0, 1].
void prepare(CallArgs args, std::uint64_t seed) {
  int* row_start = arg<int*>(args, 1);
  int* col_idx = arg<int*>(args, 2);
  float* values = arg<float*>(args, 3);
  float* x = arg<float*>(args, 4);
  const int nrows = arg<int>(args, 5), nnz = arg<int>(args, 6), ncols = arg<int>(args, 7);
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> offset(0, nnz), column(0, ncols - 1);
  row_start[0] = 0;
  row_start[nrows] = nnz;
  for (int r = 1; r < nrows; ++r)
    row_start[r] = offset(rng);
  std::sort(row_start + 1, row_start + nrows);
  std::uniform_real_distribution<float> positive(0.0f, 1.0f);
  for (int k = 0; k < nnz; ++k) {
    col_idx[k] = column(rng);
    values[k] = 1.0f - positive(rng);
  }
  for (int c = 0; c < ncols; ++c)
    x[c] = 1.0f - positive(rng);
}

} // namespace

OVERLAP_CORPUS_CASE(spmv_kernel, "spmv_kernel",
                    {{{"nrows", 1}, {"ncols", 10}, {"nnz", 7}},
                     {{"nrows", 3}, {"ncols", 3}, {"nnz", 100}},
                     {{"nrows", 1009}, {"ncols", 5000}, {"nnz", 20000}},
                     {{"nrows", 77777}, {"ncols", 1000}, {"nnz", 777777}},
                     {{"nrows", 1009}, {"ncols", 1}, {"nnz", 0}}},
                    {{"nrows", 1048576}, {"ncols", 1048576}, {"nnz", 8388608}}, // ~80 MiB
                    1e-5, reference, prepare);
