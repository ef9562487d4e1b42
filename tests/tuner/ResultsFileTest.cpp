#include "tune/results_file.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace overlap::tune {
namespace {

ResultsEntry entry(const std::string& device, Variant variant, int streams) {
  ResultsEntry e;
  e.kernel = "saxpy";
  e.device = device;
  e.arguments = {{"n", 67108864}};
  e.choice = {variant, streams};
  e.median_seconds = 10.7e-3;
  e.speedup_over_explicit = 1.38;
  e.date = "2026-11-21";
  return e;
}

TEST(ResultsFile, RoundTripsAndKeepsOneEntryPerKernelAndDevice) {
  ResultsFile file;
  file.put(entry("NVIDIA H100 80GB HBM3", Variant::Streams, 16));
  file.put(entry("NVIDIA H200", Variant::Mapped, 1));
  file.put(entry("NVIDIA H100 80GB HBM3", Variant::Hybrid, 8)); // replaces the first
  ASSERT_EQ(file.entries.size(), 2u);
  ResultsFile back;
  std::string error;
  ASSERT_TRUE(from_json_text(to_json_text(file), &back, &error)) << error;
  const ResultsEntry* h100 = back.find("saxpy", "NVIDIA H100 80GB HBM3");
  ASSERT_NE(h100, nullptr);
  EXPECT_EQ(h100->choice, (model::Candidate{Variant::Hybrid, 8}));
  EXPECT_EQ(h100->arguments, file.entries[0].arguments);
  EXPECT_EQ(back.find("saxpy", "NVIDIA A100"), nullptr);
}

TEST(ResultsFile, RejectsWhatItCannotTrust) {
  ResultsFile file;
  std::string error;
  EXPECT_FALSE(from_json_text("not json", &file, &error));
  EXPECT_FALSE(from_json_text(R"({"schema": "overlap-tuning-results", "schema_version": 2})", &file,
                              &error));
  EXPECT_NE(error.find("version 2"), std::string::npos);
  EXPECT_FALSE(from_json_text(R"({"schema": "overlap-tuning-results", "schema_version": 1,
      "entries": [{"kernel": "k", "device": "d", "variant": "Turbo"}]})",
                              &file, &error));
  EXPECT_NE(error.find("entry 0: unknown variant \"Turbo\""), std::string::npos) << error;
  EXPECT_FALSE(from_json_text(R"({"schema": "overlap-tuning-results", "schema_version": 1,
      "entries": [{"kernel": "k", "device": "d", "variant": "Streams", "streams": 0}]})",
                              &file, &error));
  EXPECT_FALSE(from_json_text(R"({"schema": "overlap-tuning-results", "schema_version": 1,
      "entries": [{"kernel": "k", "device": "d", "variant": "Mapped"},
                  {"kernel": "k", "device": "d", "variant": "Explicit"}]})",
                              &file, &error));
  EXPECT_NE(error.find("entry 1: a second entry"), std::string::npos) << error;
}

TEST(ResultsFile, AMissingFileIsEmptyAndAWrittenOneReadsBack) {
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("overlap-results-" + std::to_string(::getpid()) + ".json"))
                               .string();
  std::filesystem::remove(path);
  ResultsFile file;
  file.put(entry("x", Variant::Streams, 4));
  std::string error;
  ResultsFile empty = file;
  ASSERT_TRUE(read_results_file(path, &empty, &error)) << error;
  EXPECT_TRUE(empty.entries.empty());
  ASSERT_TRUE(write_results_file(path, file, &error)) << error;
  ResultsFile back;
  ASSERT_TRUE(read_results_file(path, &back, &error)) << error;
  EXPECT_EQ(back.entries.size(), 1u);
  std::filesystem::remove(path);
}

} // namespace
} // namespace overlap::tune
