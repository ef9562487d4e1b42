#include "tune/ResultsFile.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <vector>

namespace overlap::tune {
namespace {

ResultsSize size(long long n, Variant variant, int streams) {
  ResultsSize s;
  s.extent = n;
  s.arguments = {{"n", n}};
  s.choice = {variant, streams};
  s.medianSeconds = 10.7e-3;
  s.predictedSeconds = 9.9e-3;
  s.kernelSeconds = 1.5e-3;
  s.speedupOverExplicit = 1.38;
  return s;
}

ResultsEntry entry(const std::string& device, Variant variant, int streams) {
  ResultsEntry e;
  e.kernel = "saxpy";
  e.device = device;
  e.date = "2026-11-21";
  e.sizes = {size(67108864, variant, streams)};
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
  ASSERT_TRUE(fromJsonText(toJsonText(file), &back, &error)) << error;
  const ResultsEntry* h100 = back.find("saxpy", "NVIDIA H100 80GB HBM3");
  ASSERT_NE(h100, nullptr);
  ASSERT_EQ(h100->sizes.size(), 1u);
  EXPECT_EQ(h100->sizes[0].choice, (model::Candidate{Variant::Hybrid, 8}));
  EXPECT_EQ(h100->sizes[0].arguments, file.entries[0].sizes[0].arguments);
  EXPECT_EQ(h100->sizes[0].predictedSeconds, 9.9e-3);
  EXPECT_EQ(h100->sizes[0].kernelSeconds, 1.5e-3);
  EXPECT_EQ(back.find("saxpy", "NVIDIA A100"), nullptr);
}

TEST(ResultsFile, EachMemorysTuningIsAnEntry) {
  ResultsFile file;
  file.put(entry("NVIDIA H100 80GB HBM3", Variant::Mapped, 1));
  ResultsEntry pageable = entry("NVIDIA H100 80GB HBM3", Variant::Streams, 8);
  pageable.memory = CallMemory::Pageable;
  pageable.sizes[0].choice.pageable = PageableMode::Stage;
  file.put(pageable);
  ResultsEntry registered = entry("NVIDIA H100 80GB HBM3", Variant::Hybrid, 4);
  registered.memory = CallMemory::Registered;
  file.put(registered);
  ASSERT_EQ(file.entries.size(), 3u);
  ResultsFile back;
  std::string error;
  ASSERT_TRUE(fromJsonText(toJsonText(file), &back, &error)) << error;
  const ResultsEntry* pinned = back.find("saxpy", "NVIDIA H100 80GB HBM3", CallMemory::Pinned);
  const ResultsEntry* staged = back.find("saxpy", "NVIDIA H100 80GB HBM3", CallMemory::Pageable);
  ASSERT_NE(pinned, nullptr);
  ASSERT_NE(staged, nullptr);
  EXPECT_EQ(pinned->sizes[0].choice.variant, Variant::Mapped);
  EXPECT_EQ(staged->sizes[0].choice.variant, Variant::Streams);
  EXPECT_EQ(staged->sizes[0].choice.pageable, PageableMode::Stage);
  const ResultsEntry* held = back.find("saxpy", "NVIDIA H100 80GB HBM3", CallMemory::Registered);
  ASSERT_NE(held, nullptr);
  EXPECT_EQ(held->sizes[0].choice.variant, Variant::Hybrid);
}

TEST(ResultsFile, ASweepKeepsEverySizeAscending) {
  ResultsEntry sweep = entry("NVIDIA H200", Variant::Mapped, 1);
  sweep.sweep = "n=4096..67108864:7";
  sweep.sizes = {size(1 << 20, Variant::Streams, 4), size(4096, Variant::Mapped, 1),
                 size(1 << 26, Variant::Hybrid, 16)};
  ResultsFile file;
  file.put(sweep);
  ResultsFile back;
  std::string error;
  ASSERT_TRUE(fromJsonText(toJsonText(file), &back, &error)) << error;
  const ResultsEntry& read = back.entries.at(0);
  EXPECT_EQ(read.sweep, "n=4096..67108864:7");
  ASSERT_EQ(read.sizes.size(), 3u);
  EXPECT_EQ(read.sizes[0].extent, 4096);
  EXPECT_EQ(read.sizes[1].choice, (model::Candidate{Variant::Streams, 4}));
  EXPECT_EQ(read.sizes[2].extent, 1 << 26);
}

TEST(ResultsFile, AWinnersChunksRoundTripAndOnlyThenTheFileIsVersionFour) {
  ResultsFile file;
  ResultsEntry sweep = entry("NVIDIA H100 80GB HBM3", Variant::Streams, 4);
  sweep.sizes.push_back(size(1 << 30, Variant::Hybrid, 8));
  file.put(sweep);
  // One chunk per stream everywhere: what version 3 wrote, without a "chunks" field.
  const std::string plain = toJsonText(file);
  EXPECT_NE(plain.find("\"schema_version\": 3"), std::string::npos) << plain;
  EXPECT_EQ(plain.find("\"chunks\""), std::string::npos) << plain;
  file.entries[0].sizes[1].choice.chunks = 64;
  const std::string chunked = toJsonText(file);
  EXPECT_NE(chunked.find("\"schema_version\": 4"), std::string::npos) << chunked;
  ResultsFile back;
  std::string error;
  ASSERT_TRUE(fromJsonText(chunked, &back, &error)) << error;
  const std::vector<ResultsSize>& sizes = back.entries.at(0).sizes;
  ASSERT_EQ(sizes.size(), 2u);
  EXPECT_EQ(sizes[0].choice.chunks, 0);
  model::Candidate hybrid{Variant::Hybrid, 8};
  hybrid.chunks = 64;
  EXPECT_EQ(sizes[1].choice, hybrid);
  EXPECT_EQ(model::describe(sizes[1].choice), "Hybrid(8, 64 chunks, depth-first)");
  // Absent reads as one per stream, so version 3 files stay valid.
  ASSERT_TRUE(fromJsonText(plain, &back, &error)) << error;
  EXPECT_EQ(back.entries.at(0).sizes[1].choice.chunks, 0);
}

TEST(ResultsFile, ASplitWinnersDevicesRoundTrip) {
  ResultsFile file;
  file.put(entry("NVIDIA H100 80GB HBM3", Variant::Mapped, 1));
  EXPECT_EQ(toJsonText(file).find("\"devices\""), std::string::npos);
  file.entries[0].sizes[0].choice.devices = 2;
  const std::string split = toJsonText(file);
  EXPECT_NE(split.find("\"devices\": 2"), std::string::npos) << split;
  ResultsFile back;
  std::string error;
  ASSERT_TRUE(fromJsonText(split, &back, &error)) << error;
  EXPECT_EQ(back.entries.at(0).sizes[0].choice.devices, 2);
  EXPECT_EQ(model::describe(back.entries.at(0).sizes[0].choice), "Mapped on 2 GPUs");
}

TEST(ResultsFile, AGraphWinnerRoundTripsAndOnlyStreamedOnesHaveIt) {
  ResultsFile file;
  file.put(entry("NVIDIA H100 80GB HBM3", Variant::Streams, 4));
  EXPECT_EQ(toJsonText(file).find("\"graph\""), std::string::npos);
  file.entries[0].sizes[0].choice.graph = true;
  const std::string graph = toJsonText(file);
  EXPECT_NE(graph.find("\"graph\": true"), std::string::npos) << graph;
  EXPECT_NE(graph.find("\"schema_version\": 4"), std::string::npos) << graph;
  ResultsFile back;
  std::string error;
  ASSERT_TRUE(fromJsonText(graph, &back, &error)) << error;
  EXPECT_TRUE(back.entries.at(0).sizes[0].choice.graph);
  EXPECT_EQ(model::describe(back.entries.at(0).sizes[0].choice), "Graph-Streams(4, depth-first)");
  std::string mapped = graph;
  mapped.replace(mapped.find("\"Streams\""), 9, "\"Mapped\"");
  EXPECT_FALSE(fromJsonText(mapped, &back, &error));
  EXPECT_NE(error.find("graph: only Streams and Hybrid have a graph form"), std::string::npos)
      << error;
}

TEST(ResultsFile, AStagedWinnersStagingThreadsRoundTripAndOnlyThenAreWritten) {
  ResultsFile file;
  ResultsEntry pageable = entry("NVIDIA H200", Variant::Streams, 8);
  pageable.memory = CallMemory::Pageable;
  pageable.sizes[0].choice.pageable = PageableMode::Stage;
  file.put(pageable);
  // Automatic threads: no field, and the file stays what version 3 wrote.
  const std::string automatic = toJsonText(file);
  EXPECT_EQ(automatic.find("\"staging_threads\""), std::string::npos) << automatic;
  EXPECT_NE(automatic.find("\"schema_version\": 3"), std::string::npos) << automatic;
  file.entries[0].sizes[0].choice.staging.threads = 12;
  const std::string own = toJsonText(file);
  EXPECT_NE(own.find("\"staging_threads\": 12"), std::string::npos) << own;
  EXPECT_NE(own.find("\"schema_version\": 4"), std::string::npos) << own;
  ResultsFile back;
  std::string error;
  ASSERT_TRUE(fromJsonText(own, &back, &error)) << error;
  model::Candidate staged{Variant::Streams, 8, IssueOrder::DepthFirst, PageableMode::Stage};
  staged.staging.threads = 12;
  const model::Candidate& read = back.entries.at(0).sizes.at(0).choice;
  EXPECT_EQ(read, staged);
  EXPECT_EQ(read.staging.threads, 12);
  EXPECT_EQ(read.staging.slotBytes, 0u) << "the ring's slots stay automatic";
  EXPECT_EQ(read.staging.slots, 0);
  // A file without it reads as automatic.
  ASSERT_TRUE(fromJsonText(automatic, &back, &error)) << error;
  EXPECT_EQ(back.entries.at(0).sizes.at(0).choice.staging.threads, 0);
}

std::string withSizes(const std::string& sizes) {
  return R"({"schema": "overlap-tuning-results", "schema_version": 3,
             "entries": [{"kernel": "k", "device": "d", "memory": "pinned", "sizes": )" +
         sizes + "}]}";
}

TEST(ResultsFile, RejectsWhatItCannotTrust) {
  ResultsFile file;
  std::string error;
  EXPECT_FALSE(fromJsonText("not json", &file, &error));
  EXPECT_FALSE(
      fromJsonText(R"({"schema": "overlap-tuning-results", "schema_version": 5})", &file, &error));
  EXPECT_NE(error.find("schema_version: 5"), std::string::npos) << error;
  EXPECT_NE(error.find("written by a newer Overlap"), std::string::npos) << error;
  EXPECT_FALSE(fromJsonText(withSizes(R"([{"extent": 1, "variant": "Turbo"}])"), &file, &error));
  EXPECT_NE(error.find("entries[0].sizes[0].variant: unknown variant \"Turbo\""), std::string::npos)
      << error;
  EXPECT_FALSE(fromJsonText(withSizes(R"([{"extent": 1, "variant": "Streams", "streams": 0}])"),
                            &file, &error));
  EXPECT_NE(error.find("entries[0].sizes[0].streams"), std::string::npos) << error;
  EXPECT_FALSE(fromJsonText(R"({"schema": "overlap-tuning-results", "schema_version": 3,
      "entries": [{"kernel": "k", "device": "d", "memory": "pinned", "sizes": [{"extent": 1, "variant": "Mapped"}]},
                  {"kernel": "k", "device": "d", "memory": "pinned", "sizes": [{"extent": 1, "variant": "Mapped"}]}]})",
                            &file, &error));
  EXPECT_NE(error.find("entries[1]: a second entry"), std::string::npos) << error;
  EXPECT_FALSE(fromJsonText(withSizes(R"([{"extent": 1, "variant": "Streams", "streams": 2,
                                              "pageable": "sometimes"}])"),
                            &file, &error));
  EXPECT_NE(error.find("entries[0].sizes[0].pageable: unknown pageable mode"), std::string::npos)
      << error;
  EXPECT_FALSE(fromJsonText(R"({"schema": "overlap-tuning-results", "schema_version": 3,
      "entries": [{"kernel": "k", "device": "d", "memory": "unified", "sizes": []}]})",
                            &file, &error));
  EXPECT_NE(error.find(
                "entries[0].memory: \"unified\" is not \"pinned\", \"registered\", \"pageable\" or "
                "\"managed\""),
            std::string::npos)
      << error;
}

