// The tuner end to end on the GPU, through the generated code of two examples: saxpy (offset mode,
// one in-out array) and buoydiff (range mode, a broadcast section and a halo). It runs the tuning
// command as overlap_tune() does, reads back the reports and the results file, checks that every
// candidate that ran was verified, that a candidate computing a wrong result is caught, that in-out
// arrays are restored before every timed repeat, and that saxpy_tuned(...) calls the winner
// (overlap::last_dispatch_choice tells which variant a call ran), then the OVERLAP_VARIANT override
// and the fallback order. Every test skips without a CUDA device.
#include "buoydiff.overlap.h"
#include "dispatch_environment.h"
#include "gpu_skip.h"
#include "saxpy.overlap.h"

#include "model/candidate_set.h"
#include "model/workload_from_descriptor.h"
#include "overlap/device_context.h"
#include "overlap/dispatch.h"
#if OVERLAP_FAULT_INJECTION
#include "overlap/fault_injection.h"
#endif
#include "overlap/pinned_buffer.h"
#include "overlap/profile_catalog.h"
#include "tune/descriptor_runner.h"
#include "tune/dispatch_table_source.h"
#include "tune/model_choice.h"
#include "tune/report_json.h"
#include "tune/results_file.h"
#include "tune/results_registration.h"
#include "tune/tune_command.h"
#include "tune/tuner.h"

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

