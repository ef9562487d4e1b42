// Runs every generated variant of saxpy on the same random inputs, checks each result against
// the Explicit variant and prints their times.
#include "example_support.h"
#include "saxpy.overlap.h"

#include <cstdio>
#include <cstdlib>
#include <random>

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 1 << 24;
  std::printf("saxpy: y = a*x + y over %d floats (%.1f MB per array)\n", n, n * 4.0 / 1e6);
  if (!example::gpu_present()) {
    std::printf("no CUDA device: the four variants were generated and compiled; nothing was run\n");
    return 0;
  }
  std::mt19937_64 rng(std::random_device{}());
  const float a = 2.5f;
  example::PinnedArray<float> x(n), y_in(n), reference(n), y(n);
  example::fill_random(x, rng);
  example::fill_random(y_in, rng);
  reference.copy_from(y_in);
  const overlap::Status status = saxpy_explicit(n, a, x.data(), reference.data());
  if (!status.ok()) {
    std::printf("Explicit failed: %s\n", status.message().c_str());
    return 1;
  }
  const float* x_ptr = x.data();
  float* y_ptr = y.data();
  const void* args[] = {&n, &a, &x_ptr, &y_ptr};
  const bool ok = example::compare_variants(
      saxpy_descriptor, args, [&] { y.copy_from(y_in); }, [&] { return y.same_bytes(reference); });
  return ok ? 0 : 1;
}
