// What K_tuned's choice costs (issue 19; bench/README.md): a plain timed loop, no framework.
//  1. The choice alone (overlap::chooseForCall, what dispatch() does before it runs the
//     variant): kept choices from the model and from tuning results, one size class and four
//     alternating, against the choice computed afresh at every call (what every call cost before:
//     the model's whole prediction), the kept choice with the arrays' memory looked up, and
//     cudaGetDevice alone. Needs no GPU.
//  2. End to end on the GPU: saxpy_tuned against calling the variant it chose directly
//     (saxpy_explicit/_mapped/_streams/_hybrid), at 100,000 and 64 Mi elements, calls interleaved.
// Prints a table of nanoseconds (1) and milliseconds (2).
//
//   overlap_dispatch_bench [--results FILE] [--iterations N]
// --results registers a results file's entries (as overlap-bake would bake them), so part 2
// dispatches by real tuning results; otherwise by a synthetic sweep for part 1 and the model for
// part 2.
#include "saxpy.overlap.h"

#include "overlap/Device.h"
#include "overlap/Dispatch.h"
#include "overlap/PinnedBuffer.h"
#include "tune/ResultsFile.h"
#include "tune/ResultsRegistration.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

// Nanoseconds per call of `body(i)`: the median of 5 batches of `iterations` calls.
template <class Body> double nsPerCall(long long iterations, Body&& body) {
  std::vector<double> batches;
  for (int batch = 0; batch < 5; ++batch) {
    const Clock::time_point start = Clock::now();
    for (long long i = 0; i < iterations; ++i)
      body(i);
    batches.push_back(secondsSince(start) * 1e9 / static_cast<double>(iterations));
  }
  return median(batches);
}

// Keeps the compiler from dropping a loop whose result is unused.
volatile int gSink = 0;

struct SaxpyArgs {
  int n = 0;
  float a = 1e-3f;
  const float* x = nullptr;
  float* y = nullptr;
  const void* pointers[4] = {&n, &a, &x, &y};
};

bool gpu_present() {
  int count = 0;
  const bool present = cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
  cudaGetLastError();
  return present;
}

// A sweep of saxpy for the current device, as a results file would hold it: part 1 times the
// lookup through tuning results without having tuned.
void registerSyntheticSweep(const std::string& device) {
  overlap::tune::ResultsEntry entry;
  entry.kernel = "saxpy";
  entry.device = device;
  const std::pair<long long, overlap::model::Candidate> winners[] = {
      {4096, {overlap::Variant::Mapped, 1}},
      {262144, {overlap::Variant::Streams, 4}},
      {16777216, {overlap::Variant::Streams, 16}},
      {268435456, {overlap::Variant::Hybrid, 32}}};
  for (const auto& [extent, choice] : winners) {
    overlap::tune::ResultsSize size;
    size.extent = extent;
    size.choice = choice;
    size.medianSeconds = 1e-9 * static_cast<double>(extent);
    size.predictedSeconds = size.medianSeconds;
    size.kernelSeconds = size.medianSeconds / 10;
    entry.sizes.push_back(size);
  }
  overlap::tune::ResultsFile file;
  file.put(entry);
  overlap::tune::registerResults(file);
}

overlap::Status runDirectly(const SaxpyArgs& call, const overlap::RunConfig& config) {
  switch (config.variant) {
  case overlap::Variant::Explicit:
    return saxpy_explicit(call.n, call.a, call.x, call.y);
  case overlap::Variant::Mapped:
    return saxpy_mapped(call.n, call.a, call.x, call.y);
  case overlap::Variant::Streams:
    return saxpy_streams(call.n, call.a, call.x, call.y, config.streams.streams,
                         config.streams.order);
  case overlap::Variant::Hybrid:
    return saxpy_hybrid(call.n, call.a, call.x, call.y, config.streams.streams,
                        config.streams.order);
  }
  return {};
}

} // namespace

