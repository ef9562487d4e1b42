// Issue 23's loop benchmark (scripts/bench.sh asyncloop): an application loop of `calls` calls of
// saxpy (1 Mi floats), sepia (1 Mi pixels) and buoydiff (42 levels of a 16 Ki plane), per variant,
// three ways: synchronous (K_<variant> per call), asynchronous (K_<variant>_async on one stream,
// one synchronization after the loop) and as a CUDA graph (one asynchronous call captured by the
// caller, replayed per call). The variants: Explicit, Mapped, Streams(4), Hybrid(4),
// Streams(4, 64 chunks), and the three pipelines' graph forms (StreamsConfig::graph), whose own
// cache replays the call in the first two ways. Per call: the wall time of the loop and the host's
// issue time (until the last call returned). A fourth way, the asynchronous loop with each copy
// issued alone (overlap::setBatchedCopies(false)), measures what batching a stream's copies into
// one cudaMemcpyBatchAsync saves. Rounds interleave the four ways; medians. Pinned arrays; after
// the loops one asynchronous call and one replay are checked bit for bit against Explicit's
// result.
//
//   bench_async_loop [--calls 100] [--rounds 5] --output DIR   # DIR/asyncloop.{json,md}
#include "buoydiff.overlap.h"
#include "saxpy.overlap.h"
#include "sepia.overlap.h"

#include "BenchCheck.h"
#include "CallLoop.h"
#include "overlap/CopyBatch.h"
#include "overlap/Dispatch.h"
#include "overlap/PinnedBuffer.h"

#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace {

using bench::check;
using bench::checkCuda;
using bench::fail;

overlap::PinnedBuffer pinned(std::size_t bytes) {
  overlap::PinnedBuffer buffer;
  check(overlap::PinnedBuffer::allocate(bytes, &buffer), "PinnedBuffer::allocate");
  return buffer;
}

// One application: its call, synchronous or on a stream, and how to reset and read its outputs.
struct App {
  std::string name;
  std::function<overlap::Status(const overlap::RunConfig&, cudaStream_t stream, bool async)> call;
  std::function<void()> reset;               // inputs and outputs as before the first call
  std::function<std::vector<char>()> output; // the output bytes
};

App saxpyApp(int n, std::mt19937_64& rng) {
  struct Arrays {
    overlap::PinnedBuffer x, y;
    std::vector<float> x0, y0;
  };
  auto arrays = std::make_shared<Arrays>();
  const std::size_t bytes = sizeof(float) * static_cast<std::size_t>(n);
  arrays->x = pinned(bytes);
  arrays->y = pinned(bytes);
  std::uniform_real_distribution<float> value(0.5f, 2.0f);
  for (int i = 0; i < n; ++i) {
    arrays->x0.push_back(value(rng));
    arrays->y0.push_back(value(rng));
  }
  App app;
  app.name = "saxpy-1M";
  app.call = [=](const overlap::RunConfig& config, cudaStream_t stream, bool async) {
    const float* x = arrays->x.as<float>();
    float* y = arrays->y.as<float>();
    switch (config.variant) {
    case overlap::Variant::Explicit:
      return async ? saxpy_explicit_async(n, 1.5f, x, y, stream) : saxpy_explicit(n, 1.5f, x, y);
    case overlap::Variant::Mapped:
      return async ? saxpy_mapped_async(n, 1.5f, x, y, stream) : saxpy_mapped(n, 1.5f, x, y);
    case overlap::Variant::Streams:
      return async ? saxpy_streams_async(n, 1.5f, x, y, config.streams, stream)
                   : saxpy_streams(n, 1.5f, x, y, config.streams);
    case overlap::Variant::Hybrid:
      break;
    }
    return async ? saxpy_hybrid_async(n, 1.5f, x, y, config.streams, stream)
                 : saxpy_hybrid(n, 1.5f, x, y, config.streams);
  };
  app.reset = [=] {
    std::memcpy(arrays->x.as<void>(), arrays->x0.data(), bytes);
    std::memcpy(arrays->y.as<void>(), arrays->y0.data(), bytes);
  };
  app.output = [=] {
    const char* y = static_cast<const char*>(arrays->y.as<void>());
    return std::vector<char>(y, y + bytes);
  };
  return app;
}

