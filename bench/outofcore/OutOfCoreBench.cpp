// The out-of-core benchmark of issue 22 (scripts/bench.sh outofcore): saxpy, sepia and buoydiff
// with arrays 4x the device-memory budget, each run out of core (DeviceBuffers::Ring under the
// budget) and with unlimited memory (DeviceBuffers::Full) at the same streams and chunks,
// interleaved, against the link limit (the same bytes copied both ways at once, nothing else);
// then saxpy once more with most of the GPU's memory taken by a ballast allocation and the
// automatic budget. Pinned arrays; whole calls on the host clock, medians; every result checked
// against the CPU reference bit for bit.
//
//   bench_out_of_core [--budget 1GiB] [--streams 4] [--repeats 5] --output DIR
//
// Writes DIR/outofcore.json and DIR/outofcore.md.
#include "LargeApps.h"
#include "overlap/ByteSize.h"
#include "overlap/DeviceContext.h"
#include "overlap/DeviceMemoryBudget.h"

#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

namespace {

using Options = bench::LargeCallOptions;

using bench::App;
using bench::check;
using bench::checkCuda;
using bench::fail;
using bench::fullBytes;
using bench::jsonString;
using bench::median;
using bench::Random;
using bench::seconds;

// The application's Streams call with `config`.
overlap::Status runStreams(const App& app, const overlap::StreamsConfig& config) {
  return app.run(overlap::RunConfig{overlap::Variant::Streams, config});
}

struct Row {
  std::string name;
  std::string shape;
  std::string setting;
  std::size_t bytes = 0; // device bytes of the full buffers
  int streams = 0;
  int chunks = 0;
  double fullSeconds = 0;
  double ringSeconds = 0;
  double linkSeconds = 0;
  bool verified = false;
  std::string explicitRefusal;
};

// The fewest chunks (a multiple of the streams) whose ring fits the budget, found by calling.
int ringChunks(const App& app, const Options& options) {
  for (int chunks = options.streams; chunks <= (1 << 16); chunks *= 2) {
    overlap::StreamsConfig config{options.streams, overlap::IssueOrder::DepthFirst};
    config.chunks = chunks;
    config.buffers = overlap::DeviceBuffers::Ring;
    config.deviceMemoryBudget = options.size;
    if (runStreams(app, config).ok())
      return chunks;
    (void)cudaGetLastError();
  }
  fail(app.name + ": no ring fits the budget");
}

Row measure(const App& app, const Options& options, overlap::calibration::AllLinksBench& link) {
  Row row;
  row.name = app.name;
  row.shape = app.shape;
  row.bytes = fullBytes(app);
  row.streams = options.streams;
  row.chunks = ringChunks(app, options);
  overlap::StreamsConfig full{options.streams, overlap::IssueOrder::DepthFirst};
  full.chunks = row.chunks;
  full.buffers = overlap::DeviceBuffers::Full;
  full.deviceMemoryBudget = SIZE_MAX;
  overlap::StreamsConfig ring = full;
  ring.buffers = overlap::DeviceBuffers::Ring;
  ring.deviceMemoryBudget = options.size;
  row.verified = true;
  for (const overlap::StreamsConfig* config : {&full, &ring}) {
    app.reset();
    check(runStreams(app, *config),
          app.name + " " + overlap::describe(overlap::Variant::Streams, *config));
    row.verified = row.verified && app.verify();
  }
  std::vector<double> fullTimes, ringTimes, linkTimes;
  for (int r = 0; r < options.repeats; ++r) {
    fullTimes.push_back(seconds([&] { return runStreams(app, full); }, app.name + " full"));
    // The full buffers leave the cache holding them; the ring's call then reuses that block, as
    // any process would. Out of core with memory to spare is the ring's layout all the same.
    ringTimes.push_back(seconds([&] { return runStreams(app, ring); }, app.name + " ring"));
    linkTimes.push_back(bench::linkSeconds(link, app.inBytes, app.outBytes, 1));
  }
  row.fullSeconds = median(fullTimes);
  row.ringSeconds = median(ringTimes);
  row.linkSeconds = median(linkTimes);
  std::printf("%-9s %-36s %5.1f GiB  N=%d C=%-5d full %8.2f ms  ring %8.2f ms (%.3fx)  link %8.2f "
              "ms (%.3fx)  %s\n",
              row.name.c_str(), row.shape.c_str(), static_cast<double>(row.bytes) / (1 << 30),
              row.streams, row.chunks, row.fullSeconds * 1e3, row.ringSeconds * 1e3,
              row.ringSeconds / row.fullSeconds, row.linkSeconds * 1e3,
              row.ringSeconds / row.linkSeconds, row.verified ? "verified" : "WRONG RESULT");
  return row;
}

// saxpy with most of the device's memory taken: the automatic budget (free memory less the
// margin) is what is left, and Explicit is refused.
Row ballast(const Options& options, Random& random, overlap::calibration::AllLinksBench& link) {
  check(overlap::releaseCachedDeviceMemory(), "releaseCachedDeviceMemory");
  std::size_t free = 0, total = 0;
  checkCuda(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
  const std::size_t leave = options.size + overlap::kDeviceMemoryMargin;
  void* ballastBlock = nullptr;
  checkCuda(cudaMalloc(&ballastBlock, free - leave), "cudaMalloc(ballast)");
  std::vector<overlap::PinnedBuffer> keep;
  const App app = bench::saxpyApp(4 * options.size, random, &keep);
  Row row;
  row.name = app.name;
  row.shape = app.shape;
  row.setting = "ballast: " + overlap::formatBytes(static_cast<double>(free - leave)) +
                " taken, automatic budget";
  row.bytes = fullBytes(app);
  row.streams = options.streams;
  overlap::StreamsConfig config{options.streams, overlap::IssueOrder::DepthFirst};
  app.reset();
  check(runStreams(app, config), "saxpy beside the ballast");
  row.verified = app.verify();
  std::vector<double> times, linkTimes;
  for (int r = 0; r < options.repeats; ++r) {
    times.push_back(seconds([&] { return runStreams(app, config); }, "saxpy beside the ballast"));
    linkTimes.push_back(bench::linkSeconds(link, app.inBytes, app.outBytes, 1));
  }
  row.ringSeconds = median(times);
  row.linkSeconds = median(linkTimes);
  const overlap::Status refused = app.run(overlap::RunConfig{});
  row.explicitRefusal = refused.ok() ? "(ran)" : refused.call;
  checkCuda(cudaFree(ballastBlock), "cudaFree(ballast)");
  std::printf("ballast   %-36s automatic budget: %8.2f ms, link %8.2f ms (%.3fx) %s\n  Explicit: "
              "%s\n",
              row.shape.c_str(), row.ringSeconds * 1e3, row.linkSeconds * 1e3,
              row.ringSeconds / row.linkSeconds, row.verified ? "verified" : "WRONG RESULT",
              row.explicitRefusal.c_str());
  return row;
}

void write(const Options& options, const std::vector<Row>& rows, const std::string& device) {
  std::ofstream json(options.output + "/outofcore.json");
  json << "{\n  \"device\": " << jsonString(device) << ",\n  \"budget_bytes\": " << options.size
       << ",\n  \"repeats\": " << options.repeats << ",\n  \"rows\": [\n";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    json << "    {\"app\": " << jsonString(r.name) << ", \"shape\": " << jsonString(r.shape)
         << ", \"setting\": " << jsonString(r.setting) << ", \"device_bytes\": " << r.bytes
         << ", \"streams\": " << r.streams << ", \"chunks\": " << r.chunks
         << ", \"full_s\": " << r.fullSeconds << ", \"ring_s\": " << r.ringSeconds
         << ", \"link_s\": " << r.linkSeconds
         << ", \"verified\": " << (r.verified ? "true" : "false")
         << ", \"explicit\": " << jsonString(r.explicitRefusal) << "}"
         << (i + 1 < rows.size() ? ",\n" : "\n");
  }
  json << "  ]\n}\n";
  std::ofstream md(options.output + "/outofcore.md");
  md << "| application | arrays | streams x chunks | full buffers | out of core | ratio | link "
        "limit | out of core / link | verified |\n|---|---|---|---:|---:|---:|---:|---:|---|\n";
  for (const Row& r : rows) {
    const auto ms = [](double s) {
      char text[32];
      std::snprintf(text, sizeof text, "%.1f ms", s * 1e3);
      return std::string(text);
    };
    const auto ratio = [](double a, double b) {
      char text[32];
      std::snprintf(text, sizeof text, "%.3f", a / b);
      return std::string(text);
    };
    md << "| " << r.name << (r.setting.empty() ? "" : " (" + r.setting + ")") << " | "
       << overlap::formatBytes(static_cast<double>(r.bytes)) << " (" << r.shape << ") | "
       << r.streams << " x " << (r.chunks > 0 ? std::to_string(r.chunks) : "auto") << " | "
       << (r.fullSeconds > 0 ? ms(r.fullSeconds) : "-") << " | " << ms(r.ringSeconds) << " | "
       << (r.fullSeconds > 0 ? ratio(r.ringSeconds, r.fullSeconds) : "-") << " | "
       << ms(r.linkSeconds) << " | " << ratio(r.ringSeconds, r.linkSeconds) << " | "
       << (r.verified ? "yes" : "NO") << " |\n";
  }
  for (const Row& r : rows)
    if (!r.explicitRefusal.empty())
      md << "\nExplicit beside the ballast: " << r.explicitRefusal << "\n";
}

Options parse(int argc, char** argv) {
  return bench::parseLargeCallOptions(
      argc, argv, "--budget", std::size_t{1} << 30,
      "usage: bench_out_of_core [--budget 1GiB] [--streams 4] [--repeats 5] --output DIR");
}

} // namespace

int main(int argc, char** argv) {
  const Options options = parse(argc, argv);
  cudaDeviceProp properties{};
  checkCuda(cudaGetDeviceProperties(&properties, 0), "cudaGetDeviceProperties");
  std::printf("%s, budget %s, arrays 4x the budget, %d repeats\n", properties.name,
              overlap::formatBytes(static_cast<double>(options.size)).c_str(), options.repeats);
  Random random(20261126);
  const auto link = bench::makeLinks(1);
  std::vector<Row> rows;
  for (const auto make : {&bench::saxpyApp, &bench::sepiaApp, &bench::buoydiffApp}) {
    std::vector<overlap::PinnedBuffer> keep;
    const App app = make(4 * options.size, random, &keep);
    rows.push_back(measure(app, options, *link));
    check(overlap::releaseCachedDeviceMemory(), "releaseCachedDeviceMemory");
  }
  rows.push_back(ballast(options, random, *link));
  write(options, rows, properties.name);
  for (const Row& row : rows)
    if (!row.verified)
      return 2;
  return 0;
}
