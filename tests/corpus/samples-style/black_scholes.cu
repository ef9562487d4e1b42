// European call and put prices by the Black-Scholes formula, two options per thread: every array
// holds float2 pairs of options while optN counts options. The cumulative normal distribution is
// the Abramowitz-Stegun polynomial approximation (26.2.17). Compute-bound: expf, logf, sqrtf and a
// division per option.
//
// Modeled on: NVIDIA cuda-samples, Samples/5_Domain_Specific/BlackScholes/BlackScholes_kernel.cuh
// (BlackScholesGPU: float2 arrays, two options per thread for ILP, __launch_bounds__(128),
// opt < optN / 2). Written anew for this corpus; the sample uses __expf, this one expf.
//
// Exercises: a kernel in a nested namespace (C++17 form); float2 element type; the length counts
// scalars while arrays hold pairs: offset(optN = 2 * len) with partition(optN / 2);
// __launch_bounds__; const scalar parameters; __restrict__; __device__ helpers.
#include <overlap/annotate.h>

namespace finance::black_scholes {

__device__ inline float cndGPU(float d) {
  const float kA1 = 0.31938153f;
  const float kA2 = -0.356563782f;
  const float kA3 = 1.781477937f;
  const float kA4 = -1.821255978f;
  const float kA5 = 1.330274429f;
  const float kRsqrt2Pi = 0.39894228040143267794f;

  const float k = 1.0f / (1.0f + 0.2316419f * fabsf(d));
  const float poly = k * (kA1 + k * (kA2 + k * (kA3 + k * (kA4 + k * kA5))));
  const float tail = kRsqrt2Pi * expf(-0.5f * d * d) * poly;
  return d > 0.0f ? 1.0f - tail : tail;
}

__device__ inline void priceOption(float &call, float &put, float S, float X, float T, float R,
                                   float V) {
  const float sqrtT = sqrtf(T);
  const float d1 = (logf(S / X) + (R + 0.5f * V * V) * T) / (V * sqrtT);
  const float d2 = d1 - V * sqrtT;
  const float cndD1 = cndGPU(d1);
  const float cndD2 = cndGPU(d2);
  const float discountedStrike = X * expf(-R * T);
  call = S * cndD1 - discountedStrike * cndD2;
  put = discountedStrike * (1.0f - cndD2) - S * (1.0f - cndD1);
}

OVERLAP_KERNEL(partition(optN / 2) offset(optN = 2 * len)
               extent(d_CallResult, d_PutResult, d_StockPrice, d_OptionStrike, d_OptionYears:
                      optN / 2)
               copyin(d_StockPrice[lo:hi], d_OptionStrike[lo:hi], d_OptionYears[lo:hi])
               copyout(d_CallResult[lo:hi], d_PutResult[lo:hi])
               launch(grid: ceil_div(len, 128), block: 128)
               tune(optN = 8000000))
__launch_bounds__(128) __global__
void BlackScholesGPU(float2 *__restrict__ d_CallResult, float2 *__restrict__ d_PutResult,
                     const float2 *__restrict__ d_StockPrice,
                     const float2 *__restrict__ d_OptionStrike,
                     const float2 *__restrict__ d_OptionYears, const float Riskfree,
                     const float Volatility, const int optN) {
  const int pair = blockDim.x * blockIdx.x + threadIdx.x;
  if (pair >= optN / 2)
    return;
  const float2 S = d_StockPrice[pair];
  const float2 X = d_OptionStrike[pair];
  const float2 T = d_OptionYears[pair];
  float2 call, put;
  priceOption(call.x, put.x, S.x, X.x, T.x, Riskfree, Volatility);
  priceOption(call.y, put.y, S.y, X.y, T.y, Riskfree, Volatility);
  d_CallResult[pair] = call;
  d_PutResult[pair] = put;
}

} // namespace finance::black_scholes
