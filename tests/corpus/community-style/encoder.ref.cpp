// CPU reference of encoder.cu (gpt2::encoder_forward_kernel3): one float addition per element,
// rounded as the GPU rounds it: bit for bit.
#include "CorpusCase.h"

#include <cstdint>
#include <random>

namespace {

using overlap::corpus::arg;
using overlap::corpus::CallArgs;

// Entry point: encoder_forward_kernel3(float* out, const int* inp, const float* wte,
// const float* wpe, int B, int T, int C, int V).
void reference(CallArgs args) {
  float* out = arg<float*>(args, 0);
  const int* inp = arg<const int*>(args, 1);
  const float* wte = arg<const float*>(args, 2);
  const float* wpe = arg<const float*>(args, 3);
  const int batches = arg<int>(args, 4), positions = arg<int>(args, 5),
            channels = arg<int>(args, 6);
  for (int b = 0; b < batches; ++b)
    for (int t = 0; t < positions; ++t) {
      const int token = inp[b * positions + t];
      for (int c = 0; c < channels; ++c)
        out[(b * positions + t) * channels + c] = wte[token * channels + c] + wpe[t * channels + c];
    }
}

// Tokens below the vocabulary size, as a tokenizer makes them.
void prepare(CallArgs args, std::uint64_t seed) {
  int* inp = arg<int*>(args, 1);
  const int batches = arg<int>(args, 4), positions = arg<int>(args, 5),
            vocabulary = arg<int>(args, 7);
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> token(0, vocabulary - 1);
  for (int i = 0; i < batches * positions; ++i)
    inp[i] = token(rng);
}

} // namespace

// C a multiple of 4 (the kernel's contract); B = 1, 3 (below the stream counts), 7, 1009 (prime).
OVERLAP_CORPUS_CASE(encoder, "gpt2::encoder_forward_kernel3",
                    {{{"B", 1}, {"T", 1}, {"C", 4}, {"V", 3}},
                     {{"B", 3}, {"T", 5}, {"C", 8}, {"V", 7}},
                     {{"B", 7}, {"T", 3}, {"C", 12}, {"V", 50}},
                     {{"B", 1009}, {"T", 4}, {"C", 16}, {"V", 101}}},
                    {{"B", 8}, {"T", 1024}, {"C", 768}, {"V", 8192}}, // 25 + 25 MiB, tables 28 MiB
                    0.0, reference, prepare);
