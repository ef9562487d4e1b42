// CPU reference of quantize_q8_0.cu.
// quantize_q8_0: the maximum of |x| is exact in any order; d = amax / 127 and x / d are IEEE
// divisions on both sides (no fast math), roundf rounds half away from zero on both, and the
// scale rounds to half by __float2half (round to nearest even) as the kernel's assignment does:
// bit for bit, struct bytes compared (block_q8_0 has no padding).
// dequantize_block: int8 times a half is exact in float (8 + 11 significant bits), then stored
// as float, or rounded to half by __float2half as the kernel's assignment does: bit for bit.
// prepare writes the blocks the kernel dequantizes: random bytes make NaN and infinite scales.
#include "CorpusCase.h"

#include <cuda_fp16.h>

#include <cmath>
#include <cstdint>
#include <random>

namespace {

using overlap::corpus::arg;
using overlap::corpus::CallArgs;

constexpr int QK8_0 = 32;

// The kernel file's block_q8_0 (same layout).
struct block_q8_0 {
  __half d;
  std::int8_t qs[QK8_0];
};
static_assert(sizeof(block_q8_0) == 34, "block_q8_0 is a half and 32 bytes");

// Entry point: quantize_q8_0(const float* x, block_q8_0* vy, int64_t k).
void quantize_reference(CallArgs args) {
  const float* x = arg<const float*>(args, 0);
  block_q8_0* vy = arg<block_q8_0*>(args, 1);
  const std::int64_t k = arg<std::int64_t>(args, 2);
  for (std::int64_t ib = 0; ib < k / QK8_0; ++ib) {
    const float* block = x + ib * QK8_0;
    float amax = 0.0f;
    for (int j = 0; j < QK8_0; ++j)
      amax = std::fmax(amax, std::fabs(block[j]));
    const float d = amax / 127;
    for (int j = 0; j < QK8_0; ++j)
      vy[ib].qs[j] = static_cast<std::int8_t>(amax == 0.0f ? 0.0f : std::round(block[j] / d));
    vy[ib].d = __float2half(d);
  }
}

// Entry point: dequantize_block_q8_0_<dst_t>(const block_q8_0* vx, dst_t* y, int64_t k).
template <class DstT> void dequantize_reference(CallArgs args) {
  const block_q8_0* vx = arg<const block_q8_0*>(args, 0);
  DstT* y = arg<DstT*>(args, 1);
  const std::int64_t k = arg<std::int64_t>(args, 2);
  for (std::int64_t ib = 0; ib < k / QK8_0; ++ib) {
    const float d = __half2float(vx[ib].d);
    for (int j = 0; j < QK8_0; ++j) {
      const float value = static_cast<float>(vx[ib].qs[j]) * d;
      if constexpr (sizeof(DstT) == sizeof(float))
        y[ib * QK8_0 + j] = value;
      else
        y[ib * QK8_0 + j] = __float2half(value);
    }
  }
}

// Finite scales of either sign from 2^-12 to 2 (a quantized activation's range), every quant in
// [-128, 127].
void dequantize_prepare(CallArgs args, std::uint64_t seed) {
  block_q8_0* vx = arg<block_q8_0*>(args, 0);
  const std::int64_t k = arg<std::int64_t>(args, 2);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> exponent(-12.0f, 1.0f);
  std::uniform_int_distribution<int> quant(-128, 127);
  for (std::int64_t ib = 0; ib < k / QK8_0; ++ib) {
    const float magnitude = std::exp2(exponent(rng));
    vx[ib].d = __float2half(quant(rng) < 0 ? -magnitude : magnitude);
    for (int j = 0; j < QK8_0; ++j)
      vx[ib].qs[j] = static_cast<std::int8_t>(quant(rng));
  }
}

} // namespace

// Blocks: 1, 3, 1009 (prime), 4099; k counts values (a multiple of 32, the kernels' contract).
// The large calls: 512 K blocks (64 MiB of floats or 32 MiB of halves, 17 MiB of blocks).
OVERLAP_CORPUS_CASE(quantize_q8_0, "quantize_q8_0",
                    {{{"k", 32}}, {{"k", 3 * 32}}, {{"k", 1009 * 32}}, {{"k", 4099 * 32}}},
                    {{"k", 16777216}}, 0.0, quantize_reference, nullptr);

OVERLAP_CORPUS_CASE(dequantize_block_q8_0_f32, "dequantize_block_q8_0_f32",
                    {{{"k", 32}}, {{"k", 3 * 32}}, {{"k", 1009 * 32}}, {{"k", 4099 * 32}}},
                    {{"k", 16777216}}, 0.0, dequantize_reference<float>, dequantize_prepare);

OVERLAP_CORPUS_CASE(dequantize_block_q8_0_f16, "dequantize_block_q8_0_f16",
                    {{{"k", 32}}, {{"k", 3 * 32}}, {{"k", 1009 * 32}}, {{"k", 4099 * 32}}},
                    {{"k", 16777216}}, 0.0, dequantize_reference<__half>, dequantize_prepare);