struct PureArrays {
  overlap::PinnedBuffer in, out;
};

// sepia and buoydiff: pure outputs from inputs the calls never change.
template <class Call>
App pureApp(const std::string& name, std::size_t inBytes, std::size_t outBytes,
            std::mt19937_64& rng, Call call) {
  auto arrays = std::make_shared<PureArrays>();
  arrays->in = pinned(inBytes);
  arrays->out = pinned(outBytes);
  // Floats in [1, 2) whatever the input type reads them as bytes: never zero, never NaN.
  auto* in = static_cast<unsigned char*>(arrays->in.as<void>());
  for (std::size_t i = 0; i < inBytes; ++i)
    in[i] = static_cast<unsigned char>(i % 4 == 3 ? 0x3f : rng() >> 56);
  App app;
  app.name = name;
  app.call = [=](const overlap::RunConfig& config, cudaStream_t stream, bool async) {
    return call(config, arrays->in.as<void>(), arrays->out.as<void>(), stream, async);
  };
  app.reset = [=] { std::memset(arrays->out.as<void>(), 0x5a, outBytes); };
  app.output = [=] {
    const char* out = static_cast<const char*>(arrays->out.as<void>());
    return std::vector<char>(out, out + outBytes);
  };
  return app;
}

App sepiaApp(int pixels, std::mt19937_64& rng) {
  const std::size_t bytes = 3 * static_cast<std::size_t>(pixels);
  return pureApp(
      "sepia-1M", bytes, bytes, rng,
      [=](const overlap::RunConfig& config, void* in, void* out, cudaStream_t stream, bool async) {
        const auto* rgb = static_cast<const unsigned char*>(in);
        auto* sepia = static_cast<unsigned char*>(out);
        const overlap::StreamsConfig& s = config.streams;
        switch (config.variant) {
        case overlap::Variant::Explicit:
          return async ? sepia_explicit_async(pixels, rgb, sepia, stream)
                       : sepia_explicit(pixels, rgb, sepia);
        case overlap::Variant::Mapped:
          return async ? sepia_mapped_async(pixels, rgb, sepia, stream)
                       : sepia_mapped(pixels, rgb, sepia);
        case overlap::Variant::Streams:
          return async ? sepia_streams_async(pixels, rgb, sepia, s, stream)
                       : sepia_streams(pixels, rgb, sepia, s);
        case overlap::Variant::Hybrid:
          break;
        }
        return async ? sepia_hybrid_async(pixels, rgb, sepia, s, stream)
                     : sepia_hybrid(pixels, rgb, sepia, s);
      });
}

App buoydiffApp(int levels, long long plane, std::mt19937_64& rng) {
  const std::size_t bytes = sizeof(float) * static_cast<std::size_t>(levels * plane);
  return pureApp(
      "buoydiff-42x16K", bytes, bytes, rng,
      [=](const overlap::RunConfig& config, void* in, void* out, cudaStream_t stream, bool async) {
        const auto* rho = static_cast<const float*>(in);
        auto* dbloc = static_cast<float*>(out);
        const overlap::StreamsConfig& s = config.streams;
        switch (config.variant) {
        case overlap::Variant::Explicit:
          return async ? buoydiff_explicit_async(levels, plane, rho, dbloc, stream)
                       : buoydiff_explicit(levels, plane, rho, dbloc);
        case overlap::Variant::Mapped:
          return async ? buoydiff_mapped_async(levels, plane, rho, dbloc, stream)
                       : buoydiff_mapped(levels, plane, rho, dbloc);
        case overlap::Variant::Streams:
          return async ? buoydiff_streams_async(levels, plane, rho, dbloc, s, stream)
                       : buoydiff_streams(levels, plane, rho, dbloc, s);
        case overlap::Variant::Hybrid:
          break;
        }
        return async ? buoydiff_hybrid_async(levels, plane, rho, dbloc, s, stream)
                     : buoydiff_hybrid(levels, plane, rho, dbloc, s);
      });
}

