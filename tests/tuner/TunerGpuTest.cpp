// The tuner end to end on the GPU, through the generated code of two examples: saxpy (offset mode,
// one in-out array) and buoydiff (range mode, a broadcast section and a halo). It runs the tuning
// command as overlap_tune() does, reads back the reports and the results file, checks that every
// candidate that ran was verified, that a candidate computing a wrong result is caught, that in-out
// arrays are restored before every timed repeat, and that saxpy_tuned(...) calls the winner
// (overlap::lastDispatchChoice tells which variant a call ran), then the OVERLAP_VARIANT override
// and the fallback order. Every test skips without a CUDA device.
#include "DispatchEnvironment.h"
#include "GpuSkip.h"
#include "buoydiff.overlap.h"
#include "saxpy.overlap.h"

#include "model/CandidateSet.h"
#include "model/WorkloadFromDescriptor.h"
#include "overlap/DeviceContext.h"
#include "overlap/Dispatch.h"
#if OVERLAP_FAULT_INJECTION
#include "overlap/FaultInjection.h"
#endif
#include "overlap/HostRangeKind.h"
#include "overlap/PinCache.h"
#include "overlap/PinnedBuffer.h"
#include "overlap/ProfileCatalog.h"
#include "tune/DescriptorRunner.h"
#include "tune/DispatchTableSource.h"
#include "tune/ModelChoice.h"
#include "tune/ReportJson.h"
#include "tune/ResultsFile.h"
#include "tune/ResultsRegistration.h"
#include "tune/TuneCommand.h"
#include "tune/Tuner.h"

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace {

namespace fs = std::filesystem;
using overlap::ChoiceSource;
using overlap::Variant;
using overlap::tune::TuningRun;
using overlap::tune::Verification;
using overlap::tune::testing::ScopedDispatchEnvironment;

std::string readText(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// A fresh directory per test, removed afterwards.
class TemporaryDirectory {
public:
  TemporaryDirectory() {
    std::string pattern = (fs::temp_directory_path() / "overlap-tuner-gpu-XXXXXX").string();
    path_ = mkdtemp(pattern.data()) ? pattern : "";
  }
  ~TemporaryDirectory() {
    std::error_code ignored;
    if (!path_.empty())
      fs::remove_all(path_, ignored);
  }
  const std::string& path() const { return path_; }

private:
  std::string path_;
};

// Runs the tuning command as a tuning executable would, with small sizes and few repeats; its
// console output goes to the test's log.
int tuneCommand(const std::vector<std::string>& args) {
  std::ostringstream out;
  std::ostringstream err;
  std::vector<std::string> all = args;
  for (const char* arg : {"--no-cache", "--seed", "12345", "--repeats", "3:8"})
    all.emplace_back(arg);
  const int status = overlap::tune::runTuneCommand(all, out, err);
  std::cout << out.str() << err.str();
  return status;
}

// The JSON, Markdown and SVG reports of `kernel` in `dir` exist and parse; every candidate that
// ran was verified and timed, and every one the model kept ran. Returns the tuning.
TuningRun checkReports(const std::string& dir, const std::string& stem,
                       const std::string& kernelName = "") {
  const std::string kernel = kernelName.empty() ? stem : kernelName;
  TuningRun run;
  const std::string base = dir + "/" + stem + ".tuning";
  const std::string jsonText = readText(base + ".json");
  std::string error;
  // The tuner's reader accepts only its own schema and version.
  EXPECT_TRUE(overlap::tune::fromJsonText(jsonText, &run, &error)) << error;
  EXPECT_NE(jsonText.find("\"candidates_run\": " + std::to_string(run.runCount())),
            std::string::npos);

  EXPECT_EQ(run.kernel, kernel);
  EXPECT_FALSE(run.device.empty());
  EXPECT_FALSE(run.modelOnly);
  EXPECT_TRUE(run.complete);
  EXPECT_GE(run.runCount(), 2) << "Explicit and at least one other candidate";
  for (const overlap::tune::CandidateOutcome& c : run.candidates) {
    const std::string name = overlap::model::describe(c.candidate);
    if (c.keptByModel) {
      EXPECT_TRUE(c.run) << name << " was kept by the model but not run";
    }
    if (!c.run)
      continue;
    EXPECT_TRUE(c.verification == Verification::Reference || c.verification == Verification::Passed)
        << name << ": " << overlap::tune::to_string(c.verification) << " " << c.error;
    EXPECT_GT(c.timing.count, 0) << name << " was not timed";
    EXPECT_GT(c.timing.median, 0) << name;
  }
  EXPECT_TRUE(run.winner.has_value()) << run.winnerReason;

  const std::string markdown = readText(base + ".md");
  EXPECT_NE(markdown.find(kernel), std::string::npos);
  EXPECT_NE(markdown.find(stem + ".tuning.svg"), std::string::npos) << "the plot is not linked";
  if (run.winner) {
    EXPECT_NE(markdown.find(overlap::model::describe(run.candidates[*run.winner].candidate)),
              std::string::npos)
        << "the winner is not named";
  }

  // The T4 files (T4Report.h): one result, with its invalidity, per candidate that ran.
  const std::string t4 = readText(base + ".T4.json");
  std::size_t t4Results = 0;
  for (std::size_t at = t4.find("\"invalidity\""); at != std::string::npos;
       at = t4.find("\"invalidity\"", at + 1))
    ++t4Results;
  EXPECT_EQ(t4Results, static_cast<std::size_t>(run.runCount())) << t4;
  EXPECT_NE(readText(base + ".T4-metadata.json").find("\"schema_version\""), std::string::npos);

  const std::string svg = readText(base + ".svg");
  EXPECT_EQ(svg.find("<svg"), svg.rfind("<svg")) << "one root element";
  EXPECT_NE(svg.find("<svg"), std::string::npos);
  const std::size_t close = svg.rfind("</svg>");
  EXPECT_NE(close, std::string::npos);
  if (close != std::string::npos) {
    EXPECT_EQ(svg.find_first_not_of(" \n", close + 6), std::string::npos) << "text after </svg>";
  }
  return run;
}

std::vector<float> randomFloats(std::size_t count, std::uint32_t seed) {
  std::vector<float> values(count);
  std::uint32_t state = seed;
  for (float& v : values) {
    state = state * 1664525u + 1013904223u;
    v = 0.25f + static_cast<float>(state >> 8) / static_cast<float>(1u << 24); // [0.25, 1.25)
  }
  return values;
}

// saxpy_tuned(...) on arrays of `memory`: pinned, pageable vectors, pageable vectors the
// registration cache holds (registered by an earlier call that cached its registrations), or
// managed; y must equal fmaf(a, x, y) element for element.
void callSaxpyTunedAndCheck(int n = (1 << 20) + 3,
                            overlap::CallMemory memory = overlap::CallMemory::Pinned) {
  const float a = 1.5f;
  const std::vector<float> x0 = randomFloats(n, 1);
  const std::vector<float> y0 = randomFloats(n, 2);
  std::vector<float> xPageable = x0, yPageable = y0;
  const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(float);
  const overlap::UnpinGuard unpinX(xPageable.data(), bytes);
  const overlap::UnpinGuard unpinY(yPageable.data(), bytes);
  overlap::PinnedBuffer xPinned, yPinned;
  float* x = xPageable.data();
  float* y = yPageable.data();
  std::unique_ptr<void, cudaError_t (*)(void*)> xManaged(nullptr, cudaFree),
      yManaged(nullptr, cudaFree);
  if (memory == overlap::CallMemory::Managed) {
    void* xm = nullptr;
    void* ym = nullptr;
    ASSERT_EQ(cudaMallocManaged(&xm, bytes), cudaSuccess);
    xManaged.reset(xm);
    ASSERT_EQ(cudaMallocManaged(&ym, bytes), cudaSuccess);
    yManaged.reset(ym);
    x = static_cast<float*>(std::memcpy(xm, x0.data(), bytes));
    y = static_cast<float*>(std::memcpy(ym, y0.data(), bytes));
  } else if (memory == overlap::CallMemory::Pinned) {
    ASSERT_TRUE(overlap::PinnedBuffer::allocate(bytes, &xPinned).ok());
    ASSERT_TRUE(overlap::PinnedBuffer::allocate(bytes, &yPinned).ok());
    x = static_cast<float*>(std::memcpy(xPinned.data(), x0.data(), bytes));
    y = static_cast<float*>(std::memcpy(yPinned.data(), y0.data(), bytes));
  } else if (memory == overlap::CallMemory::Registered) {
    overlap::RunConfig cached;
    cached.variant = Variant::Streams;
    cached.streams = {2, overlap::IssueOrder::DepthFirst, overlap::PageableMode::CachedRegister};
    int count = n;
    float alpha = a;
    const void* args[] = {&count, &alpha, &x, &y};
    const overlap::Status registering = saxpy_descriptor.run(args, cached);
    ASSERT_TRUE(registering.ok()) << registering.message();
    ASSERT_EQ(overlap::classifyHostRange(y, bytes), overlap::HostRangeKind::Cached);
    std::memcpy(y, y0.data(), bytes);
  }
  const overlap::Status status = saxpy_tuned(n, a, x, y);
  ASSERT_TRUE(status.ok()) << status.message();
  for (int i = 0; i < n; ++i)
    if (y[i] != std::fmaf(a, x0[i], y0[i]))
      FAIL() << "y[" << i << "] = " << y[i] << ", expected " << std::fmaf(a, x0[i], y0[i]);
}

overlap::VariantChoice lastChoice(const overlap::KernelDescriptor& kernel) {
  const std::optional<overlap::VariantChoice> choice = overlap::lastDispatchChoice(kernel);
  EXPECT_TRUE(choice.has_value()) << kernel.name << " was never dispatched";
  return choice.value_or(overlap::VariantChoice{});
}

// Same variant and way of handling pageable arrays, and for the streamed ones the same stream
// count and issue order.
bool sameChoice(const overlap::RunConfig& config, const overlap::model::Candidate& candidate) {
  if (config.variant != candidate.variant ||
      (candidate.variant != Variant::Explicit && config.streams.pageable != candidate.pageable))
    return false;
  if (candidate.variant != Variant::Streams && candidate.variant != Variant::Hybrid)
    return true;
  return config.streams.streams == candidate.streams && config.streams.order == candidate.order;
}

TEST(TunerOnGpu, SaxpyIsTunedVerifiedReportedAndItsEntryPointCallsTheWinner) {
  SKIP_WITHOUT_GPU();
  const TemporaryDirectory dir;
  ASSERT_FALSE(dir.path().empty());
  const std::string resultsPath = dir.path() + "/results.json";
  ASSERT_EQ(tuneCommand({"--kernel", "saxpy", "--arg", "n=4194304", "--output-dir", dir.path(),
                         "--results-file", resultsPath, "--memory",
                         "pinned,registered,pageable,managed"}),
            0);
  const TuningRun run = checkReports(dir.path(), "saxpy");
  ASSERT_TRUE(run.winner.has_value());
  EXPECT_EQ(run.memory, overlap::CallMemory::Pinned);
  const overlap::model::Candidate winner = run.candidates[*run.winner].candidate;
  // The pageable tuning: its own reports, and staged candidates among those that ran.
  const TuningRun pageableRun = checkReports(dir.path(), "saxpy.pageable", "saxpy");
  ASSERT_TRUE(pageableRun.winner.has_value());
  EXPECT_EQ(pageableRun.memory, overlap::CallMemory::Pageable);
  const overlap::model::Candidate pageableWinner =
      pageableRun.candidates[*pageableRun.winner].candidate;
  bool stagedRan = false;
  for (const overlap::tune::CandidateOutcome& c : pageableRun.candidates)
    stagedRan |= c.run && c.candidate.pageable == overlap::PageableMode::Stage;
  EXPECT_TRUE(stagedRan) << "no staged candidate ran on pageable memory";
  // The registered tuning: page-locked arrays, so no candidate pins or stages them.
  const TuningRun registeredRun = checkReports(dir.path(), "saxpy.registered", "saxpy");
  ASSERT_TRUE(registeredRun.winner.has_value());
  EXPECT_EQ(registeredRun.memory, overlap::CallMemory::Registered);
  const overlap::model::Candidate registeredWinner =
      registeredRun.candidates[*registeredRun.winner].candidate;
  for (const overlap::tune::CandidateOutcome& c : registeredRun.candidates)
    EXPECT_EQ(c.candidate.pageable, overlap::PageableMode::Default)
        << overlap::model::describe(c.candidate);
  const TuningRun managedRun = checkReports(dir.path(), "saxpy.managed", "saxpy");
  ASSERT_TRUE(managedRun.winner.has_value());
  EXPECT_EQ(managedRun.memory, overlap::CallMemory::Managed);
  const overlap::model::Candidate managedWinner =
      managedRun.candidates[*managedRun.winner].candidate;

  overlap::tune::ResultsFile results;
  std::string error;
  ASSERT_TRUE(overlap::tune::readResultsFile(resultsPath, &results, &error)) << error;
  const overlap::tune::ResultsEntry* entry = results.find("saxpy", run.device);
  ASSERT_NE(entry, nullptr) << "no results entry for saxpy on " << run.device;
  ASSERT_EQ(entry->sizes.size(), 1u);
  EXPECT_EQ(entry->sizes[0].choice, winner);
  EXPECT_EQ(entry->sizes[0].extent, 4194304);
  const overlap::tune::ResultsEntry* pageableEntry =
      results.find("saxpy", run.device, overlap::CallMemory::Pageable);
  ASSERT_NE(pageableEntry, nullptr) << "no pageable results entry for saxpy on " << run.device;
  ASSERT_EQ(pageableEntry->sizes.size(), 1u);
  EXPECT_EQ(pageableEntry->sizes[0].choice, pageableWinner);
  const overlap::tune::ResultsEntry* registeredEntry =
      results.find("saxpy", run.device, overlap::CallMemory::Registered);
  ASSERT_NE(registeredEntry, nullptr) << "no registered results entry for saxpy on " << run.device;
  EXPECT_EQ(registeredEntry->sizes[0].choice, registeredWinner);
  const overlap::tune::ResultsEntry* managedEntry =
      results.find("saxpy", run.device, overlap::CallMemory::Managed);
  ASSERT_NE(managedEntry, nullptr) << "no managed results entry for saxpy on " << run.device;
  EXPECT_EQ(managedEntry->sizes[0].choice, managedWinner);

  // What overlap-bake bakes from this file, registered in this process instead of compiled.
  ASSERT_TRUE(overlap::tune::registerResults(results));

  const ScopedDispatchEnvironment noOverride("OVERLAP_VARIANT", std::nullopt);
  callSaxpyTunedAndCheck(4194304);
  overlap::VariantChoice choice = lastChoice(saxpy_descriptor);
  EXPECT_EQ(choice.source, ChoiceSource::Baked) << choice.reason;
  EXPECT_EQ(choice.memory, overlap::CallMemory::Pinned);
  EXPECT_TRUE(sameChoice(choice.config, winner))
      << "ran " << overlap::describe(choice.config) << "; the winner is "
      << overlap::model::describe(winner);
  // Pageable vectors run the pageable tuning's winner.
  callSaxpyTunedAndCheck(4194304, overlap::CallMemory::Pageable);
  choice = lastChoice(saxpy_descriptor);
  EXPECT_EQ(choice.source, ChoiceSource::Baked) << choice.reason;
  EXPECT_EQ(choice.memory, overlap::CallMemory::Pageable);
  EXPECT_TRUE(sameChoice(choice.config, pageableWinner))
      << "ran " << overlap::describe(choice.config) << "; the pageable winner is "
      << overlap::model::describe(pageableWinner);
  // Vectors the registration cache holds run the registered tuning's winner.
  callSaxpyTunedAndCheck(4194304, overlap::CallMemory::Registered);
  choice = lastChoice(saxpy_descriptor);
  EXPECT_EQ(choice.source, ChoiceSource::Baked) << choice.reason;
  EXPECT_EQ(choice.memory, overlap::CallMemory::Registered);
  EXPECT_TRUE(sameChoice(choice.config, registeredWinner))
      << "ran " << overlap::describe(choice.config) << "; the registered winner is "
      << overlap::model::describe(registeredWinner);
  // Managed arrays run the managed tuning's winner.
  callSaxpyTunedAndCheck(4194304, overlap::CallMemory::Managed);
  choice = lastChoice(saxpy_descriptor);
  EXPECT_EQ(choice.source, ChoiceSource::Baked) << choice.reason;
  EXPECT_EQ(choice.memory, overlap::CallMemory::Managed);
  EXPECT_TRUE(sameChoice(choice.config, managedWinner))
      << "ran " << overlap::describe(choice.config) << "; the managed winner is "
      << overlap::model::describe(managedWinner);

  // OVERLAP_VARIANT wins over the results, for this kernel only.
  noOverride.set("saxpy=streams:3:breadth-first");
  callSaxpyTunedAndCheck();
  choice = lastChoice(saxpy_descriptor);
  EXPECT_EQ(choice.source, ChoiceSource::Environment);
  EXPECT_EQ(choice.config.variant, Variant::Streams);
  EXPECT_EQ(choice.config.streams.streams, 3);
  EXPECT_EQ(choice.config.streams.order, overlap::IssueOrder::BreadthFirst);

  noOverride.set("buoydiff=mapped");
  callSaxpyTunedAndCheck();
  EXPECT_EQ(lastChoice(saxpy_descriptor).source, ChoiceSource::Baked);
}

// --graphs: every pipelined candidate also runs as its graph form, each measured and verified
// against Explicit (a graph form's timed repeats replay its cached graph), and K_tuned runs the
// winner in the form it won in.
TEST(TunerOnGpu, GraphFormsAreMeasuredVerifiedAndTheirFormIsBaked) {
  SKIP_WITHOUT_GPU();
  const TemporaryDirectory dir;
  ASSERT_FALSE(dir.path().empty());
  const std::string resultsPath = dir.path() + "/results.json";
  ASSERT_EQ(tuneCommand({"--kernel", "saxpy", "--arg", "n=262147", "--graphs", "--exhaustive",
                         "--max-streams", "4", "--max-chunks-per-stream", "1", "--output-dir",
                         dir.path(), "--results-file", resultsPath}),
            0);
  const TuningRun run = checkReports(dir.path(), "saxpy");
  ASSERT_TRUE(run.winner.has_value());
  int graphs = 0;
  for (const overlap::tune::CandidateOutcome& c : run.candidates) {
    if (!c.candidate.graph)
      continue;
    ++graphs;
    EXPECT_TRUE(c.usable()) << overlap::model::describe(c.candidate) << ": " << c.error;
    EXPECT_EQ(c.verification, overlap::tune::Verification::Passed)
        << overlap::model::describe(c.candidate);
  }
  EXPECT_GE(graphs, 3) << "Graph-Streams at 1, 2 and 4 streams";
  const overlap::model::Candidate winner = run.candidates[*run.winner].candidate;
  overlap::tune::ResultsFile results;
  std::string error;
  ASSERT_TRUE(overlap::tune::readResultsFile(resultsPath, &results, &error)) << error;
  ASSERT_TRUE(overlap::tune::registerResults(results));
  const ScopedDispatchEnvironment noOverride("OVERLAP_VARIANT", std::nullopt);
  for (int call = 0; call < 3; ++call) // uncaptured, captured, replayed where a graph won
    callSaxpyTunedAndCheck(262147);
  const overlap::VariantChoice choice = lastChoice(saxpy_descriptor);
  EXPECT_EQ(choice.source, ChoiceSource::Baked) << choice.reason;
  EXPECT_EQ(choice.config.streams.graph, winner.graph) << overlap::describe(choice.config);
  EXPECT_TRUE(sameChoice(choice.config, winner))
      << "ran " << overlap::describe(choice.config) << "; the winner is "
      << overlap::model::describe(winner);
}

// buoydiff has no results for this device: the model chooses, and without a model, Explicit; both
// compute what buoydiff_explicit computes.
TEST(TunerOnGpu, WithoutResultsTheEntryPointFallsBackToTheModelThenExplicit) {
  SKIP_WITHOUT_GPU();
  const ScopedDispatchEnvironment noOverride("OVERLAP_VARIANT", std::nullopt);
  const int levels = 9;
  const long long plane = 70001;
  const std::size_t count = static_cast<std::size_t>(levels * plane);
  const std::vector<float> rho = randomFloats(count, 3);
  std::vector<float> expected(count, -1.0f);
  ASSERT_TRUE(buoydiff_explicit(levels, plane, rho.data(), expected.data()).ok());
  overlap::PinnedBuffer pinnedRho, pinnedDbloc;
  ASSERT_TRUE(overlap::PinnedBuffer::allocate(count * sizeof(float), &pinnedRho).ok());
  ASSERT_TRUE(overlap::PinnedBuffer::allocate(count * sizeof(float), &pinnedDbloc).ok());
  std::memcpy(pinnedRho.data(), rho.data(), count * sizeof(float));

  // Pinned arrays: the model's choice, or Explicit without a model. Pageable ones: Explicit even
  // with the model, which does not price them.
  for (const auto& [withModel, pinned] : {std::pair{true, true}, {false, true}, {true, false}}) {
    SCOPED_TRACE(std::string(withModel ? "with" : "without") + " the model, " +
                 (pinned ? "pinned" : "pageable"));
    overlap::setModelChooser(withModel ? &overlap::tune::chooseByModel : nullptr);
    std::vector<float> pageableDbloc(count, -1.0f);
    float* const dbloc = pinned ? static_cast<float*>(pinnedDbloc.data()) : pageableDbloc.data();
    std::fill(dbloc, dbloc + count, -1.0f);
    const overlap::Status status = buoydiff_tuned(
        levels, plane, pinned ? static_cast<const float*>(pinnedRho.data()) : rho.data(), dbloc);
    overlap::tune::installModelDispatch();
    ASSERT_TRUE(status.ok()) << status.message();
    const overlap::VariantChoice choice = lastChoice(buoydiff_descriptor);
    const bool modelled = withModel && pinned;
    EXPECT_EQ(choice.source, modelled ? ChoiceSource::Model : ChoiceSource::Default)
        << choice.reason;
    if (!modelled) {
      EXPECT_EQ(choice.config.variant, Variant::Explicit);
    }
    EXPECT_EQ(std::memcmp(dbloc, expected.data(), count * sizeof(float)), 0)
        << "dispatched buoydiff differs from buoydiff_explicit";
  }
}

// Tuned across sizes, baked, dispatched: a call at each tuned size runs that size's winner.
TEST(TunerOnGpu, ASweepIsTunedBakedAndEverySizeDispatchesToItsWinner) {
  SKIP_WITHOUT_GPU();
  const TemporaryDirectory dir;
  ASSERT_FALSE(dir.path().empty());
  const std::string resultsPath = dir.path() + "/results.json";
  ASSERT_EQ(tuneCommand({"--kernel", "saxpy", "--sweep", "n=16384..4194304:3", "--refine", "1",
                         "--output-dir", dir.path(), "--results-file", resultsPath}),
            0);
  for (const char* suffix : {".json", ".md", ".svg"})
    EXPECT_TRUE(fs::exists(dir.path() + "/saxpy.sweep" + suffix)) << suffix;
  EXPECT_NE(readText(dir.path() + "/saxpy.sweep.md").find("## Winner against size"),
            std::string::npos);

  overlap::tune::ResultsFile results;
  std::string error;
  ASSERT_TRUE(overlap::tune::readResultsFile(resultsPath, &results, &error)) << error;
  ASSERT_EQ(results.entries.size(), 1u);
  const overlap::tune::ResultsEntry& entry = results.entries[0];
  EXPECT_EQ(entry.sweep, "n=16384..4194304:3");
  ASSERT_GE(entry.sizes.size(), 3u);
  ASSERT_LE(entry.sizes.size(), 4u) << "3 sizes and at most 1 refinement";
  // The source overlap-bake would write names every size.
  const std::string source = overlap::tune::renderDispatchTable(results, {"the sweep", true});
  for (const overlap::tune::ResultsSize& size : entry.sizes)
    EXPECT_NE(source.find("{" + std::to_string(size.extent) + "LL, "), std::string::npos);

  ASSERT_TRUE(overlap::tune::registerResults(results));
  const ScopedDispatchEnvironment noOverride("OVERLAP_VARIANT", std::nullopt);
  for (const overlap::tune::ResultsSize& size : entry.sizes) {
    SCOPED_TRACE("n = " + std::to_string(size.extent));
    callSaxpyTunedAndCheck(static_cast<int>(size.extent));
    const overlap::VariantChoice choice = lastChoice(saxpy_descriptor);
    EXPECT_EQ(choice.source, ChoiceSource::Baked) << choice.reason;
    EXPECT_TRUE(sameChoice(choice.config, size.choice))
        << "ran " << overlap::describe(choice.config) << "; the winner there is "
        << overlap::model::describe(size.choice);
  }
}

// A choice that runs out of memory before doing any work runs again as Explicit: the call
// succeeds with Explicit's result, and the last choice says why.
TEST(TunerOnGpu, AChoiceOutOfMemoryBeforeAnyWorkRunsAsExplicit) {
#if !OVERLAP_FAULT_INJECTION
  GTEST_SKIP() << "built without OVERLAP_FAULT_INJECTION: no cudaMalloc can be made to fail";
#else
  SKIP_WITHOUT_GPU();
  int device = 0;
  cudaDeviceProp properties{};
  ASSERT_EQ(cudaGetDevice(&device), cudaSuccess);
  ASSERT_EQ(cudaGetDeviceProperties(&properties, device), cudaSuccess);
  overlap::tune::ResultsEntry entry;
  entry.kernel = "saxpy";
  entry.device = properties.name;
  overlap::tune::ResultsSize size;
  size.extent = 1 << 20;
  size.choice = {Variant::Streams, 4};
  entry.sizes = {size};
  overlap::tune::ResultsFile results;
  results.put(entry);
  ASSERT_TRUE(overlap::tune::registerResults(results));
  const ScopedDispatchEnvironment noOverride("OVERLAP_VARIANT", std::nullopt);
  // The next call allocates its device buffers, and the first allocation, Streams', fails.
  ASSERT_TRUE(overlap::releaseCachedDeviceMemory().ok());
  {
    const overlap::fault::ScopedFault outOfMemory("cudaMalloc", 1, cudaErrorMemoryAllocation);
    callSaxpyTunedAndCheck(1 << 20);
    EXPECT_TRUE(overlap::fault::fired()) << "no cudaMalloc failed: the test tested nothing";
  }
  const overlap::VariantChoice choice = lastChoice(saxpy_descriptor);
  EXPECT_EQ(choice.source, ChoiceSource::Fallback) << choice.reason;
  EXPECT_EQ(choice.config.variant, Variant::Explicit);
  EXPECT_NE(choice.reason.find("Streams(4, depth-first)"), std::string::npos) << choice.reason;
  EXPECT_NE(choice.reason.find("cudaMalloc"), std::string::npos) << choice.reason;
#endif
}

TEST(TunerOnGpu, BuoydiffWithABroadcastSectionAndAHaloIsTunedAndVerified) {
  SKIP_WITHOUT_GPU();
  const TemporaryDirectory dir;
  ASSERT_FALSE(dir.path().empty());
  ASSERT_EQ(tuneCommand({"--kernel", "buoydiff", "--arg", "levels=16", "--arg", "plane=262144",
                         "--output-dir", dir.path()}),
            0);
  const TuningRun run = checkReports(dir.path(), "buoydiff");
  bool streamedRan = false;
  for (const overlap::tune::CandidateOutcome& c : run.candidates)
    streamedRan |= c.run && (c.candidate.variant == Variant::Streams ||
                             c.candidate.variant == Variant::Hybrid);
  EXPECT_TRUE(streamedRan) << "no chunked candidate ran, so the halo was never exercised";
}

// Reads `kernel`'s JSON report in `dir` into *run and checks that Explicit failed with an error
// that says `why` (Explicit cannot run over the call's budget). Call under ASSERT_NO_FATAL_FAILURE.
void readTuningWhoseExplicitFailed(const std::string& dir, const std::string& kernel,
                                   const std::string& why, TuningRun* run) {
  std::string error;
  ASSERT_TRUE(
      overlap::tune::fromJsonText(readText(dir + "/" + kernel + ".tuning.json"), run, &error))
      << error;
  ASSERT_TRUE(run->explicitIndex());
  const overlap::tune::CandidateOutcome& explicitRow = run->candidates[*run->explicitIndex()];
  EXPECT_EQ(explicitRow.verification, Verification::Failed);
  EXPECT_NE(explicitRow.error.find(why), std::string::npos) << explicitRow.error;
}

// Over the device-memory budget, which the tuning worker inherits from the environment, Explicit
// cannot run: Streams on one stream, out of core, makes the reference, Explicit is recorded as
// failed naming what it needs, and an out-of-core winner is picked from verified candidates.
TEST(TunerOnGpu, OverItsMemoryBudgetSaxpyIsTunedOutOfCore) {
  SKIP_WITHOUT_GPU();
  const ScopedDispatchEnvironment budget("OVERLAP_DEVICE_MEMORY_BUDGET", "8MiB");
  const TemporaryDirectory dir;
  ASSERT_FALSE(dir.path().empty());
  // 32 MiB of arrays: x and y of 4 Mi floats.
  ASSERT_EQ(tuneCommand({"--kernel", "saxpy", "--arg", "n=4194304", "--output-dir", dir.path()}),
            0);
  TuningRun run;
  ASSERT_NO_FATAL_FAILURE(readTuningWhoseExplicitFailed(
      dir.path(), "saxpy",
      "Explicit needs 32.0 MiB of device memory; the budget is 8.0 MiB "
      "(OVERLAP_DEVICE_MEMORY_BUDGET)",
      &run));
  int passed = 0;
  for (const overlap::tune::CandidateOutcome& c : run.candidates) {
    if (!c.run || c.candidate == overlap::model::Candidate{})
      continue;
    EXPECT_TRUE(c.verification == Verification::Reference || c.verification == Verification::Passed)
        << overlap::model::describe(c.candidate) << ": " << c.error;
    passed += c.verification == Verification::Passed ? 1 : 0;
  }
  EXPECT_GE(passed, 1) << "no candidate was verified against the out-of-core reference";
  ASSERT_TRUE(run.winner) << run.winnerReason;
  EXPECT_NE(run.candidates[*run.winner].candidate.variant, Variant::Explicit);
}

// Out of core, buoydiff's t (level 0 beside each chunk's levels, through one pointer) is paged by
// the runtime: the model must know it can run there, so that the tuning has a reference and a
// winner.
TEST(TunerOnGpu, BuoydiffOverItsMemoryBudgetIsTunedOutOfCoreWithTPaged) {
  SKIP_WITHOUT_GPU();
  const ScopedDispatchEnvironment budget("OVERLAP_DEVICE_MEMORY_BUDGET", "24MiB");
  const TemporaryDirectory dir;
  ASSERT_FALSE(dir.path().empty());
  ASSERT_EQ(tuneCommand({"--kernel", "buoydiff", "--arg", "levels=16", "--arg", "plane=262144",
                         "--output-dir", dir.path()}),
            0);
  TuningRun run;
  ASSERT_NO_FATAL_FAILURE(readTuningWhoseExplicitFailed(
      dir.path(), "buoydiff", "the budget is 24.0 MiB (OVERLAP_DEVICE_MEMORY_BUDGET)", &run));
  int pipelinesPassed = 0;
  for (const overlap::tune::CandidateOutcome& c : run.candidates)
    pipelinesPassed +=
        c.run && c.verification == Verification::Passed &&
        (c.candidate.variant == Variant::Streams || c.candidate.variant == Variant::Hybrid);
  EXPECT_GE(pipelinesPassed, 1) << "no pipeline ran out of core against the reference";
  ASSERT_TRUE(run.winner) << run.winnerReason;
}

// With no budget of its own, a call larger than what the device has free (most of it taken here by
// a ballast allocation) runs out of core under the automatic budget: the model is told (the
// report's notes), Explicit is recorded as failed naming that budget, and a winner is picked.
TEST(TunerOnGpu, LargerThanTheFreeDeviceMemorySaxpyIsTunedOutOfCore) {
  SKIP_WITHOUT_GPU();
  const ScopedDispatchEnvironment noBudget("OVERLAP_DEVICE_MEMORY_BUDGET", std::nullopt);
  ASSERT_TRUE(overlap::releaseCachedDeviceMemory().ok());
  std::size_t freeBytes = 0;
  std::size_t totalBytes = 0;
  ASSERT_EQ(cudaMemGetInfo(&freeBytes, &totalBytes), cudaSuccess);
  const std::size_t leave = std::size_t{512} << 20;
  if (freeBytes < 2 * leave)
    GTEST_SKIP() << "the device has only " << freeBytes << " bytes free";
  void* ballast = nullptr;
  ASSERT_EQ(cudaMalloc(&ballast, freeBytes - leave), cudaSuccess);
  const std::unique_ptr<void, cudaError_t (*)(void*)> freeBallast(ballast, cudaFree);
  const TemporaryDirectory dir;
  ASSERT_FALSE(dir.path().empty());
  // 512 MiB of arrays (x and y of 64 Mi floats) against about 256 MiB of budget. In this process
  // (--no-supervise): a worker's own context would take memory the test does not control.
  ASSERT_EQ(tuneCommand({"--kernel", "saxpy", "--arg", "n=67108864", "--no-supervise",
                         "--output-dir", dir.path()}),
            0);
  TuningRun run;
  ASSERT_NO_FATAL_FAILURE(readTuningWhoseExplicitFailed(
      dir.path(), "saxpy", "Explicit needs 512.0 MiB of device memory", &run));
  EXPECT_TRUE(std::any_of(run.notes.begin(), run.notes.end(), [](const std::string& note) {
    return note.find("the model predicts it out of core") != std::string::npos;
  })) << "the model was not told of the automatic budget";
  const overlap::tune::CandidateOutcome& explicitRow = run.candidates[*run.explicitIndex()];
  EXPECT_NE(explicitRow.error.find("free device memory less 256 MiB"), std::string::npos)
      << explicitRow.error;
  ASSERT_TRUE(run.winner) << run.winnerReason;
  EXPECT_NE(run.candidates[*run.winner].candidate.variant, Variant::Explicit);
}

// A copy of saxpy's descriptor whose run is replaced by a test function, so faults can be injected
// and the calls observed without touching the tuner.
const overlap::KernelDescriptor* gWrapped = nullptr;

int paramIndex(const overlap::KernelDescriptor& kernel, const char* name) {
  for (int i = 0; i < kernel.paramCount; ++i)
    if (std::strcmp(kernel.params[i].name, name) == 0)
      return i;
  ADD_FAILURE() << kernel.name << " has no parameter " << name;
  return 0;
}

int saxpyN(overlap::ArgPointers args) {
  return *static_cast<const int*>(args[paramIndex(saxpy_descriptor, "n")]);
}
float* saxpyY(overlap::ArgPointers args) {
  return *static_cast<float* const*>(args[paramIndex(saxpy_descriptor, "y")]);
}

// The fault: Mapped computes y, then one element changes, as a chunking bug that loses one
// element would leave it.
overlap::Status mappedCorruptsOneElement(overlap::ArgPointers args,
                                         const overlap::RunConfig& config) {
  const overlap::Status status = gWrapped->run(args, config);
  if (status.ok() && config.variant == Variant::Mapped)
    saxpyY(args)[saxpyN(args) / 2] += 1.0f;
  return status;
}

// FNV-1a of y's bytes at the start of every call.
std::vector<std::uint64_t> gYHashes;
overlap::Status hashYThenRun(overlap::ArgPointers args, const overlap::RunConfig& config) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(saxpyY(args));
  std::uint64_t hash = 1469598103934665603ull;
  for (std::size_t i = 0; i < static_cast<std::size_t>(saxpyN(args)) * sizeof(float); ++i)
    hash = (hash ^ bytes[i]) * 1099511628211ull;
  gYHashes.push_back(hash);
  return gWrapped->run(args, config);
}

overlap::KernelDescriptor saxpyWithRun(const char* name, decltype(&hashYThenRun) run) {
  gWrapped = &saxpy_descriptor;
  overlap::KernelDescriptor wrapped = saxpy_descriptor;
  wrapped.name = name;
  wrapped.run = run;
  return wrapped;
}

TEST(TunerOnGpu, ACandidateWithAWrongResultIsCaughtAndNeverWins) {
  SKIP_WITHOUT_GPU();
  const overlap::KernelDescriptor faulty =
      saxpyWithRun("saxpy_mapped_faulty", &mappedCorruptsOneElement);
  const int n = 1 << 20;
  std::string error;
  overlap::tune::RunnerOptions runnerOptions;
  runnerOptions.seed = 99;
  const std::unique_ptr<overlap::tune::DescriptorRunner> runner =
      overlap::tune::DescriptorRunner::create(faulty, {{"n", n}}, runnerOptions, &error);
  ASSERT_TRUE(runner) << error;

  const std::vector<overlap::CatalogEntry> profiles = overlap::builtinProfiles();
  ASSERT_FALSE(profiles.empty());
  const std::unique_ptr<overlap::model::PerformanceModel> model =
      overlap::model::makeModel(overlap::model::ModelKind::Modern);
  overlap::tune::TuningSetup setup;
  setup.header.kernel = faulty.name;
  setup.header.device = "the test's GPU";
  setup.profile = &profiles.front().profile;
  setup.model = model.get();
  setup.workload = overlap::model::workloadFromDescriptor(faulty, runner->arguments(), 0);
  overlap::tune::TunerOptions options;
  options.exhaustive = true; // Mapped runs whatever the model thinks of it
  options.search.maxStreams = 4;
  options.timing = {1, 3, 5, 0.02, 0.2};
  const TuningRun run =
      overlap::tune::tune(*runner, setup, options, overlap::tune::TuningCache(""),
                          [](const std::string& line) { std::cout << "  " << line << "\n"; });

  const std::optional<std::size_t> mapped = run.find(overlap::model::Candidate{Variant::Mapped});
  ASSERT_TRUE(mapped.has_value());
  const overlap::tune::CandidateOutcome& caught = run.candidates[*mapped];
  EXPECT_EQ(caught.verification, Verification::WrongResult);
  EXPECT_NE(caught.error.find("y: 1 of " + std::to_string(n)), std::string::npos) << caught.error;
  EXPECT_NE(caught.error.find("[" + std::to_string(n / 2) + "]"), std::string::npos)
      << caught.error;
  EXPECT_EQ(caught.timing.count, 0) << "a wrong candidate must not be timed";
  int passed = 0;
  for (std::size_t i = 0; i < run.candidates.size(); ++i)
    if (i != *mapped && run.candidates[i].run) {
      EXPECT_TRUE(run.candidates[i].usable())
          << overlap::model::describe(run.candidates[i].candidate) << ": "
          << run.candidates[i].error;
      ++passed;
    }
  EXPECT_GE(passed, 3) << "Explicit and the streamed candidates";
  ASSERT_TRUE(run.winner.has_value());
  EXPECT_NE(*run.winner, *mapped);
}

TEST(TunerOnGpu, InOutArraysAreRestoredBeforeEveryTimedRepeat) {
  SKIP_WITHOUT_GPU();
  const overlap::KernelDescriptor observed = saxpyWithRun("saxpy_observed", &hashYThenRun);
  std::string error;
  const std::unique_ptr<overlap::tune::DescriptorRunner> runner =
      overlap::tune::DescriptorRunner::create(observed, {{"n", 1 << 18}},
                                              overlap::tune::RunnerOptions{}, &error);
  ASSERT_TRUE(runner) << error;
  const overlap::tune::TimingPlan plan{1, 4, 4, 0.02, 10.0};
  gYHashes.clear();
  overlap::tune::RunResult result = runner->runReference(plan);
  ASSERT_EQ(result.verification, Verification::Reference) << result.error;
  overlap::model::Candidate streams{Variant::Streams, 2, overlap::IssueOrder::DepthFirst};
  result = runner->runCandidate(streams, plan);
  ASSERT_EQ(result.verification, Verification::Passed) << result.error;
  // Per run: one verified call, one warm-up, four timed repeats.
  ASSERT_EQ(gYHashes.size(), 12u);
  // The final round's turn: no verified call, only the warm-up and the timed repeats.
  result = runner->timeCandidate(streams, plan);
  ASSERT_EQ(result.verification, Verification::Passed) << result.error;
  EXPECT_EQ(result.timing.stats.count, 4);
  ASSERT_EQ(gYHashes.size(), 17u);
  for (std::size_t i = 1; i < gYHashes.size(); ++i)
    EXPECT_EQ(gYHashes[i], gYHashes[0]) << "call " << i << " started from a different y";
}

} // namespace
