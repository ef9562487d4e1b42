// Reading the benchmark's tuning reports (scripts/bench.sh: per application a pruned and an
// --exhaustive overlap-tune report), kept per run in one bundle under tests/fixtures/model
// (<run>/reports.json: the reports, unchanged, keyed by their path in the run's directory), and
// the workloads of its applications, for the tests that re-check the model and the pruning
// offline.
#pragma once

#include "VariantNames.h"
#include "model/PerformanceModel.h"
#include "model/Workload.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstddef>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace overlap::model::testing {

// One application of the benchmark at its size (scripts/bench.sh's list), with what the pruning
// rules need from its annotation and the workload workloadFromDescriptor derives from it.
struct BenchmarkApplication {
  const char* directory;
  const char* kernel;
  bool hasBroadcastInput;
  std::size_t narrowestElementBytes;
  Workload
      workload; // launch.kernelSeconds 0: inferred from Explicit's measurement, as the tuner does
};

namespace detail {

constexpr double kPlane = 1048576.0; // POP's level: 1024 x 1024 cells
constexpr double kLevels = 42;

// scalar_add: copy(values[lo:hi]), unsigned int, n = 2^25.
inline Workload scalar_add() {
  const double bytes = 33554432.0 * 4;
  Workload w;
  w.partition.extent = 33554432;
  w.transfers.h2dBytes = bytes;
  w.transfers.d2hBytes = bytes;
  w.transfers.inoutD2hBytes = bytes;
  w.mapped.bytesByWidth = {{4, bytes, 0, bytes}};
  return w;
}

// frame_histogram: 64 frames, copyin(video[lo·pixels : hi·pixels]) of bytes, copyout of 256
// unsigned int bins per frame.
inline Workload frame_histogram(double pixels) {
  Workload w;
  w.partition.extent = 64;
  w.transfers.h2dBytes = 64 * pixels;
  w.transfers.d2hBytes = 64 * 256 * 4;
  w.mapped.bytesByWidth = {{1, w.transfers.h2dBytes, 0, 0}, {4, 0, w.transfers.d2hBytes, 0}};
  return w;
}

// gray_histogram: 32 frames of RGB bytes in; gray bytes and 256 unsigned int bins per frame out.
inline Workload gray_histogram(double pixels) {
  Workload w;
  w.partition.extent = 32;
  w.transfers.h2dBytes = 32 * pixels * 3;
  const double gray = 32 * pixels;
  const double bins = 32 * 256 * 4;
  w.transfers.d2hBytes = gray + bins;
  w.transfers.d2hCopiesPerChunk = 2;
  w.transfers.explicitD2hCopies = 2;
  w.mapped.bytesByWidth = {{1, w.transfers.h2dBytes, gray, 0}, {4, 0, bins, 0}};
  return w;
}

// pop_state: temperature and salinity in, density out, floats, 42 levels of a plane each.
inline Workload pop_state() {
  Workload w;
  w.partition.extent = 42;
  w.transfers.h2dBytes = 2 * kLevels * kPlane * 4;
  w.transfers.d2hBytes = kLevels * kPlane * 4;
  w.transfers.h2dCopiesPerChunk = 2;
  w.transfers.explicitH2dCopies = 2;
  w.mapped.bytesByWidth = {{4, w.transfers.h2dBytes, w.transfers.d2hBytes, 0}};
  return w;
}

// buoydiff (examples/buoydiff): copyin(rho[0 : plane], rho[(lo-1)·plane : hi·plane]),
// copyout(dbloc[lo·plane : hi·plane]), floats. The clipped chunked section is every level once;
// each boundary adds level lo-1. Mapped reads each level once (the runs' model charged the halo
// twice: read factor 83/42, the "before" column).
inline Workload buoydiff() {
  const double level = kPlane * 4;
  Workload w;
  w.partition.extent = 42;
  w.transfers.h2dBytes = kLevels * level;
  w.transfers.broadcastBytes = level;
  w.transfers.haloBytesPerBoundary = level;
  w.transfers.d2hBytes = kLevels * level;
  w.transfers.explicitH2dCopies = 2;
  w.mapped.bytesByWidth = {
      {4, w.transfers.h2dBytes + w.transfers.broadcastBytes, w.transfers.d2hBytes, 0}};
  return w;
}

// sepia: 2^25 RGB pixels of bytes in, as many out.
inline Workload sepia() {
  Workload w;
  w.partition.extent = 33554432;
  w.transfers.h2dBytes = 3 * 33554432.0;
  w.transfers.d2hBytes = 3 * 33554432.0;
  w.mapped.bytesByWidth = {{1, w.transfers.h2dBytes, w.transfers.d2hBytes, 0}};
  return w;
}

// saxpy (examples/saxpy): copyin(x[lo:hi]) copy(y[lo:hi]), floats, n = 2^26.
inline Workload saxpy() {
  const double bytes = 67108864.0 * 4;
  Workload w;
  w.partition.extent = 67108864;
  w.transfers.h2dBytes = 2 * bytes;
  w.transfers.d2hBytes = bytes;
  w.transfers.inoutD2hBytes = bytes;
  w.transfers.h2dCopiesPerChunk = 2;
  w.transfers.explicitH2dCopies = 2;
  w.mapped.bytesByWidth = {{4, w.transfers.h2dBytes, 0, w.transfers.d2hBytes}};
  return w;
}

// matmul (examples/matmul): copyin(a[lo·k : hi·k], b) copyout(c[lo·n : hi·n]), m = 4096,
// n = k = 1024, floats; b is broadcast.
inline Workload matmul() {
  Workload w;
  w.partition.extent = 4096;
  w.transfers.h2dBytes = 4096.0 * 1024 * 4;
  w.transfers.broadcastBytes = 1024.0 * 1024 * 4;
  w.transfers.d2hBytes = 4096.0 * 1024 * 4;
  w.transfers.explicitH2dCopies = 2;
  w.mapped.bytesByWidth = {
      {4, w.transfers.h2dBytes + w.transfers.broadcastBytes, w.transfers.d2hBytes, 0}};
  return w;
}

inline Workload withNarrowest(Workload w, std::size_t bytes) {
  w.mapped.narrowestElementBytes = bytes;
  return w;
}

// Blocks of 256 threads an H200 keeps resident per multiprocessor (2048 threads); none of these
// kernels is held back by registers or its 1 KiB of shared memory. An estimate: the reports do
// not record cudaOccupancyMaxActiveBlocksPerMultiprocessor, and for kernels of fewer blocks than
// multiprocessors (the histograms) it does not change any prediction.
constexpr int kResidentBlocksOf256Threads = 8;

// The launch geometry workloadFromDescriptor reads from launchGeometry over [0, P) on the GPU,
// from the annotation's launch clause: the grid grows with the chunk for every application but
// POP state and buoydiff, whose grid is one level (ceil_div(plane, 256) blocks, whatever the
// chunk), which leaves it unknown (no fill penalty), as for a grid-stride launch.
inline Workload withBlocks(Workload w, long long totalBlocks) {
  w.launch.totalBlocks = totalBlocks;
  w.launch.residentBlocksPerSm = kResidentBlocksOf256Threads;
  return w;
}

} // namespace detail

