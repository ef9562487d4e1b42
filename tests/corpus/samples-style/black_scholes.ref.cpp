// CPU reference of black_scholes.cu (finance::black_scholes::BlackScholesGPU): the same float
// formula in the same order. Relative tolerance 1e-4: CUDA's expf/logf (up to 2 ulp) differ from
// glibc's, the GPU contracts products and sums into fmaf, and call = S*N(d1) - X*e^-rT*N(d2)
// cancels, amplifying those few-ulp differences by up to ~100 for the least valuable options the
// prepared inputs allow.
#include "CorpusCase.h"

#include <vector_types.h>

#include <cmath>
#include <cstdint>
#include <random>

namespace {

using overlap::corpus::arg;
using overlap::corpus::CallArgs;

float cnd(float d) {
  const float kA1 = 0.31938153f;
  const float kA2 = -0.356563782f;
  const float kA3 = 1.781477937f;
  const float kA4 = -1.821255978f;
  const float kA5 = 1.330274429f;
  const float kRsqrt2Pi = 0.39894228040143267794f;
  const float k = 1.0f / (1.0f + 0.2316419f * std::fabs(d));
  const float poly = k * (kA1 + k * (kA2 + k * (kA3 + k * (kA4 + k * kA5))));
  const float tail = kRsqrt2Pi * std::exp(-0.5f * d * d) * poly;
  return d > 0.0f ? 1.0f - tail : tail;
}

void price(float& call, float& put, float S, float X, float T, float R, float V) {
  const float sqrtT = std::sqrt(T);
  const float d1 = (std::log(S / X) + (R + 0.5f * V * V) * T) / (V * sqrtT);
  const float d2 = d1 - V * sqrtT;
  const float cndD1 = cnd(d1);
  const float cndD2 = cnd(d2);
  const float discountedStrike = X * std::exp(-R * T);
  call = S * cndD1 - discountedStrike * cndD2;
  put = discountedStrike * (1.0f - cndD2) - S * (1.0f - cndD1);
}

// Entry point: BlackScholesGPU(float2* d_CallResult, float2* d_PutResult,
// const float2* d_StockPrice, const float2* d_OptionStrike, const float2* d_OptionYears,
// float Riskfree, float Volatility, int optN).
void reference(CallArgs args) {
  float2* call = arg<float2*>(args, 0);
  float2* put = arg<float2*>(args, 1);
  const float2* S = arg<const float2*>(args, 2);
  const float2* X = arg<const float2*>(args, 3);
  const float2* T = arg<const float2*>(args, 4);
  const float R = arg<float>(args, 5), V = arg<float>(args, 6);
  const int pairs = arg<int>(args, 7) / 2;
  for (int p = 0; p < pairs; ++p) {
    price(call[p].x, put[p].x, S[p].x, X[p].x, T[p].x, R, V);
    price(call[p].y, put[p].y, S[p].y, X[p].y, T[p].y, R, V);
  }
}

// float2 arrays are filled with random bytes (NaN, negative prices). Valid markets as in the
// sample: price in [5, 30], strike within 20 % of the price (so no option is worth ~0 and the
// relative check stays meaningful), 0.25 to 10 years.
void prepare(CallArgs args, std::uint64_t seed) {
  float2* S = arg<float2*>(args, 2);
  float2* X = arg<float2*>(args, 3);
  float2* T = arg<float2*>(args, 4);
  const int pairs = arg<int>(args, 7) / 2;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> price(5.0f, 30.0f), moneyness(0.8f, 1.25f),
      years(0.25f, 10.0f);
  for (int p = 0; p < pairs; ++p) {
    S[p] = float2{price(rng), price(rng)};
    X[p] = float2{S[p].x * moneyness(rng), S[p].y * moneyness(rng)};
    T[p] = float2{years(rng), years(rng)};
  }
}

} // namespace

// optN is even (the annotation checks 2 * (optN / 2) == optN): 1, 3 and 1009 pairs.
OVERLAP_CORPUS_CASE(BlackScholesGPU, "finance::black_scholes::BlackScholesGPU",
                    {{{"optN", 2}, {"Riskfree", 0.02}, {"Volatility", 0.30}},
                     {{"optN", 6}, {"Riskfree", 0.02}, {"Volatility", 0.30}},
                     {{"optN", 2018}, {"Riskfree", 0.02}, {"Volatility", 0.30}},
                     {{"optN", 200002}, {"Riskfree", 0.05}, {"Volatility", 0.45}}},
                    {{"optN", 8000000}, {"Riskfree", 0.02}, {"Volatility", 0.30}}, // 5 x 32 MB
                    1e-4, reference, prepare);
