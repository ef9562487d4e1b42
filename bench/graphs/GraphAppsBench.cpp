// Issue 23's application benchmark of the graph forms (scripts/bench.sh graphs): for each of the
// papers' applications, Streams and Hybrid on 4 and 16 streams against their graph forms
// (StreamsConfig::graph), as a loop of `calls` asynchronous calls on one stream (the descriptor's
// runAsync: what K_<variant>_async runs) with one synchronization after it. Per call: the host's
// issue time (until the last call returned) and the wall time (until the results are in). Rounds
// interleave the configurations; medians. The arrays are pinned, allocated and filled at random by
// the tuner's DescriptorRunner, which also checks every configuration against Explicit before the
// loops: the graph forms twice, so that a replay is among the calls checked.
//
//   bench_graph_apps [--calls 20] [--rounds 5] --output DIR --app "NAME|KERNEL|ARG=V ARG=V" ...
//                                                         # DIR/graphs.{json,md}
#include "BenchCheck.h"
#include "CallLoop.h"
#include "overlap/Descriptor.h"
#include "overlap/Dispatch.h"
#include "tune/ArgumentSlots.h"
#include "tune/DescriptorRunner.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace {

using bench::check;
using bench::checkCuda;
using bench::fail;

struct App {
  std::string name, kernel;
  std::map<std::string, long long> arguments;
};

// "NAME|KERNEL|ARG=V ARG=V", as scripts/bench.sh lists the applications.
App parseApp(const std::string& text) {
  App app;
  std::istringstream in(text);
  std::string arguments;
  if (!std::getline(in, app.name, '|') || !std::getline(in, app.kernel, '|'))
    fail("--app wants NAME|KERNEL|ARG=V ...: " + text);
  std::getline(in, arguments);
  std::istringstream words(arguments);
  for (std::string word; words >> word;) {
    const std::size_t equals = word.find('=');
    if (equals == std::string::npos)
      fail("--app argument without a value: " + word);
    app.arguments[word.substr(0, equals)] = std::atoll(word.c_str() + equals + 1);
  }
  return app;
}

using Timing = bench::LoopTiming;

Timing timeLoop(const overlap::KernelDescriptor& kernel, overlap::ArgPointers args,
                const overlap::RunConfig& config, int calls, cudaStream_t stream) {
  return bench::timeLoop(calls, stream,
                         [&] { check(kernel.runAsync(args, config, stream), kernel.name); });
}

// A plain configuration and its graph form, side by side.
struct Row {
  std::string app, config;
  Timing plain, graph;
  bool verified = false;
};

// Streams and Hybrid on 4 and 16 streams; each is timed and checked as the tuner runs it
// (model::streamsConfig).
std::vector<overlap::model::Candidate> plainCandidates() {
  std::vector<overlap::model::Candidate> candidates;
  for (int streams : {4, 16})
    for (overlap::Variant variant : {overlap::Variant::Streams, overlap::Variant::Hybrid}) {
      overlap::model::Candidate candidate;
      candidate.variant = variant;
      candidate.streams = streams;
      candidates.push_back(candidate);
    }
  return candidates;
}

overlap::RunConfig configOf(const overlap::model::Candidate& candidate) {
  return {candidate.variant, overlap::model::streamsConfig(candidate)};
}

