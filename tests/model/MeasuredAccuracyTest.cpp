// The default model against the times measured on the H200 on 2026-11-21 (tests/fixtures/model):
// the tuner's exhaustive saxpy run and the examples' variants. It reads the committed profile and
// logs, infers t_E from Explicit as the tuner does, and prints the predicted-vs-measured tables
// (the benchmark archive's model-check-2026-11-21.md is this output; set
// OVERLAP_MODEL_CHECK_MD=FILE to write it). The pruning is checked with the measured times as the
// truth.
#include "VariantNames.h"
#include "model/CandidateSet.h"
#include "model/ModernModel.h"
#include "overlap/ProfileIo.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace overlap::model {
namespace {

using testing::variantNamed;

const std::string kResults = std::string(OVERLAP_TEST_FIXTURES_DIR) + "/model";
const std::string kTunerRun = kResults + "/tuner-2026-11-21-h200";
constexpr double kMiB = 1024.0 * 1024.0;

std::string readText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

HardwareProfile h200Profile() {
  HardwareProfile profile;
  const ProfileError error = readProfileFile(kTunerRun + "/profile.json", &profile);
  EXPECT_TRUE(error.ok()) << error.field << ": " << error.reason;
  return profile;
}

std::string label(const Candidate& candidate) {
  std::string text = to_string(candidate.variant);
  if (candidate.variant == Variant::Streams || candidate.variant == Variant::Hybrid)
    text += "(" + std::to_string(candidate.streams) + ", " + to_string(candidate.order) + ")";
  return text;
}

struct Measured {
  Candidate candidate;
  double seconds = 0;
};

// The console summary of overlap-tune: "Streams(16, breadth-first)  10.917  10.512 ...", the
// predicted time first, the measured median second.
std::vector<Measured> tunerSummary(const std::string& log) {
  const std::regex row(R"(^(Explicit|Mapped|Streams|Hybrid)(\((\d+), (depth|breadth)-first\))?)"
                       R"(\s+[\d.]+\s+([\d.]+)\s)");
  std::vector<Measured> rows;
  std::istringstream lines(log);
  for (std::string line; std::getline(lines, line);) {
    std::smatch match;
    if (!std::regex_search(line, match, row))
      continue;
    Candidate candidate{variantNamed(match[1]), 1, IssueOrder::DepthFirst};
    if (match[2].matched) {
      candidate.streams = std::stoi(match[3]);
      candidate.order = match[4] == "breadth" ? IssueOrder::BreadthFirst : IssueOrder::DepthFirst;
    }
    rows.push_back({candidate, std::stod(match[5]) * 1e-3});
  }
  return rows;
}

// examples-h200-2026-11-21.md: "saxpy: ..." starts an example, "Streams  16  10.510 ..." rows
// follow (depth-first issue).
std::map<std::string, std::vector<Measured>> examplesTable(const std::string& markdown) {
  const std::regex header(R"(^(saxpy|matmul|buoydiff):)");
  const std::regex row(R"(^(Explicit|Mapped|Streams|Hybrid)\s+(-|\d+)\s+([\d.]+)\s)");
  std::map<std::string, std::vector<Measured>> tables;
  std::string current;
  std::istringstream lines(markdown);
  for (std::string line; std::getline(lines, line);) {
    std::smatch match;
    if (std::regex_search(line, match, header)) {
      current = match[1];
    } else if (!current.empty() && std::regex_search(line, match, row)) {
      const int streams = match[2] == "-" ? 1 : std::stoi(match[2]);
      tables[current].push_back(
          {{variantNamed(match[1]), streams, IssueOrder::DepthFirst}, std::stod(match[3]) * 1e-3});
    }
  }
  return tables;
}

// The workloads workloadFromDescriptor derives from the examples' annotations at their tuning
// sizes (no launch geometry: the descriptor carries none, so the tuner has none either).
Workload saxpyWorkload() {
  Workload w;
  w.partition.extent = 67108864;
  w.transfers.h2dBytes = 2 * 256 * kMiB; // x, and y (in-out)
  w.transfers.d2hBytes = 256 * kMiB;
  w.transfers.inoutD2hBytes = 256 * kMiB;
  w.transfers.h2dCopiesPerChunk = 2;
  w.transfers.explicitH2dCopies = 2;
  return w;
}

Workload matmulWorkload() {
  Workload w;
  w.partition.extent = 4096;
  w.transfers.h2dBytes = 4096.0 * 1024 * 4;       // rows of A
  w.transfers.broadcastBytes = 1024.0 * 1024 * 4; // B, sent once
  w.transfers.d2hBytes = 4096.0 * 1024 * 4;       // rows of C
  w.transfers.explicitH2dCopies = 2;
  return w;
}

Workload buoydiffWorkload() {
  const double level = 1048576.0 * 4;
  Workload w;
  w.partition.extent = 42;
  w.transfers.h2dBytes = 42 * level;        // rho[(lo-1)·plane : hi·plane], clipped
  w.transfers.broadcastBytes = level;       // rho[0 : plane], the surface
  w.transfers.haloBytesPerBoundary = level; // level lo-1
  w.transfers.d2hBytes = 42 * level;
  w.transfers.explicitH2dCopies = 2;
  return w;
}

// As the tuner does (tuner/tune/Tuner.cpp, inferKernelSeconds): Explicit's measured time minus
// its predicted transfers, at least 1 % of Explicit.
double inferredKernelSeconds(const HardwareProfile& profile, Workload workload,
                             double explicitSeconds) {
  workload.launch.kernelSeconds = 0;
  const double transfers = *ModernModel().predictSeconds(profile, workload, Candidate{});
  return std::max(explicitSeconds - transfers, 0.01 * explicitSeconds);
}

std::optional<double> measuredExplicit(const std::vector<Measured>& rows) {
  for (const Measured& row : rows)
    if (row.candidate.variant == Variant::Explicit)
      return row.seconds;
  return std::nullopt;
}

struct Checked {
  Measured measured;
  double predicted = 0;
  double error() const { return (predicted - measured.seconds) / measured.seconds; }
};

std::vector<Checked> check(const HardwareProfile& profile, const Workload& workload,
                           const std::vector<Measured>& rows) {
  std::vector<Checked> checked;
  for (const Measured& row : rows)
    checked.push_back({row, *ModernModel().predictSeconds(profile, workload, row.candidate)});
  return checked;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

std::string format(const char* pattern, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, pattern, value);
  return buffer;
}

std::string errorTable(const std::string& title, const std::vector<Checked>& checked) {
  std::ostringstream out;
  out << "### " << title << "\n\n| candidate | measured ms | predicted ms | error |\n"
      << "| --- | ---: | ---: | ---: |\n";
  std::map<std::string, std::vector<double>> perFamily;
  for (const Checked& c : checked) {
    const Candidate& k = c.measured.candidate;
    out << "| " << label(k) << " | " << format("%.3f", c.measured.seconds * 1e3) << " | "
        << format("%.3f", c.predicted * 1e3) << " | " << format("%+.1f %%", c.error() * 100)
        << " |\n";
    if (k.variant != Variant::Explicit) {
      std::string family = to_string(k.variant);
      if (k.variant == Variant::Streams || k.variant == Variant::Hybrid)
        family += std::string(" ") + to_string(k.order);
      perFamily[family].push_back(std::abs(c.error()));
    }
  }
  out << "\n| variant | candidates | median abs error | max abs error |\n"
      << "| --- | ---: | ---: | ---: |\n";
  for (const auto& [family, errors] : perFamily)
    out << "| " << family << " | " << errors.size() << " | "
        << format("%.1f %%", median(errors) * 100) << " | "
        << format("%.1f %%", *std::max_element(errors.begin(), errors.end()) * 100) << " |\n";
  return out.str() + "\n";
}

// The pruned set against the measured truth: the candidates run, and how far the best of them
// is from the best measured candidate. Only candidates with a measurement can be judged.
struct PruningCheck {
  std::size_t grid = 0;
  std::size_t kept = 0;
  std::size_t keptMeasured = 0;
  double bestMeasured = 0;
  double pickMeasured = 0;
  std::string keptList;
  double loss() const { return pickMeasured / bestMeasured - 1; }
};

PruningCheck pruneAgainst(const HardwareProfile& profile, const Workload& workload,
                          const std::vector<Measured>& truth, const SearchOptions& options) {
  const Prediction prediction = predict(ModernModel(), profile, workload, options);
  PruningCheck result;
  result.grid = prediction.rows.size();
  result.bestMeasured = 1e300;
  result.pickMeasured = 1e300;
  for (const PredictedCandidate& row : prediction.rows) {
    const auto measured = std::find_if(truth.begin(), truth.end(), [&](const Measured& m) {
      return m.candidate == row.candidate;
    });
    if (measured != truth.end())
      result.bestMeasured = std::min(result.bestMeasured, measured->seconds);
    if (!row.kept)
      continue;
    ++result.kept;
    result.keptList += (result.keptList.empty() ? "" : ", ") + label(row.candidate);
    if (measured != truth.end()) {
      ++result.keptMeasured;
      result.pickMeasured = std::min(result.pickMeasured, measured->seconds);
    }
  }
  return result;
}

std::string pruningLine(const std::string& name, const PruningCheck& p) {
  return "| " + name + " | " + std::to_string(p.kept) + " of " + std::to_string(p.grid) + " (" +
         format("%.0f %%", 100.0 * p.kept / p.grid) + ") | " + p.keptList + " | " +
         format("%.3f", p.pickMeasured * 1e3) + " / " + format("%.3f", p.bestMeasured * 1e3) +
         " ms (" + format("%+.1f %%", p.loss() * 100) + ") |\n";
}

class MeasuredAccuracy : public ::testing::Test {
protected:
  static void TearDownTestSuite() {
    std::printf("%s", report().c_str());
    if (const char* path = std::getenv("OVERLAP_MODEL_CHECK_MD"))
      std::ofstream(path) << report();
  }
  static std::string& report() {
    static std::string text;
    return text;
  }
};

TEST_F(MeasuredAccuracy, TunerSaxpyRunOnTheH200) {
  const HardwareProfile profile = h200Profile();
  const std::vector<Measured> rows = tunerSummary(readText(kTunerRun + "/exhaustive.log"));
  ASSERT_EQ(rows.size(), 12u) << "the exhaustive run measured 12 candidates";
  Workload workload = saxpyWorkload();
  workload.launch.kernelSeconds = inferredKernelSeconds(profile, workload, *measuredExplicit(rows));
  const std::vector<Checked> checked = check(profile, workload, rows);
  report() +=
      "## saxpy, 64 M floats: the tuner's exhaustive run (" +
      kTunerRun.substr(kTunerRun.find("tests/fixtures/")) +
      ")\n\nt_E inferred from Explicit: " + format("%.3f ms", workload.launch.kernelSeconds * 1e3) +
      "\n\n" + errorTable("predicted vs measured", checked);
  // Breadth-first issue over 32 and 64 streams was predicted 23 % and 32 % too slow by the model
  // that put a stream's copies and kernels in one hardware queue. Since the per-chunk overhead
  // is host issue time (ModernModel.h) saxpy is 3 % and 5.5 % optimistic at 32 and 64 streams:
  // its chunks pay a device time per copy beyond g that the profile does not measure (paper
  // 000's serial t_sc matched saxpy within 1 % but put the other applications' 16+-stream
  // pipelines 7 … 66 % too slow, the benchmark archive's model-check-2026-11-21-s3.md).
  for (const Checked& c : checked)
    EXPECT_LT(std::abs(c.error()), c.measured.candidate.streams <= 16 ? 0.015 : 0.06)
        << label(c.measured.candidate);
}

TEST_F(MeasuredAccuracy, ExamplesOnTheH200) {
  const HardwareProfile profile = h200Profile();
  const auto tables = examplesTable(readText(kResults + "/examples-h200-2026-11-21.md"));
  ASSERT_EQ(tables.size(), 3u);
  const std::map<std::string, Workload> workloads = {
      {"saxpy", saxpyWorkload()}, {"matmul", matmulWorkload()}, {"buoydiff", buoydiffWorkload()}};
  report() += "## The examples' variants, depth-first "
              "(tests/fixtures/model/examples-h200-2026-11-21.md)\n\n";
  for (const auto& [name, rows] : tables) {
    ASSERT_EQ(rows.size(), 10u) << name;
    Workload workload = workloads.at(name);
    workload.launch.kernelSeconds =
        inferredKernelSeconds(profile, workload, *measuredExplicit(rows));
    const std::vector<Checked> checked = check(profile, workload, rows);
    report() += errorTable(name + " (t_E inferred " +
                               format("%.3f ms", workload.launch.kernelSeconds * 1e3) + ")",
                           checked);
    if (name == "saxpy") {
      for (const Checked& c : checked)
        EXPECT_LT(std::abs(c.error()), 0.02) << name << " " << label(c.measured.candidate);
    }
  }
}

TEST_F(MeasuredAccuracy, PruningMeetsIssueFiveOnTheMeasuredSaxpyGrid) {
  // Issue 5: run at most 30 % of the exhaustive grid, pick within 3 % of its best. The measured
  // medians of every candidate of the exhaustive run are the truth.
  const HardwareProfile profile = h200Profile();
  const std::vector<Measured> truth = tunerSummary(readText(kTunerRun + "/exhaustive.log"));
  Workload workload = saxpyWorkload();
  workload.launch.kernelSeconds =
      inferredKernelSeconds(profile, workload, *measuredExplicit(truth));
  // The grids measured one chunk per stream: the candidates with more are left out here.
  SearchOptions onePerStream;
  onePerStream.maxChunksPerStream = 1;
  const PruningCheck p = pruneAgainst(profile, workload, truth, onePerStream);
  EXPECT_EQ(p.keptMeasured, p.kept) << "every kept candidate was measured";
  EXPECT_LE(static_cast<double>(p.kept), 0.30 * static_cast<double>(p.grid)) << p.keptList;
  EXPECT_LE(p.loss(), 0.03) << p.keptList;
  report() += "## Pruning with the default SearchOptions, measured times as the truth\n\n"
              "| data | run | kept | best kept / best measured |\n| --- | --- | --- | --- |\n" +
              pruningLine("saxpy, tuner's exhaustive run", p);

  // The examples measured Explicit, Mapped and Streams/Hybrid at 2..16 streams: judged on the
  // grid up to 16 streams; unmeasured stream counts (1, and buoydiff's divisors 3, 6, 7, 14)
  // cannot be judged and are listed.
  const auto tables = examplesTable(readText(kResults + "/examples-h200-2026-11-21.md"));
  const std::map<std::string, Workload> workloads = {
      {"saxpy", saxpyWorkload()}, {"matmul", matmulWorkload()}, {"buoydiff", buoydiffWorkload()}};
  SearchOptions upTo16 = onePerStream;
  upTo16.maxStreams = 16;
  for (const auto& [name, rows] : tables) {
    Workload example = workloads.at(name);
    example.launch.kernelSeconds = inferredKernelSeconds(profile, example, *measuredExplicit(rows));
    const PruningCheck q = pruneAgainst(profile, example, rows, upTo16);
    report() += pruningLine(name + ", examples (≤ 16 streams)", q);
  }
  report() += "\n";
}

} // namespace
} // namespace overlap::model