int main(int argc, char** argv) {
  long long iterations = 2000000;
  std::string resultsPath;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string option = argv[i];
    if (option == "--iterations")
      iterations = std::max(1LL, std::atoll(argv[i + 1]));
    else if (option == "--results")
      resultsPath = argv[i + 1];
    else {
      std::cerr << "usage: overlap_dispatch_bench [--results FILE] [--iterations N]\n";
      return 1;
    }
  }
  const bool gpu = gpu_present();
  const std::string device = overlap::currentDeviceName();
  std::printf("overlap dispatch benchmark on %s\n\n", gpu ? device.c_str() : "no GPU");

  // 1. The choice alone.
  SaxpyArgs call;
  call.n = 100003;
  std::printf("%-58s %12s\n", "the choice alone (saxpy, n = 100003 unless said)", "ns per call");
  const auto row = [&](const char* name, double ns) { std::printf("%-58s %12.1f\n", name, ns); };
  overlap::chooseForCall(saxpy_descriptor, call.pointers); // the class's first call
  row("kept choice of the model (one size class)", nsPerCall(iterations, [&](long long) {
        gSink = static_cast<int>(overlap::chooseForCall(saxpy_descriptor, call.pointers).source);
      }));
  // After the first choice, as in a program calling K_tuned: timed first, before anything else of
  // CUDA ran, it measured 1.8 us a call against the whole kept choice's 0.11 us (which calls it).
  row("cudaGetDevice alone (part of every choice)", nsPerCall(iterations, [](long long) {
        int device = 0;
        gSink = cudaGetDevice(&device) + device;
      }));
  row("choice computed afresh (model; every call before issue 19)",
      nsPerCall(std::max(1LL, iterations / 20000), [&](long long) {
        gSink = static_cast<int>(
            overlap::chooseVariant(saxpy_descriptor, call.pointers, device).source);
      }));
  if (resultsPath.empty()) {
    registerSyntheticSweep(device);
  } else {
    overlap::tune::ResultsFile file;
    std::string error;
    if (!overlap::tune::readResultsFile(resultsPath, &file, &error)) {
      std::cerr << "overlap_dispatch_bench: " << error << "\n";
      return 1;
    }
    overlap::tune::registerResults(file);
  }
  overlap::chooseForCall(saxpy_descriptor, call.pointers);
  row("kept choice of the tuning results (one size class)", nsPerCall(iterations, [&](long long) {
        gSink = static_cast<int>(overlap::chooseForCall(saxpy_descriptor, call.pointers).source);
      }));
  const int sizes[] = {5000, 100003, 3000000, 70000000};
  SaxpyArgs calls[4];
  for (int i = 0; i < 4; ++i) {
    calls[i].n = sizes[i];
    overlap::chooseForCall(saxpy_descriptor, calls[i].pointers);
  }
  row("kept choice of the tuning results (4 classes in turn)",
      nsPerCall(iterations, [&](long long i) {
        gSink = static_cast<int>(
            overlap::chooseForCall(saxpy_descriptor, calls[i & 3].pointers).source);
      }));
  // With arrays: K_tuned also looks up the memory of each (CallMemory.h, remembered per thread).
  std::vector<float> hostX(static_cast<std::size_t>(call.n)), hostY(hostX.size());
  SaxpyArgs withArrays;
  withArrays.n = call.n;
  withArrays.x = hostX.data();
  withArrays.y = hostY.data();
  overlap::chooseForCall(saxpy_descriptor, withArrays.pointers);
  row("kept choice, the arrays' memory looked up (pageable x, y)",
      nsPerCall(iterations, [&](long long) {
        gSink =
            static_cast<int>(overlap::chooseForCall(saxpy_descriptor, withArrays.pointers).source);
      }));
  row("choice computed afresh (tuning results, between two sizes)",
      nsPerCall(std::max(1LL, iterations / 20000), [&](long long) {
        gSink = static_cast<int>(
            overlap::chooseVariant(saxpy_descriptor, call.pointers, device).source);
      }));

  // 2. End to end.
  if (!gpu) {
    std::printf("\nno GPU: the end-to-end part is skipped\n");
  } else {
    std::printf("\n%-10s %-28s %8s %12s %12s %9s %11s\n", "n", "K_tuned chose", "calls",
                "K_tuned [ms]", "direct [ms]", "ratio", "diff [us]");
    for (const long long n : {100000LL, 67108864LL}) {
      overlap::PinnedBuffer x, y;
      const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(float);
      if (!overlap::PinnedBuffer::allocate(bytes, &x).ok() ||
          !overlap::PinnedBuffer::allocate(bytes, &y).ok()) {
        std::cerr << "overlap_dispatch_bench: cannot allocate " << bytes << " pinned bytes\n";
        return 1;
      }
      std::fill_n(static_cast<float*>(x.data()), n, 0.5f);
      std::fill_n(static_cast<float*>(y.data()), n, 0.25f);
      SaxpyArgs big;
      big.n = static_cast<int>(n);
      big.x = static_cast<const float*>(x.data());
      big.y = static_cast<float*>(y.data());
      overlap::Status status = saxpy_tuned(big.n, big.a, big.x, big.y);
      const std::optional<overlap::VariantChoice> choice =
          overlap::lastDispatchChoice(saxpy_descriptor);
      if (!status.ok() || !choice) {
        std::cerr << "overlap_dispatch_bench: saxpy_tuned failed: " << status.message() << "\n";
        return 1;
      }
      status = runDirectly(big, choice->config); // warm-up of the direct path
      const int calls = n > 1000000 ? 30 : 2000;
      std::vector<double> tuned, direct;
      for (int i = 0; i < calls && status.ok(); ++i) {
        Clock::time_point start = Clock::now();
        status = saxpy_tuned(big.n, big.a, big.x, big.y);
        tuned.push_back(secondsSince(start));
        start = Clock::now();
        overlap::keepFirst(status, runDirectly(big, choice->config));
        direct.push_back(secondsSince(start));
      }
      if (!status.ok()) {
        std::cerr << "overlap_dispatch_bench: " << status.message() << "\n";
        return 1;
      }
      const double t = median(tuned), d = median(direct);
      const std::string chose = overlap::describe(choice->config);
      std::printf("%-10lld %-28s %8d %12.4f %12.4f %8.4fx %11.2f  (%s)\n", n, chose.c_str(), calls,
                  t * 1e3, d * 1e3, t / d, (t - d) * 1e6, overlap::to_string(choice->source));
    }
  }
  return 0;
}
