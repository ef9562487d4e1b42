// What the large-call benchmarks share (bench/outofcore, bench/multigpu): saxpy, sepia, pop-state
// and buoydiff on pinned arrays of a given size with their CPU results, timing, and the link limit
// of a call. The including program generates the four kernels (saxpy.overlap.h, ...).
#pragma once

#include "buoydiff.overlap.h"
#include "pop_state.overlap.h"
#include "saxpy.overlap.h"
#include "sepia.overlap.h"

#include "AllLinksBench.h"
#include "BenchCheck.h"
#include "Reference.h"
#include "overlap/ByteSize.h"
#include "overlap/Descriptor.h"
#include "overlap/PinnedBuffer.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace bench {

inline double seconds(const std::function<overlap::Status()>& call, const std::string& what) {
  const auto start = std::chrono::steady_clock::now();
  check(call(), what);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// SplitMix64: gigabytes of random inputs in seconds (std::mt19937_64 would take a minute).
class Random {
public:
  explicit Random(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  // Uniform in [low, high), 24 random bits.
  float uniform(float low, float high) {
    return low + (high - low) * static_cast<float>(next() >> 40) / 16777216.0f;
  }
  void bytes(unsigned char* out, std::size_t count) {
    for (std::size_t i = 0; i < count; i += 8) {
      const std::uint64_t bits = next();
      std::memcpy(out + i, &bits, std::min<std::size_t>(8, count - i));
    }
  }

private:
  std::uint64_t state_;
};

inline double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

// Host data of one application: pinned inputs and outputs, the CPU's result.
struct App {
  std::string name;
  std::string shape;
  std::size_t inBytes = 0;
  std::size_t outBytes = 0;
  // The application's call in any variant, through its generated descriptor.
  std::function<overlap::Status(const overlap::RunConfig&)> run;
  std::function<bool()> verify; // the output against the CPU's, bit for bit
  // Restores what a call reads and writes (saxpy's y) and scribbles over pure outputs, before a
  // call that is verified; timed calls repeat without it (saxpy's y then grows, as in a loop).
  std::function<void()> reset;
};

template <class T> T* pinned(std::size_t count, std::vector<overlap::PinnedBuffer>* keep) {
  keep->emplace_back();
  check(overlap::PinnedBuffer::allocate(count * sizeof(T), &keep->back()), "cudaHostAlloc");
  return keep->back().as<T>();
}

// Bytes of device memory the full buffers take: inputs and outputs, each once.
inline std::size_t fullBytes(const App& app) {
  return app.inBytes + app.outBytes;
}

// The applications sized to `deviceBytes` of full buffers (inputs and outputs once each).
inline App saxpyApp(std::size_t deviceBytes, Random& random,
                    std::vector<overlap::PinnedBuffer>* keep) {
  const int n = static_cast<int>(deviceBytes / (2 * sizeof(float)));
  float* x = pinned<float>(static_cast<std::size_t>(n), keep);
  float* y = pinned<float>(static_cast<std::size_t>(n), keep);
  auto y0 = std::make_shared<std::vector<float>>(static_cast<std::size_t>(n));
  auto expected = std::make_shared<std::vector<float>>(static_cast<std::size_t>(n));
  const float a = 1.75f;
  for (int i = 0; i < n; ++i) {
    x[i] = random.uniform(0.5f, 2.0f);
    (*y0)[static_cast<std::size_t>(i)] = random.uniform(0.5f, 2.0f);
    (*expected)[static_cast<std::size_t>(i)] =
        std::fmaf(a, x[i], (*y0)[static_cast<std::size_t>(i)]);
  }
  App app;
  app.name = "saxpy";
  app.shape = "n = " + std::to_string(n);
  app.inBytes = 2 * sizeof(float) * static_cast<std::size_t>(n);
  app.outBytes = sizeof(float) * static_cast<std::size_t>(n);
  app.run = [=](const overlap::RunConfig& config) {
    const void* args[] = {&n, &a, &x, &y};
    return saxpy_descriptor.run(args, config);
  };
  app.verify = [=] {
    return std::memcmp(y, expected->data(), expected->size() * sizeof(float)) == 0;
  };
  app.reset = [=] { std::memcpy(y, y0->data(), y0->size() * sizeof(float)); };
  return app;
}

inline App sepiaApp(std::size_t deviceBytes, Random& random,
                    std::vector<overlap::PinnedBuffer>* keep) {
  const int pixels = static_cast<int>(deviceBytes / 6);
  const std::size_t bytes = 3 * static_cast<std::size_t>(pixels);
  std::vector<unsigned char> rgb(bytes);
  random.bytes(rgb.data(), bytes);
  auto expected = std::make_shared<std::vector<unsigned char>>(sepia(rgb));
  unsigned char* in = pinned<unsigned char>(bytes, keep);
  unsigned char* out = pinned<unsigned char>(bytes, keep);
  std::memcpy(in, rgb.data(), bytes);
  App app;
  app.name = "sepia";
  app.shape = "pixels = " + std::to_string(pixels);
  app.inBytes = bytes;
  app.outBytes = bytes;
  app.run = [=](const overlap::RunConfig& config) {
    const void* args[] = {&pixels, &in, &out};
    return sepia_descriptor.run(args, config);
  };
  app.verify = [=] { return std::memcmp(out, expected->data(), bytes) == 0; };
  app.reset = [=] { std::memset(out, 0x5a, bytes); };
  return app;
}

inline App buoydiffApp(std::size_t deviceBytes, Random& random,
                       std::vector<overlap::PinnedBuffer>* keep) {
  // A deep grid: each chunk re-sends the level above its first as its halo out of core, so the
  // extra traffic is one level per chunk (bench/README.md).
  const int levels = 512;
  const long long plane = static_cast<long long>(deviceBytes / (2 * sizeof(float) * levels));
  const std::size_t count = static_cast<std::size_t>(levels * plane);
  float* rho = pinned<float>(count, keep);
  float* out = pinned<float>(count, keep);
  for (std::size_t i = 0; i < count; ++i)
    rho[i] = random.uniform(1020.0f, 1030.0f);
  auto expected = std::make_shared<std::vector<float>>(count);
  for (int k = 0; k < levels; ++k)
    for (long long p = 0; p < plane; ++p) {
      const float surface = rho[p];
      const float above = k > 0 ? rho[(k - 1) * plane + p] : surface;
      (*expected)[static_cast<std::size_t>(k * plane + p)] =
          (rho[k * plane + p] - above) * (surface + 1.0f);
    }
  App app;
  app.name = "buoydiff";
  app.shape = "levels = " + std::to_string(levels) + ", plane = " + std::to_string(plane);
  app.inBytes = count * sizeof(float);
  app.outBytes = count * sizeof(float);
  app.run = [=](const overlap::RunConfig& config) {
    const int chunkBounds = 0; // k_begin, k_end: the strategies set them per chunk
    const void* args[] = {&levels, &plane, &chunkBounds, &chunkBounds, &rho, &out};
    return buoydiff_descriptor.run(args, config);
  };
  app.verify = [=] { return std::memcmp(out, expected->data(), count * sizeof(float)) == 0; };
  app.reset = [=] { std::memset(out, 0x7f, count * sizeof(float)); };
  return app;
}

inline App popStateApp(std::size_t deviceBytes, Random& random,
                       std::vector<overlap::PinnedBuffer>* keep) {
  const int levels = 64;
  const long long plane = static_cast<long long>(deviceBytes / (3 * sizeof(float) * levels));
  const std::size_t count = static_cast<std::size_t>(levels * plane);
  std::vector<float> t(count), s(count);
  for (std::size_t i = 0; i < count; ++i) {
    t[i] = random.uniform(-2.0f, 30.0f);
    s[i] = random.uniform(30.0f, 40.0f);
  }
  auto expected = std::make_shared<std::vector<float>>(pop_state(levels, plane, t, s));
  float* temperature = pinned<float>(count, keep);
  float* salinity = pinned<float>(count, keep);
  float* density = pinned<float>(count, keep);
  std::memcpy(temperature, t.data(), count * sizeof(float));
  std::memcpy(salinity, s.data(), count * sizeof(float));
  App app;
  app.name = "pop-state";
  app.shape = "levels = " + std::to_string(levels) + ", plane = " + std::to_string(plane);
  app.inBytes = 2 * count * sizeof(float);
  app.outBytes = count * sizeof(float);
  app.run = [=](const overlap::RunConfig& config) {
    const int chunkBounds = 0; // k_begin, k_end: the strategies set them per chunk
    const void* args[] = {&levels,      &plane,    &chunkBounds, &chunkBounds,
                          &temperature, &salinity, &density};
    return pop_state_descriptor.run(args, config);
  };
  app.verify = [=] { return std::memcmp(density, expected->data(), count * sizeof(float)) == 0; };
  app.reset = [=] { std::memset(density, 0x7f, count * sizeof(float)); };
  return app;
}

// The link limits of calls: their input and output bytes copied at once over the first devices'
// links, with nothing else (no kernel, no dependency between the directions), in pieces of 8 MiB
// from host buffers of 256 MiB (calibrate/AllLinksBench.h).
inline std::unique_ptr<overlap::calibration::AllLinksBench> makeLinks(int devices) {
  std::unique_ptr<overlap::calibration::AllLinksBench> links;
  check(overlap::calibration::AllLinksBench::create(devices, std::size_t{8} << 20,
                                                    std::size_t{256} << 20, &links),
        "the link limit's buffers");
  return links;
}

// The seconds of a call's bytes over the first `devices` links.
inline double linkSeconds(overlap::calibration::AllLinksBench& links, std::size_t inBytes,
                          std::size_t outBytes, int devices) {
  double seconds = 0;
  check(links.copy(inBytes, outBytes, devices, &seconds), "the link limit's copies");
  return seconds;
}

inline std::string jsonString(const std::string& text) {
  std::string out = "\"";
  for (char c : text)
    out += c == '"' || c == '\\' ? std::string("\\") + c : std::string(1, c);
  return out + "\"";
}

// The command line of the large-call benchmarks: `sizeFlag` SIZE (a size such as 4GiB),
// --streams N, --repeats N, --output DIR; anything else ends the program with `usage`.
struct LargeCallOptions {
  // The size flag's value: the out-of-core budget, the multi-GPU traffic per call.
  std::size_t size = 0;
  int streams = 4;
  int repeats = 5;
  std::string output;
};

inline LargeCallOptions parseLargeCallOptions(int argc, char** argv, const std::string& sizeFlag,
                                              std::size_t defaultSize, const std::string& usage) {
  LargeCallOptions options;
  options.size = defaultSize;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto value = [&]() -> std::string {
      if (i + 1 >= argc)
        fail(arg + " needs a value");
      return argv[++i];
    };
    if (arg == sizeFlag) {
      if (!overlap::parseMemorySize(value(), &options.size))
        fail(sizeFlag + " takes a size such as 4GiB");
    } else if (arg == "--streams") {
      options.streams = std::atoi(value().c_str());
    } else if (arg == "--repeats") {
      options.repeats = std::atoi(value().c_str());
    } else if (arg == "--output") {
      options.output = value();
    } else {
      fail("unknown argument " + arg + "; " + usage);
    }
  }
  if (options.output.empty() || options.streams < 1 || options.repeats < 1)
    fail(usage);
  return options;
}

} // namespace bench