std::vector<Row> measure(const App& app, int calls, int rounds, cudaStream_t stream) {
  const overlap::KernelDescriptor* kernel = overlap::findRegisteredKernel(app.kernel.c_str());
  if (kernel == nullptr || kernel->runAsync == nullptr)
    fail("no kernel " + app.kernel + " with asynchronous calls in this program");
  std::vector<std::string> unknown;
  const std::map<std::string, long long> arguments =
      overlap::tune::tuningArguments(*kernel, app.arguments, &unknown);
  if (!unknown.empty())
    fail(app.name + ": no parameter " + unknown.front());
  std::string error;
  overlap::tune::RunnerOptions options;
  const std::unique_ptr<overlap::tune::DescriptorRunner> runner =
      overlap::tune::DescriptorRunner::create(*kernel, arguments, options, &error);
  if (!runner)
    fail(app.name + ": " + error);
  // One timed run per check: the checks are of results, the loops below do the timing.
  const overlap::tune::TimingPlan once{0, 1, 1, 1.0, 0.0};
  const overlap::tune::RunResult reference = runner->runReference(once);
  if (reference.verification != overlap::tune::Verification::Reference)
    fail(app.name + " Explicit: " + reference.error);

  std::vector<Row> rows;
  std::vector<overlap::RunConfig> configs; // plain, graph, plain, graph, ...
  for (const overlap::model::Candidate& plain : plainCandidates()) {
    Row row;
    row.app = app.name;
    row.config = overlap::model::describe(plain);
    row.verified = true;
    overlap::model::Candidate graph = plain;
    graph.graph = true;
    for (const overlap::model::Candidate& candidate : {plain, graph}) {
      for (int check = 0; check < 2; ++check) { // a graph form's second check replays
        const overlap::tune::RunResult result = runner->runCandidate(candidate, once);
        if (result.verification != overlap::tune::Verification::Passed) {
          std::fprintf(stderr, "%s %s: %s\n", app.name.c_str(),
                       overlap::model::describe(candidate).c_str(), result.error.c_str());
          row.verified = false;
        }
      }
      configs.push_back(configOf(candidate));
    }
    rows.push_back(row);
  }
  if (!std::all_of(rows.begin(), rows.end(), [](const Row& row) { return row.verified; }))
    return rows; // nothing timed: a configuration that computes wrongly has no time to report

  const overlap::ArgPointers args = runner->arguments();
  for (const overlap::RunConfig& config : configs) { // the graphs of these arguments, captured
    (void)timeLoop(*kernel, args, config, 2, stream);
  }
  std::vector<std::vector<double>> issue(configs.size()), wall(configs.size());
  for (int round = 0; round < rounds; ++round)
    for (std::size_t c = 0; c < configs.size(); ++c) {
      const Timing timing = timeLoop(*kernel, args, configs[c], calls, stream);
      issue[c].push_back(timing.issueUs);
      wall[c].push_back(timing.wallUs);
    }
  for (std::size_t r = 0; r < rows.size(); ++r) {
    rows[r].plain = {bench::median(wall[2 * r]), bench::median(issue[2 * r])};
    rows[r].graph = {bench::median(wall[2 * r + 1]), bench::median(issue[2 * r + 1])};
  }
  return rows;
}

} // namespace

int main(int argc, char** argv) {
  bench::LoopOptions defaults;
  defaults.calls = 20;
  const bench::LoopOptions options = bench::parseLoopOptions(
      argc, argv, defaults, true,
      "usage: bench_graph_apps [--calls 20] [--rounds 5] --output DIR --app \"NAME|KERNEL|ARG=V "
      "...\" ...");
  const int calls = options.calls;
  const int rounds = options.rounds;
  const std::string& output = options.output;
  std::vector<App> apps;
  for (const std::string& app : options.apps)
    apps.push_back(parseApp(app));
  cudaDeviceProp prop{};
  checkCuda(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  cudaStream_t stream = nullptr;
  checkCuda(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");

  std::vector<Row> rows;
  for (const App& app : apps)
    for (const Row& row : measure(app, calls, rounds, stream)) {
      rows.push_back(row);
      std::printf("%-24s %-14s plain: issue %9.1f us, wall %9.1f us | graph: issue %9.1f us, "
                  "wall %9.1f us | %s\n",
                  row.app.c_str(), row.config.c_str(), row.plain.issueUs, row.plain.wallUs,
                  row.graph.issueUs, row.graph.wallUs, row.verified ? "verified" : "DIFFERS");
      std::fflush(stdout);
    }
  checkCuda(cudaStreamDestroy(stream), "cudaStreamDestroy");

  std::ofstream md(output + "/graphs.md");
  md << "# Graph forms against plain pipelines, " << apps.size() << " applications (" << prop.name
     << ")\n\nLoops of " << calls << " asynchronous calls on one stream, per call, median of "
     << rounds
     << " interleaved rounds; issue: until the last call returned, wall: until the results are "
        "in.\n\n| application | pipeline | plain issue µs | graph issue µs | graph / plain issue "
        "| plain wall µs | graph wall µs | graph / plain wall | verified |\n"
        "|---|---|---:|---:|---:|---:|---:|---:|---|\n";
  std::ofstream json(output + "/graphs.json");
  json << "{\"device\": \"" << prop.name << "\", \"calls\": " << calls << ", \"rounds\": " << rounds
       << ", \"rows\": [";
  bool allVerified = true;
  char line[512];
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    allVerified &= r.verified;
    std::snprintf(line, sizeof line, "| %s | %s | %.1f | %.1f | %.2f | %.1f | %.1f | %.3f | %s |\n",
                  r.app.c_str(), r.config.c_str(), r.plain.issueUs, r.graph.issueUs,
                  r.graph.issueUs / r.plain.issueUs, r.plain.wallUs, r.graph.wallUs,
                  r.graph.wallUs / r.plain.wallUs, r.verified ? "yes" : "NO");
    md << line;
    json << (i == 0 ? "" : ",") << "\n  {\"app\": \"" << r.app << "\", \"pipeline\": \"" << r.config
         << "\", \"verified\": " << (r.verified ? "true" : "false")
         << ", \"plain_issue_us\": " << r.plain.issueUs << ", \"plain_wall_us\": " << r.plain.wallUs
         << ", \"graph_issue_us\": " << r.graph.issueUs << ", \"graph_wall_us\": " << r.graph.wallUs
         << "}";
  }
  json << "\n]}\n";
  return allVerified ? 0 : 1;
}