std::string read_text(const fs::path& path) {
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
int tune_command(const std::vector<std::string>& args) {
  std::ostringstream out;
  std::ostringstream err;
  std::vector<std::string> all = args;
  for (const char* arg : {"--no-cache", "--seed", "12345", "--repeats", "3:8"})
    all.emplace_back(arg);
  const int status = overlap::tune::run_tune_command(all, out, err);
  std::cout << out.str() << err.str();
  return status;
}

// The JSON, Markdown and SVG reports of `kernel` in `dir` exist and parse; every candidate that
// ran was verified and timed, and every one the model kept ran. Returns the tuning.
TuningRun check_reports(const std::string& dir, const std::string& stem,
                        const std::string& kernel_name = "") {
  const std::string kernel = kernel_name.empty() ? stem : kernel_name;
  TuningRun run;
  const std::string base = dir + "/" + stem + ".tuning";
  const std::string json_text = read_text(base + ".json");
  std::string error;
  // The tuner's reader accepts only its own schema and version.
  EXPECT_TRUE(overlap::tune::from_json_text(json_text, &run, &error)) << error;
  EXPECT_NE(json_text.find("\"candidates_run\": " + std::to_string(run.run_count())),
            std::string::npos);

  EXPECT_EQ(run.kernel, kernel);
  EXPECT_FALSE(run.device.empty());
  EXPECT_FALSE(run.model_only);
  EXPECT_TRUE(run.complete);
  EXPECT_GE(run.run_count(), 2) << "Explicit and at least one other candidate";
  for (const overlap::tune::CandidateOutcome& c : run.candidates) {
    const std::string name = overlap::model::describe(c.candidate);
    if (c.kept_by_model) {
      EXPECT_TRUE(c.run) << name << " was kept by the model but not run";
    }
    if (!c.run)
      continue;
    EXPECT_TRUE(c.verification == Verification::Reference || c.verification == Verification::Passed)
        << name << ": " << overlap::tune::to_string(c.verification) << " " << c.error;
    EXPECT_GT(c.timing.count, 0) << name << " was not timed";
    EXPECT_GT(c.timing.median, 0) << name;
  }
  EXPECT_TRUE(run.winner.has_value()) << run.winner_reason;

  const std::string markdown = read_text(base + ".md");
  EXPECT_NE(markdown.find(kernel), std::string::npos);
  EXPECT_NE(markdown.find(stem + ".tuning.svg"), std::string::npos) << "the plot is not linked";
  if (run.winner) {
    EXPECT_NE(markdown.find(overlap::model::describe(run.candidates[*run.winner].candidate)),
              std::string::npos)
        << "the winner is not named";
  }

  // The T4 files (t4_report.h): one result, with its invalidity, per candidate that ran.
  const std::string t4 = read_text(base + ".T4.json");
  std::size_t t4_results = 0;
  for (std::size_t at = t4.find("\"invalidity\""); at != std::string::npos;
       at = t4.find("\"invalidity\"", at + 1))
    ++t4_results;
  EXPECT_EQ(t4_results, static_cast<std::size_t>(run.run_count())) << t4;
  EXPECT_NE(read_text(base + ".T4-metadata.json").find("\"schema_version\""), std::string::npos);

  const std::string svg = read_text(base + ".svg");
  EXPECT_EQ(svg.find("<svg"), svg.rfind("<svg")) << "one root element";
  EXPECT_NE(svg.find("<svg"), std::string::npos);
  const std::size_t close = svg.rfind("</svg>");
  EXPECT_NE(close, std::string::npos);
  if (close != std::string::npos) {
    EXPECT_EQ(svg.find_first_not_of(" \n", close + 6), std::string::npos) << "text after </svg>";
  }
  return run;
}

std::vector<float> random_floats(std::size_t count, std::uint32_t seed) {
  std::vector<float> values(count);
  std::uint32_t state = seed;
  for (float& v : values) {
    state = state * 1664525u + 1013904223u;
    v = 0.25f + static_cast<float>(state >> 8) / static_cast<float>(1u << 24); // [0.25, 1.25)
  }
  return values;
}

// saxpy_tuned(...) on pinned arrays (on pageable vectors where `pinned` is false); y must equal
// fmaf(a, x, y) element for element.
void call_saxpy_tuned_and_check(int n = (1 << 20) + 3, bool pinned = true) {
  const float a = 1.5f;
  const std::vector<float> x0 = random_floats(n, 1);
  const std::vector<float> y0 = random_floats(n, 2);
  std::vector<float> x_pageable = x0, y_pageable = y0;
  overlap::PinnedBuffer x_pinned, y_pinned;
  float* x = x_pageable.data();
  float* y = y_pageable.data();
  if (pinned) {
    const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(float);
    ASSERT_TRUE(overlap::PinnedBuffer::allocate(bytes, &x_pinned).ok());
    ASSERT_TRUE(overlap::PinnedBuffer::allocate(bytes, &y_pinned).ok());
    x = static_cast<float*>(std::memcpy(x_pinned.data(), x0.data(), bytes));
    y = static_cast<float*>(std::memcpy(y_pinned.data(), y0.data(), bytes));
  }
  const overlap::Status status = saxpy_tuned(n, a, x, y);
  ASSERT_TRUE(status.ok()) << status.message();
  for (int i = 0; i < n; ++i)
    if (y[i] != std::fmaf(a, x0[i], y0[i]))
      FAIL() << "y[" << i << "] = " << y[i] << ", expected " << std::fmaf(a, x0[i], y0[i]);
}

overlap::VariantChoice last_choice(const overlap::KernelDescriptor& kernel) {
  const std::optional<overlap::VariantChoice> choice = overlap::last_dispatch_choice(kernel);
  EXPECT_TRUE(choice.has_value()) << kernel.name << " was never dispatched";
  return choice.value_or(overlap::VariantChoice{});
}

// Same variant and way of handling pageable arrays, and for the streamed ones the same stream
// count and issue order.
bool same_choice(const overlap::RunConfig& config, const overlap::model::Candidate& candidate) {
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
  const std::string results_path = dir.path() + "/results.json";
  ASSERT_EQ(tune_command({"--kernel", "saxpy", "--arg", "n=4194304", "--output-dir", dir.path(),
                          "--results-file", results_path, "--memory", "pinned,pageable"}),
            0);
  const TuningRun run = check_reports(dir.path(), "saxpy");
  ASSERT_TRUE(run.winner.has_value());
  EXPECT_TRUE(run.pinned_inputs);
  const overlap::model::Candidate winner = run.candidates[*run.winner].candidate;
  // The pageable tuning: its own reports, and staged candidates among those that ran.
  const TuningRun pageable_run = check_reports(dir.path(), "saxpy.pageable", "saxpy");
  ASSERT_TRUE(pageable_run.winner.has_value());
  EXPECT_FALSE(pageable_run.pinned_inputs);
  const overlap::model::Candidate pageable_winner =
      pageable_run.candidates[*pageable_run.winner].candidate;
  bool staged_ran = false;
  for (const overlap::tune::CandidateOutcome& c : pageable_run.candidates)
    staged_ran |= c.run && c.candidate.pageable == overlap::PageableMode::Stage;
  EXPECT_TRUE(staged_ran) << "no staged candidate ran on pageable memory";

  overlap::tune::ResultsFile results;
  std::string error;
  ASSERT_TRUE(overlap::tune::read_results_file(results_path, &results, &error)) << error;
  const overlap::tune::ResultsEntry* entry = results.find("saxpy", run.device);
  ASSERT_NE(entry, nullptr) << "no results entry for saxpy on " << run.device;
  ASSERT_EQ(entry->sizes.size(), 1u);
  EXPECT_EQ(entry->sizes[0].choice, winner);
  EXPECT_EQ(entry->sizes[0].extent, 4194304);
  const overlap::tune::ResultsEntry* pageable_entry =
      results.find("saxpy", run.device, overlap::CallMemory::Pageable);
  ASSERT_NE(pageable_entry, nullptr) << "no pageable results entry for saxpy on " << run.device;
  ASSERT_EQ(pageable_entry->sizes.size(), 1u);
  EXPECT_EQ(pageable_entry->sizes[0].choice, pageable_winner);

  // What overlap-bake bakes from this file, registered in this process instead of compiled.
  ASSERT_TRUE(overlap::tune::register_results(results));

  const ScopedDispatchEnvironment no_override("OVERLAP_VARIANT", std::nullopt);
  call_saxpy_tuned_and_check(4194304);
  overlap::VariantChoice choice = last_choice(saxpy_descriptor);
  EXPECT_EQ(choice.source, ChoiceSource::Baked) << choice.reason;
  EXPECT_EQ(choice.memory, overlap::CallMemory::Pinned);
  EXPECT_TRUE(same_choice(choice.config, winner))
      << "ran " << overlap::describe(choice.config) << "; the winner is "
      << overlap::model::describe(winner);
  // Pageable vectors run the pageable tuning's winner.
  call_saxpy_tuned_and_check(4194304, false);
  choice = last_choice(saxpy_descriptor);
  EXPECT_EQ(choice.source, ChoiceSource::Baked) << choice.reason;
  EXPECT_EQ(choice.memory, overlap::CallMemory::Pageable);
  EXPECT_TRUE(same_choice(choice.config, pageable_winner))
      << "ran " << overlap::describe(choice.config) << "; the pageable winner is "
      << overlap::model::describe(pageable_winner);

  // OVERLAP_VARIANT wins over the results, for this kernel only.
  no_override.set("saxpy=streams:3:breadth-first");
  call_saxpy_tuned_and_check();
  choice = last_choice(saxpy_descriptor);
  EXPECT_EQ(choice.source, ChoiceSource::Environment);
  EXPECT_EQ(choice.config.variant, Variant::Streams);
  EXPECT_EQ(choice.config.streams.streams, 3);
  EXPECT_EQ(choice.config.streams.order, overlap::IssueOrder::BreadthFirst);

  no_override.set("buoydiff=mapped");
  call_saxpy_tuned_and_check();
  EXPECT_EQ(last_choice(saxpy_descriptor).source, ChoiceSource::Baked);
}

// buoydiff has no results for this device: the model chooses, and without a model, Explicit; both
// compute what buoydiff_explicit computes.
TEST(TunerOnGpu, WithoutResultsTheEntryPointFallsBackToTheModelThenExplicit) {
  SKIP_WITHOUT_GPU();
  const ScopedDispatchEnvironment no_override("OVERLAP_VARIANT", std::nullopt);
  const int levels = 9;
  const long long plane = 70001;
  const std::size_t count = static_cast<std::size_t>(levels * plane);
  const std::vector<float> rho = random_floats(count, 3);
  std::vector<float> expected(count, -1.0f);
  ASSERT_TRUE(buoydiff_explicit(levels, plane, rho.data(), expected.data()).ok());
  overlap::PinnedBuffer pinned_rho, pinned_dbloc;
  ASSERT_TRUE(overlap::PinnedBuffer::allocate(count * sizeof(float), &pinned_rho).ok());
  ASSERT_TRUE(overlap::PinnedBuffer::allocate(count * sizeof(float), &pinned_dbloc).ok());
  std::memcpy(pinned_rho.data(), rho.data(), count * sizeof(float));

  // Pinned arrays: the model's choice, or Explicit without a model. Pageable ones: Explicit even
  // with the model, which does not price them.
  for (const auto& [with_model, pinned] : {std::pair{true, true}, {false, true}, {true, false}}) {
    SCOPED_TRACE(std::string(with_model ? "with" : "without") + " the model, " +
                 (pinned ? "pinned" : "pageable"));
    overlap::set_model_chooser(with_model ? &overlap::tune::choose_by_model : nullptr);
    std::vector<float> pageable_dbloc(count, -1.0f);
    float* const dbloc = pinned ? static_cast<float*>(pinned_dbloc.data()) : pageable_dbloc.data();
    std::fill(dbloc, dbloc + count, -1.0f);
    const overlap::Status status = buoydiff_tuned(
        levels, plane, pinned ? static_cast<const float*>(pinned_rho.data()) : rho.data(), dbloc);
    overlap::tune::install_model_dispatch();
    ASSERT_TRUE(status.ok()) << status.message();
    const overlap::VariantChoice choice = last_choice(buoydiff_descriptor);
    const bool modelled = with_model && pinned;
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
  const std::string results_path = dir.path() + "/results.json";
  ASSERT_EQ(tune_command({"--kernel", "saxpy", "--sweep", "n=16384..4194304:3", "--refine", "1",
                          "--output-dir", dir.path(), "--results-file", results_path}),
            0);
  for (const char* suffix : {".json", ".md", ".svg"})
    EXPECT_TRUE(fs::exists(dir.path() + "/saxpy.sweep" + suffix)) << suffix;
  EXPECT_NE(read_text(dir.path() + "/saxpy.sweep.md").find("## Winner against size"),
            std::string::npos);

  overlap::tune::ResultsFile results;
  std::string error;
  ASSERT_TRUE(overlap::tune::read_results_file(results_path, &results, &error)) << error;
  ASSERT_EQ(results.entries.size(), 1u);
  const overlap::tune::ResultsEntry& entry = results.entries[0];
  EXPECT_EQ(entry.sweep, "n=16384..4194304:3");
  ASSERT_GE(entry.sizes.size(), 3u);
  ASSERT_LE(entry.sizes.size(), 4u) << "3 sizes and at most 1 refinement";
  // The source overlap-bake would write names every size.
  const std::string source = overlap::tune::render_dispatch_table(results, {"the sweep", true});
  for (const overlap::tune::ResultsSize& size : entry.sizes)
    EXPECT_NE(source.find("{" + std::to_string(size.extent) + "LL, "), std::string::npos);

  ASSERT_TRUE(overlap::tune::register_results(results));
  const ScopedDispatchEnvironment no_override("OVERLAP_VARIANT", std::nullopt);
  for (const overlap::tune::ResultsSize& size : entry.sizes) {
    SCOPED_TRACE("n = " + std::to_string(size.extent));
    call_saxpy_tuned_and_check(static_cast<int>(size.extent));
    const overlap::VariantChoice choice = last_choice(saxpy_descriptor);
    EXPECT_EQ(choice.source, ChoiceSource::Baked) << choice.reason;
    EXPECT_TRUE(same_choice(choice.config, size.choice))
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
  ASSERT_TRUE(overlap::tune::register_results(results));
  const ScopedDispatchEnvironment no_override("OVERLAP_VARIANT", std::nullopt);
  // The next call allocates its device buffers, and the first allocation, Streams', fails.
  ASSERT_TRUE(overlap::release_cached_device_memory().ok());
  {
    const overlap::fault::ScopedFault out_of_memory("cudaMalloc", 1, cudaErrorMemoryAllocation);
    call_saxpy_tuned_and_check(1 << 20);
    EXPECT_TRUE(overlap::fault::fired()) << "no cudaMalloc failed: the test tested nothing";
  }
  const overlap::VariantChoice choice = last_choice(saxpy_descriptor);
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
  ASSERT_EQ(tune_command({"--kernel", "buoydiff", "--arg", "levels=16", "--arg", "plane=262144",
                          "--output-dir", dir.path()}),
            0);
  const TuningRun run = check_reports(dir.path(), "buoydiff");
  bool streamed_ran = false;
  for (const overlap::tune::CandidateOutcome& c : run.candidates)
    streamed_ran |= c.run && (c.candidate.variant == Variant::Streams ||
                              c.candidate.variant == Variant::Hybrid);
  EXPECT_TRUE(streamed_ran) << "no chunked candidate ran, so the halo was never exercised";
}

// A copy of saxpy's descriptor whose run is replaced by a test function, so faults can be injected
// and the calls observed without touching the tuner.
const overlap::KernelDescriptor* g_wrapped = nullptr;

int param_index(const overlap::KernelDescriptor& kernel, const char* name) {
  for (int i = 0; i < kernel.param_count; ++i)
    if (std::strcmp(kernel.params[i].name, name) == 0)
      return i;
  ADD_FAILURE() << kernel.name << " has no parameter " << name;
  return 0;
}

int saxpy_n(overlap::ArgPointers args) {
  return *static_cast<const int*>(args[param_index(saxpy_descriptor, "n")]);
}
float* saxpy_y(overlap::ArgPointers args) {
  return *static_cast<float* const*>(args[param_index(saxpy_descriptor, "y")]);
}

// The fault: Mapped computes y, then one element changes, as a chunking bug that loses one
// element would leave it.
overlap::Status mapped_corrupts_one_element(overlap::ArgPointers args,
                                            const overlap::RunConfig& config) {
  const overlap::Status status = g_wrapped->run(args, config);
  if (status.ok() && config.variant == Variant::Mapped)
    saxpy_y(args)[saxpy_n(args) / 2] += 1.0f;
  return status;
}

// FNV-1a of y's bytes at the start of every call.
std::vector<std::uint64_t> g_y_hashes;
overlap::Status hash_y_then_run(overlap::ArgPointers args, const overlap::RunConfig& config) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(saxpy_y(args));
  std::uint64_t hash = 1469598103934665603ull;
  for (std::size_t i = 0; i < static_cast<std::size_t>(saxpy_n(args)) * sizeof(float); ++i)
    hash = (hash ^ bytes[i]) * 1099511628211ull;
  g_y_hashes.push_back(hash);
  return g_wrapped->run(args, config);
}

overlap::KernelDescriptor saxpy_with_run(const char* name, decltype(&hash_y_then_run) run) {
  g_wrapped = &saxpy_descriptor;
  overlap::KernelDescriptor wrapped = saxpy_descriptor;
  wrapped.name = name;
  wrapped.run = run;
  return wrapped;
}

TEST(TunerOnGpu, ACandidateWithAWrongResultIsCaughtAndNeverWins) {
  SKIP_WITHOUT_GPU();
  const overlap::KernelDescriptor faulty =
      saxpy_with_run("saxpy_mapped_faulty", &mapped_corrupts_one_element);
  const int n = 1 << 20;
  std::string error;
  overlap::tune::RunnerOptions runner_options;
  runner_options.seed = 99;
  const std::unique_ptr<overlap::tune::DescriptorRunner> runner =
      overlap::tune::DescriptorRunner::create(faulty, {{"n", n}}, runner_options, &error);
  ASSERT_TRUE(runner) << error;

  const std::vector<overlap::CatalogEntry> profiles = overlap::builtin_profiles();
  ASSERT_FALSE(profiles.empty());
  const std::unique_ptr<overlap::model::PerformanceModel> model =
      overlap::model::make_model(overlap::model::ModelKind::Modern);
  overlap::tune::TuningSetup setup;
  setup.header.kernel = faulty.name;
  setup.header.device = "the test's GPU";
  setup.profile = &profiles.front().profile;
  setup.model = model.get();
  setup.workload = overlap::model::workload_from_descriptor(faulty, runner->arguments(), 0);
  overlap::tune::TunerOptions options;
  options.exhaustive = true; // Mapped runs whatever the model thinks of it
  options.search.max_streams = 4;
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
  const overlap::KernelDescriptor observed = saxpy_with_run("saxpy_observed", &hash_y_then_run);
  std::string error;
  const std::unique_ptr<overlap::tune::DescriptorRunner> runner =
      overlap::tune::DescriptorRunner::create(observed, {{"n", 1 << 18}},
                                              overlap::tune::RunnerOptions{}, &error);
  ASSERT_TRUE(runner) << error;
  const overlap::tune::TimingPlan plan{1, 4, 4, 0.02, 10.0};
  g_y_hashes.clear();
  overlap::tune::RunResult result = runner->run_reference(plan);
  ASSERT_EQ(result.verification, Verification::Reference) << result.error;
  overlap::model::Candidate streams{Variant::Streams, 2, overlap::IssueOrder::DepthFirst};
  result = runner->run_candidate(streams, plan);
  ASSERT_EQ(result.verification, Verification::Passed) << result.error;
  // Per run: one verified call, one warm-up, four timed repeats.
  ASSERT_EQ(g_y_hashes.size(), 12u);
  for (std::size_t i = 1; i < g_y_hashes.size(); ++i)
    EXPECT_EQ(g_y_hashes[i], g_y_hashes[0]) << "call " << i << " started from a different y";
}

} // namespace