inline const std::vector<BenchmarkApplication>& benchmarkApplications() {
  using namespace detail;
  static const std::vector<BenchmarkApplication> applications = {
      {"scalar-add-1", "scalar_add", false, 4,
       withBlocks(withNarrowest(scalar_add(), 4), 33554432 / 256)},
      {"scalar-add-256", "scalar_add", false, 4,
       withBlocks(withNarrowest(scalar_add(), 4), 33554432 / 256)},
      {"scalar-add-4096", "scalar_add", false, 4,
       withBlocks(withNarrowest(scalar_add(), 4), 33554432 / 256)},
      {"histogram-176x144", "frame_histogram", false, 1,
       withBlocks(withNarrowest(frame_histogram(25344), 1), 64)},
      {"histogram-352x288", "frame_histogram", false, 1,
       withBlocks(withNarrowest(frame_histogram(101376), 1), 64)},
      {"histogram-704x576", "frame_histogram", false, 1,
       withBlocks(withNarrowest(frame_histogram(405504), 1), 64)},
      {"gray-histogram-176x144", "gray_histogram", false, 1,
       withBlocks(withNarrowest(gray_histogram(25344), 1), 32)},
      {"gray-histogram-352x288", "gray_histogram", false, 1,
       withBlocks(withNarrowest(gray_histogram(101376), 1), 32)},
      {"gray-histogram-704x576", "gray_histogram", false, 1,
       withBlocks(withNarrowest(gray_histogram(405504), 1), 32)},
      {"pop-state", "pop_state", false, 4, withNarrowest(pop_state(), 4)},
      {"pop-buoydiff", "buoydiff", true, 4, withNarrowest(buoydiff(), 4)},
      {"sepia-8k", "sepia", false, 1, withBlocks(withNarrowest(sepia(), 1), 33554432 / 256)},
      {"saxpy-64M", "saxpy", false, 4, withBlocks(withNarrowest(saxpy(), 4), 67108864 / 256)},
      {"matmul-4096", "matmul", true, 4,
       withBlocks(withNarrowest(matmul(), 4), (4096 / 16) * (1024 / 16))},
  };
  return applications;
}

