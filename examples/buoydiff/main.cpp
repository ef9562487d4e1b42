// Runs every generated variant of buoydiff (levels in chunks, each chunk reading the surface
// level and the level above its first one) on the same random grid, checks each result against
// the Explicit variant and prints their times.
#include "buoydiff.overlap.h"
#include "example_support.h"

#include <cstdio>
#include <cstdlib>
#include <random>

int main(int argc, char** argv) {
  const int levels = argc > 1 ? std::atoi(argv[1]) : 42;
  const long long plane = argc > 2 ? std::atoll(argv[2]) : 1024LL * 1024;
  std::printf("buoydiff: %d levels of %lld points\n", levels, plane);
  if (!example::gpu_present()) {
    std::printf("no CUDA device: the four variants were generated and compiled; nothing was run\n");
    return 0;
  }
  std::mt19937_64 rng(std::random_device{}());
  example::PinnedArray<float> rho(levels * plane), reference(levels * plane), dbloc(levels * plane);
  example::fill_random(rho, rng);
  const overlap::Status status = buoydiff_explicit(levels, plane, rho.data(), reference.data());
  if (!status.ok()) {
    std::printf("Explicit failed: %s\n", status.message().c_str());
    return 1;
  }
  const int unused_bound = 0; // k_begin and k_end: set per chunk by the generated code
  const float* rho_ptr = rho.data();
  float* dbloc_ptr = dbloc.data();
  const void* args[] = {&levels, &plane, &unused_bound, &unused_bound, &rho_ptr, &dbloc_ptr};
  const bool ok = example::compare_variants(
      buoydiff_descriptor, args, [&] { example::fill_random(dbloc, rng); },
      [&] { return dbloc.same_bytes(reference); });
  return ok ? 0 : 1;
}
