// CPU reference of hotspot.cu (calculate_temp_step): the same float expression in the same order.
// The GPU contracts its products and sums into fmaf, this reference does not: relative tolerance
// 1e-5 (temperatures of ~330 K change by a few K; a few roundings of the update differ).
#include "CorpusCase.h"

#include <algorithm>
#include <cstdint>
#include <random>

namespace {

using overlap::corpus::arg;
using overlap::corpus::CallArgs;

// Entry point: calculate_temp_step(const float* power, const float* temp_src, float* temp_dst,
// int grid_cols, int grid_rows, float step_div_Cap, float Rx_1, float Ry_1, float Rz_1,
// float amb_temp) -- row_begin and row_end are set per chunk.
void reference(CallArgs args) {
  const float* power = arg<const float*>(args, 0);
  const float* src = arg<const float*>(args, 1);
  float* dst = arg<float*>(args, 2);
  const int cols = arg<int>(args, 3), rows = arg<int>(args, 4);
  const float step_div_Cap = arg<float>(args, 5), Rx_1 = arg<float>(args, 6),
              Ry_1 = arg<float>(args, 7), Rz_1 = arg<float>(args, 8), amb = arg<float>(args, 9);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      const int N = std::max(r - 1, 0), S = std::min(r + 1, rows - 1);
      const int W = std::max(c - 1, 0), E = std::min(c + 1, cols - 1);
      const long long i = static_cast<long long>(r) * cols + c;
      const float t = src[i];
      const float delta = step_div_Cap * (power[i] +
                                          (src[static_cast<long long>(S) * cols + c] +
                                           src[static_cast<long long>(N) * cols + c] - 2.0f * t) *
                                              Ry_1 +
                                          (src[static_cast<long long>(r) * cols + E] +
                                           src[static_cast<long long>(r) * cols + W] - 2.0f * t) *
                                              Rx_1 +
                                          (amb - t) * Rz_1);
      dst[i] = t + delta;
    }
}

// Physical inputs (as Rodinia's temp_* and power_* files): temperatures 320-345 K, power
// densities up to 1; random floats near 0 would make the relative check ill-conditioned.
void prepare(CallArgs args, std::uint64_t seed) {
  float* power = arg<float*>(args, 0);
  float* src = arg<float*>(args, 1);
  const long long cells = static_cast<long long>(arg<int>(args, 3)) * arg<int>(args, 4);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> temp(320.0f, 345.0f), watts(0.0f, 1.0f);
  for (long long i = 0; i < cells; ++i) {
    src[i] = temp(rng);
    power[i] = watts(rng);
  }
}

} // namespace

#define HOTSPOT_CONSTANTS                                                                          \
  {"step_div_Cap", 0.25}, {"Rx_1", 0.2}, {"Ry_1", 0.2}, {"Rz_1", 0.01}, {"amb_temp", 80.0}

OVERLAP_CORPUS_CASE(calculate_temp_step, "calculate_temp_step",
                    {{{"grid_rows", 1}, {"grid_cols", 1}, HOTSPOT_CONSTANTS},
                     {{"grid_rows", 3}, {"grid_cols", 100}, HOTSPOT_CONSTANTS},
                     {{"grid_rows", 1009}, {"grid_cols", 512}, HOTSPOT_CONSTANTS},
                     {{"grid_rows", 2047}, {"grid_cols", 1023}, HOTSPOT_CONSTANTS}},
                    {{"grid_rows", 4096}, {"grid_cols", 4096}, HOTSPOT_CONSTANTS}, // 3 x 64 MiB
                    1e-5, reference, prepare);
