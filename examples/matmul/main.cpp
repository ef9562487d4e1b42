// Runs every generated variant of C = A·B (rows of A and C in chunks, B sent once) on the same
// random inputs, checks each result against the Explicit variant and prints their times.
#include "example_support.h"
#include "matmul.overlap.h"

#include <cstdio>
#include <cstdlib>
#include <random>

int main(int argc, char** argv) {
  const int m = argc > 1 ? std::atoi(argv[1]) : 4096;
  const int n = argc > 2 ? std::atoi(argv[2]) : 1024;
  const int k = argc > 3 ? std::atoi(argv[3]) : 1024;
  std::printf("matmul: C[%d x %d] = A[%d x %d] * B[%d x %d]\n", m, n, m, k, k, n);
  if (!example::gpu_present()) {
    std::printf("no CUDA device: the four variants were generated and compiled; nothing was run\n");
    return 0;
  }
  std::mt19937_64 rng(std::random_device{}());
  example::PinnedArray<float> a(1LL * m * k), b(1LL * k * n), reference(1LL * m * n),
      c(1LL * m * n);
  example::fill_random(a, rng);
  example::fill_random(b, rng);
  const overlap::Status status = matmul_explicit(m, n, k, a.data(), b.data(), reference.data());
  if (!status.ok()) {
    std::printf("Explicit failed: %s\n", status.message().c_str());
    return 1;
  }
  const float* a_ptr = a.data();
  const float* b_ptr = b.data();
  float* c_ptr = c.data();
  const void* args[] = {&m, &n, &k, &a_ptr, &b_ptr, &c_ptr};
  const bool ok = example::compare_variants(
      matmul_descriptor, args,
      [&] { example::fill_random(c, rng); }, // stale results must not pass for new ones
      [&] { return c.same_bytes(reference); });
  return ok ? 0 : 1;
}