enum class Way { Sync, Async, Graph, AsyncSingleCopies };
constexpr int kWays = 4;
const char* const kWayNames[] = {"sync", "async", "graph", "async_single_copies"};

using Timing = bench::LoopTiming;

// The graph of one asynchronous call on `stream`, instantiated.
cudaGraphExec_t captureCall(const App& app, const overlap::RunConfig& config, cudaStream_t stream) {
  cudaGraph_t graph = nullptr;
  checkCuda(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal),
            "cudaStreamBeginCapture");
  const overlap::Status status = app.call(config, stream, true);
  checkCuda(cudaStreamEndCapture(stream, &graph), "cudaStreamEndCapture");
  check(status, app.name + " captured");
  cudaGraphExec_t exec = nullptr;
  checkCuda(cudaGraphInstantiate(&exec, graph, 0), "cudaGraphInstantiate");
  checkCuda(cudaGraphDestroy(graph), "cudaGraphDestroy");
  return exec;
}

Timing timeLoop(const App& app, const overlap::RunConfig& config, Way way, int calls,
                cudaStream_t stream, cudaGraphExec_t exec) {
  overlap::setBatchedCopies(way != Way::AsyncSingleCopies);
  const Timing timing = bench::timeLoop(calls, stream, [&] {
    if (way == Way::Graph)
      checkCuda(cudaGraphLaunch(exec, stream), "cudaGraphLaunch");
    else
      check(app.call(config, stream, way != Way::Sync), app.name);
  });
  overlap::setBatchedCopies(true);
  return timing;
}

struct Row {
  std::string app, variant;
  Timing median[kWays];
  bool verified = false;
};

Row measure(const App& app, const overlap::RunConfig& config, int calls, int rounds,
            cudaStream_t stream) {
  Row row;
  row.app = app.name;
  row.variant = overlap::describe(config);
  app.reset();
  // Warm up every way (choices, pools, the graph) before the rounds.
  check(app.call(config, stream, false), app.name);
  check(app.call(config, stream, true), app.name);
  checkCuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  const cudaGraphExec_t exec = captureCall(app, config, stream);
  std::vector<double> wall[kWays], issue[kWays];
  for (int round = 0; round < rounds; ++round)
    for (Way way : {Way::Sync, Way::Async, Way::Graph, Way::AsyncSingleCopies}) {
      const Timing t = timeLoop(app, config, way, calls, stream, exec);
      wall[static_cast<int>(way)].push_back(t.wallUs);
      issue[static_cast<int>(way)].push_back(t.issueUs);
    }
  for (int w = 0; w < kWays; ++w)
    row.median[w] = {bench::median(wall[w]), bench::median(issue[w])};
  // One call each way from the same inputs: the same bytes as Explicit's.
  overlap::RunConfig reference;
  app.reset();
  check(app.call(reference, stream, false), app.name + " Explicit");
  const std::vector<char> want = app.output();
  app.reset();
  check(app.call(config, stream, true), app.name);
  checkCuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  const bool asyncSame = app.output() == want;
  app.reset();
  checkCuda(cudaGraphLaunch(exec, stream), "cudaGraphLaunch");
  checkCuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  row.verified = asyncSame && app.output() == want;
  checkCuda(cudaGraphExecDestroy(exec), "cudaGraphExecDestroy");
  return row;
}

} // namespace