// A run's bundle of reports, read once per path; an empty object (and a test failure) when it
// cannot be read.
inline const nlohmann::json& readReportBundle(const std::string& bundle) {
  static std::map<std::string, nlohmann::json> bundles;
  const auto read = bundles.find(bundle);
  if (read != bundles.end())
    return read->second;
  std::ifstream in(bundle);
  EXPECT_TRUE(in) << "cannot open " << bundle;
  return bundles[bundle] = in ? nlohmann::json::parse(in) : nlohmann::json::object();
}

// The report of one application in one run's bundle ("pruned" or "exhaustive"); an empty object
// (and a test failure) when the bundle has none.
inline nlohmann::json readTuningReport(const std::string& bundle, const BenchmarkApplication& app,
                                       const char* mode) {
  const std::string path =
      std::string(app.directory) + "/" + mode + "/" + app.kernel + ".tuning.json";
  const nlohmann::json& reports = readReportBundle(bundle);
  const auto report = reports.find(path);
  EXPECT_NE(report, reports.end()) << bundle << " has no " << path;
  return report != reports.end() ? *report : nlohmann::json::object();
}

inline Candidate candidateOf(const nlohmann::json& row) {
  return Candidate{variantNamed(row.at("variant")), row.at("streams").get<int>(),
                   row.at("order") == "breadth-first" ? IssueOrder::BreadthFirst
                                                      : IssueOrder::DepthFirst};
}

struct Timed {
  Candidate candidate;
  double median = 0;
  double spread = 0;    // interquartile range over median
  double predicted = 0; // what the tuner's model predicted in that run
};

// Every candidate a report measured without error.
inline std::vector<Timed> measuredCandidates(const nlohmann::json& report) {
  std::vector<Timed> rows;
  for (const nlohmann::json& c : report.at("candidates")) {
    if (!c.at("run").get<bool>() || !c.at("error").get<std::string>().empty())
      continue;
    const nlohmann::json& t = c.at("timing");
    const double median = t.at("median_s").get<double>();
    const double iqr = t.at("q3_s").get<double>() - t.at("q1_s").get<double>();
    const double predicted =
        c.at("predicted_s").is_number() ? c.at("predicted_s").get<double>() : 0.0;
    rows.push_back(Timed{candidateOf(c), median, median > 0 ? iqr / median : 0, predicted});
  }
  return rows;
}

// The tuner's choice among `kept` (tuner/tune/WinnerChoice.cpp, not linked here because it needs
// the CUDA runtime's tuning library): the simplest candidate within noise (2 %, or the spread of
// the fastest or its own repeats when larger) of the fastest median.
inline Timed pickAmong(const std::vector<Timed>& all, const std::vector<Candidate>& kept) {
  std::vector<Timed> runs;
  for (const Timed& t : all)
    if (std::find(kept.begin(), kept.end(), t.candidate) != kept.end())
      runs.push_back(t);
  EXPECT_FALSE(runs.empty());
  if (runs.empty())
    return Timed{};
  const Timed fastest = *std::min_element(
      runs.begin(), runs.end(), [](const Timed& a, const Timed& b) { return a.median < b.median; });
  std::optional<Timed> winner;
  for (const Timed& t : runs) {
    const double noise = std::max({0.02, fastest.spread, t.spread});
    if (t.median <= fastest.median * (1 + noise) &&
        (!winner || simpler(t.candidate, winner->candidate)))
      winner = t;
  }
  return *winner;
}

} // namespace overlap::model::testing
