// The T4 results and metadata (tuner/tune/T4Report.h) of a hand-made tuning, checked against
// the constraints of the T4 1.0.0 schemas (types, required keys, the invalidity enum, the version
// pattern) as written in TuningSchema's results and metadata schemas.
#include "tune/T4Report.h"

#include "CandidateOutcomes.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <regex>
#include <set>

namespace overlap::tune {
namespace {

using nlohmann::json;

CandidateOutcome outcome(Variant variant, int streams, Verification verification,
                         std::vector<double> samples, const std::string& error = {}) {
  return testing::outcomeOf({variant, streams}, verification, std::move(samples), error);
}

// Streams(4, 32 chunks, depth-first).
model::Candidate chunked() {
  model::Candidate candidate{Variant::Streams, 4};
  candidate.chunks = 32;
  return candidate;
}

TuningRun sampleRun() {
  TuningRun run;
  run.kernel = "saxpy";
  run.sourceFile = "saxpy.cu";
  run.arguments = {{"n", 1 << 20}};
  run.device = "NVIDIA H100 80GB HBM3";
  run.date = "2026-11-24";
  run.candidates = {
      outcome(Variant::Explicit, 1, Verification::Reference, {2e-3, 2.1e-3, 2.2e-3}),
      outcome(Variant::Mapped, 1, Verification::WrongResult, {}, "y: 3 of 100 elements differ"),
      outcome(Variant::Streams, 8, Verification::Passed, {1e-3, 1.2e-3, 1.1e-3}),
      testing::outcomeOf(chunked(), Verification::Failed, {}, "cudaMalloc(&p, n) failed"),
      outcome(Variant::Hybrid, 4, Verification::Failed, {},
              "stopped after 60 s: exceeded the candidate time bound"),
      outcome(Variant::Hybrid, 8, Verification::NotRun, {})};
  return run;
}

// The constraints of the T4 results schema 1.0.0.
void expectT4Results(const json& j) {
  ASSERT_TRUE(j.is_object());
  ASSERT_TRUE(j.at("schema_version").is_string());
  EXPECT_TRUE(std::regex_match(j.at("schema_version").get<std::string>(),
                               std::regex("^[0-9]{1,}.[0-9]{1,}.[0-9]{1,}$")));
  ASSERT_TRUE(j.at("results").is_array());
  const std::set<std::string> invalidities = {"timeout",     "compile",     "runtime",
                                              "correctness", "constraints", "correct"};
  for (const json& r : j.at("results")) {
    for (const char* key : {"configuration", "times", "invalidity", "correctness"})
      ASSERT_TRUE(r.contains(key)) << key << " is required: " << r.dump();
    EXPECT_TRUE(r.at("configuration").is_object());
    EXPECT_TRUE(r.at("times").is_object());
    EXPECT_TRUE(r.at("times").at("runtimes").is_array());
    EXPECT_TRUE(invalidities.count(r.at("invalidity").get<std::string>())) << r.dump();
    EXPECT_TRUE(r.at("correctness").is_number());
    EXPECT_TRUE(r.at("timestamp").is_string());
    EXPECT_TRUE(r.at("objectives").is_array());
    for (const json& m : r.at("measurements")) {
      EXPECT_TRUE(m.at("name").is_string());
      EXPECT_TRUE(m.at("value").is_number() || m.at("value").is_string() ||
                  m.at("value").is_array());
      EXPECT_TRUE(m.at("unit").is_string());
    }
  }
}

TEST(T4Report, EveryCandidateThatRanIsAResultWithItsValidity) {
  const json j = json::parse(toT4ResultsText(sampleRun()));
  expectT4Results(j);
  const json& results = j.at("results");
  ASSERT_EQ(results.size(), 5u) << "the candidate that did not run is no result";
  std::vector<std::string> invalidity;
  for (const json& r : results)
    invalidity.push_back(r.at("invalidity"));
  EXPECT_EQ(invalidity,
            (std::vector<std::string>{"correct", "correctness", "correct", "runtime", "timeout"}));
  EXPECT_EQ(results[1].at("correctness"), 0);
  // Every configuration has the same parameters: chunks 0 is one chunk per stream.
  EXPECT_EQ(results[2].at("configuration"), (json{{"variant", "Streams"},
                                                  {"streams", 8},
                                                  {"order", "depth-first"},
                                                  {"pageable", "default"},
                                                  {"chunks", 0}}));
  EXPECT_EQ(results[3].at("configuration").at("chunks"), 32);
  EXPECT_EQ(results[2].at("times").at("runtimes"), (json{1.0, 1.2, 1.1}));
  ASSERT_EQ(results[2].at("measurements").size(), 1u);
  EXPECT_DOUBLE_EQ(results[2].at("measurements")[0].at("value").get<double>(), 1.1);
  EXPECT_TRUE(results[3].at("measurements").empty()) << "a failed candidate has no time";
}

TEST(T4Report, TheMetadataNamesTheDeviceAndWhatWasTuned) {
  const json j = json::parse(toT4MetadataText(sampleRun()));
  EXPECT_EQ(j.at("schema_version"), kT4SchemaVersion);
  const json& metadata = j.at("metadata");
  ASSERT_TRUE(metadata.is_object());
  EXPECT_EQ(metadata.at("environment").at("device_query").at("name"), "NVIDIA H100 80GB HBM3");
  EXPECT_TRUE(metadata.at("environment").at("requirements").is_array());
  EXPECT_EQ(metadata.at("overlap").at("kernel"), "saxpy");
  EXPECT_EQ(metadata.at("overlap").at("arguments").at("n"), 1 << 20);
}

} // namespace
} // namespace overlap::tune