// An older file is refused with the remedy, and the reader says it was older (the tuner then
// replaces it); a newer one is refused without that.
TEST(ResultsFile, AnOlderSchemaIsRefusedWithTheRemedy) {
  const std::string version1 = R"({"schema": "overlap-tuning-results", "schema_version": 1,
      "entries": [{"kernel": "saxpy", "device": "d", "variant": "Mapped"}]})";
  ResultsFile file;
  std::string error;
  bool older = false;
  EXPECT_FALSE(fromJsonText(version1, &file, &error, &older));
  EXPECT_TRUE(older);
  EXPECT_NE(error.find("schema_version: 1"), std::string::npos) << error;
  EXPECT_NE(error.find("re-run overlap_tune"), std::string::npos) << error;
  // Version 2 did not say which memory a tuning was on.
  EXPECT_FALSE(fromJsonText(R"({"schema": "overlap-tuning-results", "schema_version": 2,
      "entries": []})",
                            &file, &error, &older));
  EXPECT_TRUE(older);
  EXPECT_FALSE(fromJsonText(R"({"schema": "overlap-tuning-results", "schema_version": 9})", &file,
                            &error, &older));
  EXPECT_FALSE(older);
}

// Corrupt or foreign files are refused with the field that is wrong, never taken as empty: a
// results file that silently lost its entries would dispatch every kernel to the model's guess.
TEST(ResultsFile, CorruptOrForeignTextIsRefusedNamingTheField) {
  struct Case {
    const char* what;
    std::string text;
    std::string expected; // in the error
  };
  const std::string good = toJsonText([] {
    ResultsFile file;
    file.put(entry("NVIDIA H200", Variant::Streams, 16));
    return file;
  }());
  const std::vector<Case> cases = {
      {"empty", "", "not JSON"},
      {"truncated", good.substr(0, good.size() / 2), "not JSON"},
      {"foreign JSON", R"({"name": "h100", "link": {}})", "not a tuning-results file"},
      {"a JSON array", "[1, 2]", "not a tuning-results file"},
      {"schema of the wrong type", R"({"schema": 5})", "schema: has the wrong type"},
      {"no entries", R"({"schema": "overlap-tuning-results", "schema_version": 3})",
       "entries: missing"},
      {"entries not an array",
       R"({"schema": "overlap-tuning-results", "schema_version": 3, "entries": "x"})",
       "entries: expected an array"},
      {"an entry not an object",
       R"({"schema": "overlap-tuning-results", "schema_version": 3, "entries": [3]})",
       "entries[0]: expected an object"},
      {"no sizes", R"({"schema": "overlap-tuning-results", "schema_version": 3,
          "entries": [{"kernel": "k", "device": "d", "memory": "pinned"}]})",
       "entries[0].sizes: missing"},
      {"no size", withSizes("[]"), "entries[0].sizes: is empty"},
      {"a size without its extent", withSizes(R"([{"variant": "Mapped"}])"),
       "entries[0].sizes[0].extent: missing"},
      {"sizes out of order",
       withSizes(R"([{"extent": 8, "variant": "Mapped"}, {"extent": 8, "variant": "Explicit"}])"),
       "entries[0].sizes[1].extent: 8 is not above the previous size's 8"},
      {"streams of the wrong type",
       withSizes(R"([{"extent": 1, "variant": "Streams", "streams": "16"}])"),
       "entries[0].sizes[0].streams: has the wrong type (string)"},
      {"an argument of the wrong type",
       withSizes(R"([{"extent": 1, "variant": "Mapped", "arguments": {"n": 1.5}}])"),
       "entries[0].sizes[0].arguments.n: has the wrong type"},
      {"a negative time", withSizes(R"([{"extent": 1, "variant": "Mapped", "median_s": -1}])"),
       "entries[0].sizes[0].median_s: is negative"},
      {"no devices", withSizes(R"([{"extent": 1, "variant": "Mapped", "devices": 0}])"),
       "entries[0].sizes[0].devices: is not a device count (1 or more)"},
      {"negative chunks",
       withSizes(R"([{"extent": 1, "variant": "Streams", "streams": 2, "chunks": -4}])"),
       "entries[0].sizes[0].chunks: is negative"},
      {"chunks of the wrong type",
       withSizes(R"([{"extent": 1, "variant": "Hybrid", "streams": 2, "chunks": 2.5}])"),
       "entries[0].sizes[0].chunks: has the wrong type"},
      {"negative staging threads",
       withSizes(R"([{"extent": 1, "variant": "Streams", "streams": 2, "pageable": "staged",
                      "staging_threads": -2}])"),
       "entries[0].sizes[0].staging_threads: is negative"},
      {"staging threads of the wrong type",
       withSizes(R"([{"extent": 1, "variant": "Hybrid", "streams": 2, "pageable": "staged",
                      "staging_threads": 1.5}])"),
       "entries[0].sizes[0].staging_threads: has the wrong type"},
      {"a missing kernel", R"({"schema": "overlap-tuning-results", "schema_version": 3,
          "entries": [{"device": "d", "memory": "pinned", "sizes": [{"extent": 1, "variant": "Mapped"}]}]})",
       "entries[0].kernel: missing"},
  };
  for (const Case& c : cases) {
    ResultsFile file;
    file.put(entry("kept", Variant::Mapped, 1));
    std::string error;
    EXPECT_FALSE(fromJsonText(c.text, &file, &error)) << c.what;
    EXPECT_NE(error.find(c.expected), std::string::npos) << c.what << ": " << error;
    EXPECT_EQ(file.entries.size(), 1u) << c.what << ": a refused file must leave the old one";
  }
}

TEST(ResultsFile, AnEmptyFileOnDiskIsRefusedNamingThePath) {
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("overlap-results-empty-" + std::to_string(::getpid()) + ".json"))
                               .string();
  { std::ofstream create(path); }
  ResultsFile file;
  std::string error;
  EXPECT_FALSE(readResultsFile(path, &file, &error));
  EXPECT_EQ(error.rfind(path + ": not JSON", 0), 0u) << error;
  std::filesystem::remove(path);
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
  ASSERT_TRUE(readResultsFile(path, &empty, &error)) << error;
  EXPECT_TRUE(empty.entries.empty());
  ASSERT_TRUE(writeResultsFile(path, file, &error)) << error;
  ResultsFile back;
  ASSERT_TRUE(readResultsFile(path, &back, &error)) << error;
  EXPECT_EQ(back.entries.size(), 1u);
  std::filesystem::remove(path);
}

} // namespace
} // namespace overlap::tune
