// The multi-GPU benchmark of issue 24 (scripts/bench.sh multigpu): saxpy, sepia, pop-state and
// buoydiff with gigabytes of traffic per call (inputs in plus outputs back), each variant (the
// pipelines at two stream and chunk counts) on one GPU and split across the GPUs
// (StreamsConfig::devices), interleaved call by call, against the link limit of one GPU and of
// all of them at once (the same bytes copied both ways, nothing else). Pinned arrays; whole calls
// on the host clock, medians; every variant's result checked against the CPU's bit for bit.
//
//   bench_multi_gpu [--traffic 4GiB] [--streams 4] [--repeats 5] --output DIR
//
// Writes DIR/multigpu.json and DIR/multigpu.md.
#include "LargeApps.h"
#include "overlap/ByteSize.h"
#include "overlap/Device.h"
#include "overlap/DeviceContext.h"

#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

namespace {

using bench::App;
using bench::check;
using bench::checkCuda;
using bench::fail;
using bench::jsonString;
using bench::median;
using bench::Random;
using bench::seconds;

using Options = bench::LargeCallOptions;

struct Candidate {
  overlap::RunConfig config;
  std::string name;
  double seconds = 0;
  bool verified = false;
};

struct Row {
  std::string app;
  std::string shape;
  std::size_t traffic = 0;
  std::vector<Candidate> candidates;
  double link1 = 0; // one GPU's link limit
  double linkAll = 0;
  int devices = 0;
};

// Every variant on one GPU and split, the pipelines also with 4x the streams and 4 chunks a
// stream (what tunings of these calls pick: bench/results/h100x2-2026-11-27-multigpu.md).
std::vector<Candidate> candidates(int devices, int streams) {
  std::vector<Candidate> out;
  for (int g : {1, devices}) {
    const auto add = [&](overlap::Variant variant, int streamCount, int chunks) {
      overlap::RunConfig config{variant, overlap::StreamsConfig{streamCount}};
      config.streams.chunks = chunks;
      config.streams.devices = g;
      out.push_back({config, overlap::describe(variant, config.streams)});
    };
    add(overlap::Variant::Explicit, 1, 0);
    add(overlap::Variant::Mapped, 1, 0);
    for (overlap::Variant variant : {overlap::Variant::Streams, overlap::Variant::Hybrid}) {
      add(variant, streams, 0);
      add(variant, 4 * streams, 16 * streams);
    }
  }
  return out;
}

const Candidate& best(const Row& row, bool split) {
  const Candidate* found = nullptr;
  for (const Candidate& c : row.candidates)
    if ((c.config.streams.devices != 1) == split &&
        (found == nullptr || c.seconds < found->seconds))
      found = &c;
  return *found;
}

Row measure(const App& app, int devices, const Options& options,
            overlap::calibration::AllLinksBench& links) {
  Row row;
  row.app = app.name;
  row.shape = app.shape;
  row.traffic = app.inBytes + app.outBytes;
  row.devices = devices;
  row.candidates = candidates(devices, options.streams);
  for (Candidate& c : row.candidates) {
    app.reset();
    check(app.run(c.config), app.name + " " + c.name);
    c.verified = app.verify();
  }
  std::vector<std::vector<double>> times(row.candidates.size());
  std::vector<double> link1, linkAll;
  for (int r = 0; r < options.repeats; ++r) {
    for (std::size_t k = 0; k < row.candidates.size(); ++k)
      times[k].push_back(seconds([&] { return app.run(row.candidates[k].config); },
                                 app.name + " " + row.candidates[k].name));
    link1.push_back(bench::linkSeconds(links, app.inBytes, app.outBytes, 1));
    linkAll.push_back(bench::linkSeconds(links, app.inBytes, app.outBytes, devices));
  }
  for (std::size_t k = 0; k < row.candidates.size(); ++k)
    row.candidates[k].seconds = median(times[k]);
  row.link1 = median(link1);
  row.linkAll = median(linkAll);
  const Candidate& one = best(row, false);
  const Candidate& split = best(row, true);
  std::printf("%-9s %-34s %5.2f GiB  one GPU: %-28s %8.2f ms  %d GPUs: %-36s %8.2f ms  speed-up "
              "%.2fx  (links: one %.2f ms, all %.2f ms)\n",
              row.app.c_str(), row.shape.c_str(), static_cast<double>(row.traffic) / (1 << 30),
              one.name.c_str(), one.seconds * 1e3, devices, split.name.c_str(), split.seconds * 1e3,
              one.seconds / split.seconds, row.link1 * 1e3, row.linkAll * 1e3);
  for (const Candidate& c : row.candidates)
    std::printf("    %-40s %8.2f ms %s\n", c.name.c_str(), c.seconds * 1e3,
                c.verified ? "verified" : "WRONG RESULT");
  return row;
}

std::string ms(double s) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f ms", s * 1e3);
  return text;
}

std::string ratio(double a, double b) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", a / b);
  return text;
}

