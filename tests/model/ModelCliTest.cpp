// The overlap-model command line, run in-process: option parsing, errors, and the table on a
// built-in and on a file profile.
#include "model/ModelCli.h"

#include "ModelTestProfiles.h"
#include "overlap/ProfileIo.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include <unistd.h>

namespace overlap::model {
namespace {

// Runs the tool with no user profile directory, so only the built-in profiles exist.
struct CliRun {
  int status = 0;
  std::string out;
  std::string err;
};

CliRun run(const std::vector<std::string>& args) {
  static const std::filesystem::path emptyDirectory = [] {
    std::filesystem::path path =
        std::filesystem::temp_directory_path() / ("overlap-model-test-" + std::to_string(getpid()));
    std::filesystem::create_directories(path);
    return path;
  }();
  setenv("OVERLAP_PROFILE_PATH", emptyDirectory.c_str(), 1);
  std::ostringstream out;
  std::ostringstream err;
  CliRun result;
  result.status = runModelCli(args, out, err);
  result.out = out.str();
  result.err = err.str();
  return result;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(ModelCli, ByteSizes) {
  EXPECT_EQ(parseByteSize("268435456"), 268435456.0);
  EXPECT_EQ(parseByteSize("256MiB"), 256.0 * 1024 * 1024);
  EXPECT_EQ(parseByteSize("1.5GB"), 1.5e9);
  EXPECT_EQ(parseByteSize("2KiB"), 2048.0);
  EXPECT_EQ(parseByteSize("12B"), 12.0);
  EXPECT_FALSE(parseByteSize("-1"));
  EXPECT_FALSE(parseByteSize("12 MB"));
  EXPECT_FALSE(parseByteSize("MB"));
  EXPECT_FALSE(parseByteSize("1e999"));
  EXPECT_FALSE(parseByteSize("10Mb"));
}

TEST(ModelCli, ParsesTheWorkloadAndSearchOptions) {
  const ModelCliParse parsed = parseModelCli({"--profile",
                                              "x",
                                              "--h2d-bytes",
                                              "512MiB",
                                              "--d2h-bytes=256MiB",
                                              "--broadcast-bytes",
                                              "1MB",
                                              "--kernel-ms",
                                              "0.25",
                                              "--extent",
                                              "1000",
                                              "--tolerance",
                                              "0.2",
                                              "--max-streams",
                                              "16",
                                              "--h2d-copies",
                                              "2",
                                              "--model",
                                              "paper001",
                                              "--pageable",
                                              "--halo-twice"});
  ASSERT_TRUE(parsed.options) << parsed.error;
  const ModelCliOptions& options = *parsed.options;
  EXPECT_EQ(options.profile, "x");
  EXPECT_EQ(options.workload.transfers.h2dBytes, 512.0 * 1024 * 1024);
  EXPECT_EQ(options.workload.transfers.d2hBytes, 256.0 * 1024 * 1024);
  EXPECT_EQ(options.workload.transfers.broadcastBytes, 1e6);
  EXPECT_DOUBLE_EQ(options.workload.launch.kernelSeconds, 0.25e-3);
  EXPECT_EQ(options.workload.partition.extent, 1000);
  EXPECT_EQ(options.workload.transfers.h2dCopiesPerChunk, 2);
  EXPECT_EQ(options.workload.transfers.explicitH2dCopies, 3); // two sections and the broadcast data
  EXPECT_FALSE(options.workload.transfers.hostMemoryPinned);
  EXPECT_DOUBLE_EQ(options.search.tolerance, 0.2);
  EXPECT_EQ(options.search.maxStreams, 16);
  EXPECT_EQ(options.model, ModelKind::Paper001);
  EXPECT_TRUE(options.modern.haloSentTwice);
}

TEST(ModelCli, RejectsBadCommandLines) {
  const std::vector<std::string> required = {"--profile",   "x", "--h2d-bytes", "1",
                                             "--d2h-bytes", "1", "--kernel-ms", "1"};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = required;
    args.insert(args.end(), extra.begin(), extra.end());
    return parseModelCli(args);
  };
  EXPECT_TRUE(with({}).options);
  EXPECT_TRUE(contains(with({"--frobnicate"}).error, "unknown option '--frobnicate'"));
  EXPECT_TRUE(contains(with({"--tolerance"}).error, "needs a value"));
  EXPECT_TRUE(contains(with({"--tolerance", "-0.1"}).error, "non-negative fraction"));
  EXPECT_TRUE(contains(with({"--max-streams", "0"}).error, "integer from 1"));
  EXPECT_TRUE(contains(with({"--model", "paper004"}).error, "expected modern, paper000"));
  EXPECT_TRUE(contains(with({"--h2d-bytes", "lots"}).error, "byte size"));
  EXPECT_TRUE(contains(with({"--mapped-reads", "0.5"}).error, "at least 1"));
  EXPECT_TRUE(contains(parseModelCli({"--h2d-bytes", "1"}).error, "--profile is required"));
  EXPECT_TRUE(contains(parseModelCli({"--profile", "x", "--h2d-bytes", "1"}).error,
                       "--kernel-ms are required"));
}

TEST(ModelCli, PrintsTheTableForABuiltInProfile) {
  const CliRun result = run({"--profile", "gtx-titan-pcie3", "--h2d-bytes", "512MiB", "--d2h-bytes",
                             "256MiB", "--kernel-ms", "20", "--extent", "64"});
  ASSERT_EQ(result.status, 0) << result.err;
  EXPECT_TRUE(contains(result.out, "gtx-titan-pcie3")) << result.out;
  EXPECT_TRUE(contains(result.out, "1 copy engine, no implicit synchronization, Hyper-Q"));
  EXPECT_TRUE(contains(result.out, "Explicit"));
  EXPECT_TRUE(contains(result.out, "Hybrid"));
  EXPECT_TRUE(contains(result.out, "predicted optimum: "));
  EXPECT_TRUE(contains(result.out, "<- predicted best"));
  EXPECT_TRUE(contains(result.out, "paper 001 §VI"));
  // The Titan profile publishes no overheads: the table says what was assumed.
  EXPECT_TRUE(contains(result.out, "assumed:  kernel launch overhead unknown"));
}

TEST(ModelCli, ChunkCountsAndADeviceBudget) {
  const ModelCliParse parsed = parseModelCli(
      {"--profile", "x", "--h2d-bytes", "512MiB", "--d2h-bytes", "256MiB", "--kernel-ms", "1",
       "--max-chunks-per-stream", "4", "--min-chunk-bytes", "4MiB", "--device-budget", "256MiB"});
  ASSERT_TRUE(parsed.options) << parsed.error;
  EXPECT_EQ(parsed.options->search.maxChunksPerStream, 4);
  EXPECT_EQ(parsed.options->search.minChunkBytes, 4.0 * 1024 * 1024);
  // Without --device-bytes the buffers are the arrays the sizes describe: 768 MiB.
  const Workload::DeviceMemory& memory = parsed.options->workload.deviceMemory;
  EXPECT_EQ(memory.budgetBytes, 256.0 * 1024 * 1024);
  EXPECT_EQ(memory.fullBytes, 768.0 * 1024 * 1024);
  EXPECT_EQ(memory.pureOutputFullBytes, 256.0 * 1024 * 1024);

  const CliRun result =
      run({"--profile", "gtx-titan-pcie3", "--h2d-bytes", "512MiB", "--d2h-bytes", "256MiB",
           "--kernel-ms", "20", "--extent", "1048576", "--device-budget", "256MiB"});
  ASSERT_EQ(result.status, 0) << result.err;
  EXPECT_TRUE(contains(result.out, "768.0 MiB of full-size buffers, budget 256.0 MiB: out of core"))
      << result.out;
  EXPECT_TRUE(contains(result.out, "excluded: Explicit cannot run")) << result.out;
  EXPECT_TRUE(contains(result.out, "variant   streams  chunks  order")) << result.out;
}

TEST(ModelCli, ReadsAProfileFile) {
  HardwareProfile profile = testing::h100Like();
  profile.name = "h100-test";
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("overlap-model-test-" + std::to_string(getpid()) + ".json"))
                               .string();
  ASSERT_TRUE(writeProfileFile(path, profile).ok());
  const CliRun result = run({"--profile", path, "--h2d-bytes", "512MiB", "--d2h-bytes", "256MiB",
                             "--kernel-ms", "0.3", "--model", "paper002"});
  std::remove(path.c_str());
  ASSERT_EQ(result.status, 0) << result.err;
  EXPECT_TRUE(contains(result.out, "h100-test"));
  EXPECT_TRUE(contains(result.out, "paper 002"));
  EXPECT_TRUE(contains(result.out, "not modelled")); // paper 002 has no Mapped model
}

TEST(ModelCli, ReportsAnUnknownProfileAndBadUsage) {
  const CliRun unknown =
      run({"--profile", "no-such-gpu", "--h2d-bytes", "1", "--d2h-bytes", "1", "--kernel-ms", "1"});
  EXPECT_EQ(unknown.status, 1);
  EXPECT_TRUE(contains(unknown.err, "no-such-gpu")) << unknown.err;
  EXPECT_EQ(run({"--bogus"}).status, 2);
  const CliRun help = run({"--help"});
  EXPECT_EQ(help.status, 0);
  EXPECT_TRUE(contains(help.out, "usage: overlap-model"));
  const CliRun listing = run({"--list-profiles"});
  EXPECT_EQ(listing.status, 0);
  EXPECT_TRUE(contains(listing.out, "gtx-titan-pcie3"));
}

TEST(ModelCli, ShowsAProfile) {
  const CliRun shown = run({"--show-profile", "tesla-k20-pcie2"});
  ASSERT_EQ(shown.status, 0) << shown.err;
  EXPECT_TRUE(contains(shown.out, "\"bidirectional_seconds_per_byte\": 1.741965e-10")) << shown.out;
  const CliRun unknown = run({"--show-profile", "no-such-profile"});
  EXPECT_EQ(unknown.status, 1);
  EXPECT_TRUE(contains(unknown.err, "known profiles")) << unknown.err;
}

TEST(ModelCli, RejectsAnInconsistentWorkload) {
  const CliRun result = run({"--profile", "gtx-titan-pcie3", "--h2d-bytes", "1", "--d2h-bytes", "1",
                             "--inout-bytes", "2", "--kernel-ms", "1"});
  EXPECT_EQ(result.status, 1);
  EXPECT_TRUE(contains(result.err, "inout_d2h_bytes exceeds d2h_bytes"));
}

} // namespace
} // namespace overlap::model