int main(int argc, char** argv) {
  bench::LoopOptions defaults;
  defaults.calls = 100;
  const bench::LoopOptions options =
      bench::parseLoopOptions(argc, argv, defaults, false,
                              "usage: bench_async_loop [--calls 100] [--rounds 5] --output DIR");
  const int calls = options.calls;
  const int rounds = options.rounds;
  const std::string& output = options.output;
  cudaDeviceProp prop{};
  checkCuda(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  cudaStream_t stream = nullptr;
  checkCuda(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
  std::mt19937_64 rng(std::random_device{}());
  const App apps[] = {saxpyApp(1 << 20, rng), sepiaApp(1 << 20, rng), buoydiffApp(42, 16384, rng)};
  std::vector<overlap::RunConfig> configs(4);
  configs[1].variant = overlap::Variant::Mapped;
  configs[2].variant = overlap::Variant::Streams;
  configs[3].variant = overlap::Variant::Hybrid;
  configs[2].streams.streams = configs[3].streams.streams = 4;
  // Many chunks, where the host's issue is most of a call; then each pipeline's graph form.
  configs.push_back(configs[2]);
  configs.back().streams.chunks = 64;
  for (std::size_t i : {2, 3, 4}) {
    configs.push_back(configs[i]);
    configs.back().streams.graph = true;
  }

  std::vector<Row> rows;
  bool allVerified = true;
  for (const App& app : apps)
    for (const overlap::RunConfig& config : configs) {
      rows.push_back(measure(app, config, calls, rounds, stream));
      const Row& r = rows.back();
      allVerified &= r.verified;
      std::printf("%-16s %-26s sync %8.1f us  async %8.1f us (issue %6.1f; copies one by one "
                  "%6.1f)  graph %8.1f us (issue %6.1f)  %s\n",
                  r.app.c_str(), r.variant.c_str(), r.median[0].wallUs, r.median[1].wallUs,
                  r.median[1].issueUs, r.median[3].issueUs, r.median[2].wallUs, r.median[2].issueUs,
                  r.verified ? "verified" : "DIFFERS from Explicit");
    }
  checkCuda(cudaStreamDestroy(stream), "cudaStreamDestroy");

  std::ofstream md(output + "/asyncloop.md");
  md << "# Loops of " << calls << " calls: synchronous, asynchronous, graph (" << prop.name
     << ")\n\nPer call, median of " << rounds
     << " interleaved rounds; wall: the loop until its results are in, issue: until the last "
        "call returned.\n\n| application | variant | sync wall µs | async wall µs | graph wall µs "
        "| sync issue µs | async issue µs | graph issue µs | async / sync | graph / sync | "
        "async issue, copies one by one µs | batched / one by one (issue) | verified "
        "|\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n";
  std::ofstream json(output + "/asyncloop.json");
  json << "{\"device\": \"" << prop.name << "\", \"calls\": " << calls << ", \"rounds\": " << rounds
       << ", \"rows\": [";
  char line[512];
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    std::snprintf(line, sizeof line,
                  "| %s | %s | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.2f | %.2f | %.1f | %.2f "
                  "| %s |\n",
                  r.app.c_str(), r.variant.c_str(), r.median[0].wallUs, r.median[1].wallUs,
                  r.median[2].wallUs, r.median[0].issueUs, r.median[1].issueUs, r.median[2].issueUs,
                  r.median[1].wallUs / r.median[0].wallUs, r.median[2].wallUs / r.median[0].wallUs,
                  r.median[3].issueUs, r.median[1].issueUs / r.median[3].issueUs,
                  r.verified ? "yes" : "NO");
    md << line;
    json << (i == 0 ? "" : ",") << "\n  {\"app\": \"" << r.app << "\", \"variant\": \"" << r.variant
         << "\", \"verified\": " << (r.verified ? "true" : "false");
    for (int w = 0; w < kWays; ++w)
      json << ", \"" << kWayNames[w] << "_wall_us\": " << r.median[w].wallUs << ", \""
           << kWayNames[w] << "_issue_us\": " << r.median[w].issueUs;
    json << "}";
  }
  json << "\n]}\n";
  return allVerified ? 0 : 1;
}