// Each device's bus, NUMA node and near CPUs: where the host side of its link lies.
std::vector<std::string> topology(int devices) {
  std::vector<std::string> lines;
  for (int d = 0; d < devices; ++d) {
    overlap::DeviceDescription description;
    check(overlap::describeDevice(d, &description), "describeDevice");
    lines.push_back("device " + std::to_string(d) + ": bus " + description.pciBusId + ", " +
                    description.pcie.describe() + ", NUMA node " +
                    (description.numaNode >= 0 ? std::to_string(description.numaNode)
                                               : std::string("unknown")) +
                    ", CPUs " +
                    (description.localCpus.empty() ? "unknown" : description.localCpus));
  }
  return lines;
}

void write(const Options& options, const std::vector<Row>& rows, const std::string& device,
           const std::vector<std::string>& placement) {
  std::ofstream json(options.output + "/multigpu.json");
  json << "{\n  \"device\": " << jsonString(device) << ",\n  \"topology\": [";
  for (std::size_t i = 0; i < placement.size(); ++i)
    json << (i > 0 ? ", " : "") << jsonString(placement[i]);
  json << "],\n  \"devices\": " << rows[0].devices << ",\n  \"streams\": " << options.streams
       << ",\n  \"repeats\": " << options.repeats << ",\n  \"rows\": [\n";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    json << "    {\"app\": " << jsonString(r.app) << ", \"shape\": " << jsonString(r.shape)
         << ", \"traffic_bytes\": " << r.traffic << ", \"link_one_s\": " << r.link1
         << ", \"link_all_s\": " << r.linkAll << ", \"candidates\": [";
    for (std::size_t k = 0; k < r.candidates.size(); ++k) {
      const Candidate& c = r.candidates[k];
      json << (k > 0 ? ", " : "") << "{\"variant\": " << jsonString(c.name)
           << ", \"devices\": " << c.config.streams.devices << ", \"seconds\": " << c.seconds
           << ", \"verified\": " << (c.verified ? "true" : "false") << "}";
    }
    json << "]}" << (i + 1 < rows.size() ? ",\n" : "\n");
  }
  json << "  ]\n}\n";
  std::ofstream md(options.output + "/multigpu.md");
  for (const std::string& line : placement)
    md << "- " << line << "\n";
  md << "\n";
  md << "| application | traffic | best on one GPU | best on " << rows[0].devices
     << " GPUs | speed-up | link limit, one GPU | link limit, all | split / its limit | "
        "verified |\n|---|---|---|---|---:|---:|---:|---:|---|\n";
  for (const Row& r : rows) {
    const Candidate& one = best(r, false);
    const Candidate& split = best(r, true);
    bool verified = true;
    for (const Candidate& c : r.candidates)
      verified = verified && c.verified;
    md << "| " << r.app << " (" << r.shape << ") | "
       << overlap::formatBytes(static_cast<double>(r.traffic)) << " | " << one.name << ": "
       << ms(one.seconds) << " | " << split.name << ": " << ms(split.seconds) << " | "
       << ratio(one.seconds, split.seconds) << "x | " << ms(r.link1) << " | " << ms(r.linkAll)
       << " | " << ratio(split.seconds, r.linkAll) << " | " << (verified ? "yes" : "NO") << " |\n";
  }
  md << "\n| application | variant | time |\n|---|---|---:|\n";
  for (const Row& r : rows)
    for (const Candidate& c : r.candidates)
      md << "| " << r.app << " | " << c.name << " | " << ms(c.seconds) << " |\n";
}

Options parse(int argc, char** argv) {
  return bench::parseLargeCallOptions(
      argc, argv, "--traffic", std::size_t{4} << 30,
      "usage: bench_multi_gpu [--traffic 4GiB] [--streams 4] [--repeats 5] --output DIR");
}

} // namespace

int main(int argc, char** argv) {
  const Options options = parse(argc, argv);
  int devices = 0;
  checkCuda(cudaGetDeviceCount(&devices), "cudaGetDeviceCount");
  if (devices < 2)
    fail("needs 2 or more GPUs, " + std::to_string(devices) + " visible");
  cudaDeviceProp properties{};
  checkCuda(cudaGetDeviceProperties(&properties, 0), "cudaGetDeviceProperties");
  std::printf("%d x %s, %s of traffic per call, %d streams, %d repeats\n", devices, properties.name,
              overlap::formatBytes(static_cast<double>(options.size)).c_str(), options.streams,
              options.repeats);
  const std::vector<std::string> placement = topology(devices);
  for (const std::string& line : placement)
    std::printf("%s\n", line.c_str());
  Random random(20261127);
  const auto links = bench::makeLinks(devices);
  std::vector<Row> rows;
  // Full buffers hold the traffic once: inputs and outputs are each copied once.
  for (const auto make :
       {&bench::saxpyApp, &bench::sepiaApp, &bench::popStateApp, &bench::buoydiffApp}) {
    std::vector<overlap::PinnedBuffer> keep;
    const App app = make(options.size, random, &keep);
    rows.push_back(measure(app, devices, options, *links));
    check(overlap::releaseCachedDeviceMemory(), "releaseCachedDeviceMemory");
  }
  write(options, rows, std::to_string(devices) + " x " + properties.name, placement);
  for (const Row& row : rows)
    for (const Candidate& c : row.candidates)
      if (!c.verified)
        return 2;
  return 0;
}
