// What the three example programs share: pinned buffers, random inputs, timing a generated
// variant and comparing its output with the Explicit reference.
#pragma once

#include "overlap/Descriptor.h"
#include "overlap/KernelTypes.h"
#include "overlap/Status.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>

namespace example {

inline bool gpu_present() {
  int count = 0;
  const bool present = cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
  cudaGetLastError(); // no device is an answer here, not an error to carry on
  return present;
}

// Pinned host memory, so the streamed variants can overlap their copies with kernels.
template <class T> class PinnedArray {
public:
  explicit PinnedArray(long long count) : count_(count) {
    if (cudaMallocHost(reinterpret_cast<void**>(&data_), sizeof(T) * std::max(count, 1LL)) !=
        cudaSuccess) {
      std::fprintf(stderr, "cudaMallocHost of %lld elements failed\n", count);
      std::exit(1);
    }
  }
  ~PinnedArray() { cudaFreeHost(data_); }
  PinnedArray(const PinnedArray&) = delete;
  PinnedArray& operator=(const PinnedArray&) = delete;

  T* data() { return data_; }
  const T* data() const { return data_; }
  long long size() const { return count_; }
  void copy_from(const PinnedArray& other) { std::memcpy(data_, other.data_, sizeof(T) * count_); }
  bool same_bytes(const PinnedArray& other) const {
    return std::memcmp(data_, other.data_, sizeof(T) * count_) == 0;
  }

private:
  T* data_ = nullptr;
  long long count_ = 0;
};

// Fresh random values in [-1, 1): never zeros, never the same twice.
inline void fill_random(PinnedArray<float>& array, std::mt19937_64& rng) {
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  for (long long i = 0; i < array.size(); ++i)
    array.data()[i] = dist(rng);
}

// The best of three wall times of `call` (which returns an overlap::Status): the whole call with
// its transfers, as the user pays it. `prepare` resets the outputs before each call, untimed.
template <class Prepare, class Call>
double best_ms(Prepare&& prepare, Call&& call, overlap::Status& status) {
  double best = 1e300;
  for (int repeat = 0; repeat < 3; ++repeat) {
    prepare();
    const auto start = std::chrono::steady_clock::now();
    status = call();
    const auto stop = std::chrono::steady_clock::now();
    if (!status.ok())
      return 0;
    best = std::min(best, std::chrono::duration<double, std::milli>(stop - start).count());
  }
  return best;
}

// Times every variant (Streams and Hybrid at several stream counts) through the kernel's generated
// descriptor and checks each against the Explicit result: matches() compares the outputs with the
// reference. Prints a table; returns whether every variant matched.
template <class Prepare, class Matches>
bool compare_variants(const overlap::KernelDescriptor& kernel, overlap::ArgPointers args,
                      Prepare&& prepare, Matches&& matches) {
  struct Candidate {
    overlap::Variant variant;
    const char* name;
    int streams;
  };
  const Candidate candidates[] = {
      {overlap::Variant::Explicit, "Explicit", 0}, {overlap::Variant::Mapped, "Mapped", 0},
      {overlap::Variant::Streams, "Streams", 2},   {overlap::Variant::Streams, "Streams", 4},
      {overlap::Variant::Streams, "Streams", 8},   {overlap::Variant::Streams, "Streams", 16},
      {overlap::Variant::Hybrid, "Hybrid", 2},     {overlap::Variant::Hybrid, "Hybrid", 4},
      {overlap::Variant::Hybrid, "Hybrid", 8},     {overlap::Variant::Hybrid, "Hybrid", 16}};
  std::printf("%-10s %8s %12s %12s  %s\n", "variant", "streams", "time [ms]", "vs Explicit",
              "result");
  double explicit_ms = 0;
  bool all_match = true;
  for (const Candidate& c : candidates) {
    overlap::Status status;
    overlap::RunConfig config;
    config.variant = c.variant;
    config.streams.streams = c.streams;
    const double ms = best_ms(prepare, [&] { return kernel.run(args, config); }, status);
    const std::string streams = c.streams > 0 ? std::to_string(c.streams) : "-";
    if (!status.ok()) {
      std::printf("%-10s %8s %12s %12s  FAILED: %s\n", c.name, streams.c_str(), "-", "-",
                  status.message().c_str());
      all_match = false;
      continue;
    }
    if (c.variant == overlap::Variant::Explicit)
      explicit_ms = ms;
    const bool same = matches();
    all_match &= same;
    std::printf("%-10s %8s %12.3f %11.2fx  %s\n", c.name, streams.c_str(), ms, explicit_ms / ms,
                same ? "equal to Explicit" : "DIFFERS from Explicit");
  }
  return all_match;
}

} // namespace example
