// What the loop benchmarks (bench/asyncloop, bench/graphs) share: a loop of calls on one stream
// timed per call on the host's clock, medians of interleaved rounds, and their command line.
#pragma once

#include "BenchCheck.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

namespace bench {

struct LoopTiming {
  double wallUs = 0;  // per call, the loop until its results are in
  double issueUs = 0; // per call, until the last call returned
};

// `calls` times issue(), then one synchronization of `stream`.
template <class Issue> LoopTiming timeLoop(int calls, cudaStream_t stream, Issue&& issue) {
  const auto start = std::chrono::steady_clock::now();
  const auto perCallUs = [&] {
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start)
               .count() /
           calls;
  };
  for (int i = 0; i < calls; ++i)
    issue();
  LoopTiming timing;
  timing.issueUs = perCallUs();
  checkCuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  timing.wallUs = perCallUs();
  return timing;
}

inline double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

struct LoopOptions {
  int calls = 0;
  int rounds = 5;
  std::string output;
  std::vector<std::string> apps; // --app, where the program takes it
};

// --calls N --rounds N --output DIR, and --app TEXT (repeatable) where `takesApps`; anything else,
// or no output directory, fails with `usage`.
inline LoopOptions parseLoopOptions(int argc, char** argv, LoopOptions options, bool takesApps,
                                    const std::string& usage) {
  for (int i = 1; i < argc; i += 2) {
    const std::string flag = argv[i];
    if (i + 1 == argc)
      fail("no value after " + flag + "\n" + usage);
    if (flag == "--calls")
      options.calls = std::atoi(argv[i + 1]);
    else if (flag == "--rounds")
      options.rounds = std::atoi(argv[i + 1]);
    else if (flag == "--output")
      options.output = argv[i + 1];
    else if (flag == "--app" && takesApps)
      options.apps.push_back(argv[i + 1]);
    else
      fail("unknown flag " + flag + "\n" + usage);
  }
  if (options.output.empty() || options.calls < 1 || options.rounds < 1 ||
      (takesApps && options.apps.empty()))
    fail(usage);
  return options;
}

} // namespace bench
