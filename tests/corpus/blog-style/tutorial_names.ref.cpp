// CPU reference of tutorial_names.cu (accumulate): array * config + section * k in double; the
// GPU contracts it into one fmaf, so the results agree to a few ulp (inputs positive: no
// cancellation).
#include "CorpusCase.h"

#include <cstdint>
#include <random>

namespace {

using overlap::corpus::arg;
using overlap::corpus::CallArgs;

// Entry point: accumulate(float* array, const float* section, int n, int stream, int order,
// int launch, float config).
void reference(CallArgs args) {
  float* array = arg<float*>(args, 0);
  const float* section = arg<const float*>(args, 1);
  const int n = arg<int>(args, 2);
  const double k = static_cast<double>(arg<int>(args, 3)) * arg<int>(args, 4) + arg<int>(args, 5);
  const double config = arg<float>(args, 6);
  for (int i = 0; i < n; ++i)
    array[i] = static_cast<float>(static_cast<double>(array[i]) * config + section[i] * k);
}

// Values in [1, 2]: every term positive.
void prepare(CallArgs args, std::uint64_t seed) {
  float* array = arg<float*>(args, 0);
  float* section = arg<float*>(args, 1);
  const int n = arg<int>(args, 2);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> value(1.0f, 2.0f);
  for (int i = 0; i < n; ++i) {
    array[i] = value(rng);
    section[i] = value(rng);
  }
}

} // namespace

OVERLAP_CORPUS_CASE(accumulate, "accumulate",
                    {{{"n", 1}, {"stream", 3}, {"order", 2}, {"launch", 1}, {"config", 0.5}},
                     {{"n", 3}, {"stream", 1}, {"order", 5}, {"launch", 0}, {"config", 1.25}},
                     {{"n", 1009}, {"stream", 7}, {"order", 1}, {"launch", 2}, {"config", 0.75}},
                     {{"n", 262143}, {"stream", 2}, {"order", 2}, {"launch", 1}, {"config", 0.5}}},
                    {{"n", 16777216}, {"stream", 3}, {"order", 2}, {"launch", 1}, {"config", 0.5}},
                    1e-6, reference, prepare);
