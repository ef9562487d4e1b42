#include "tune/TuneOptions.h"

#include <gtest/gtest.h>

namespace overlap::tune {
namespace {

TEST(TuneOptions, ParsesTheCommandLine) {
  TuneOptions o;
  std::string error;
  ASSERT_TRUE(
      parseTuneOptions({"--kernel", "saxpy", "--arg", "n=67108864", "--exhaustive", "--noise",
                        "0.05", "--repeats", "3:9", "--pageable", "--results-file", "r.json",
                        "--no-cache", "--seed", "42", "--devices", "2", "--graphs"},
                       &o, &error))
      << error;
  EXPECT_EQ(o.kernels, std::vector<std::string>{"saxpy"});
  EXPECT_EQ(o.arguments.at("n"), 67108864);
  EXPECT_TRUE(o.tuner.exhaustive);
  EXPECT_DOUBLE_EQ(o.tuner.noise.relativeNoise, 0.05);
  EXPECT_EQ(o.tuner.timing.minRepeats, 3);
  EXPECT_EQ(o.tuner.timing.maxRepeats, 9);
  EXPECT_EQ(o.memories, std::vector<CallMemory>{CallMemory::Pageable});
  EXPECT_EQ(o.resultsFile, "r.json");
  ASSERT_TRUE(o.cacheDir);
  EXPECT_TRUE(o.cacheDir->empty());
  EXPECT_EQ(o.seed, 42u);
  EXPECT_EQ(o.tuner.search.devices, 2);
  EXPECT_TRUE(o.tuner.search.graphs);
}

TEST(TuneOptions, TunesTheMemoriesAskedForInTurn) {
  TuneOptions o;
  std::string error;
  ASSERT_TRUE(parseTuneOptions({}, &o, &error)) << error;
  EXPECT_EQ(o.memories, std::vector<CallMemory>{CallMemory::Pinned});
  ASSERT_TRUE(parseTuneOptions({"--memory", "pinned,pageable"}, &o, &error)) << error;
  EXPECT_EQ(o.memories, (std::vector<CallMemory>{CallMemory::Pinned, CallMemory::Pageable}));
  ASSERT_TRUE(parseTuneOptions({"--memory", "registered,pinned,pageable,managed"}, &o, &error))
      << error;
  EXPECT_EQ(o.memories, (std::vector<CallMemory>{CallMemory::Registered, CallMemory::Pinned,
                                                 CallMemory::Pageable, CallMemory::Managed}));
  for (const char* bad :
       {"", "pinned,pinned", "unified", "pinned,", "pageable;pinned", "registered,registered"}) {
    EXPECT_FALSE(parseTuneOptions({"--memory", bad}, &o, &error)) << bad;
    EXPECT_NE(error.find("--memory wants a list of distinct kinds among pinned, registered, "
                         "pageable and managed"),
              std::string::npos)
        << error;
  }
}

TEST(TuneOptions, ParsesTheSupervisionOptions) {
  TuneOptions o;
  std::string error;
  ASSERT_TRUE(parseTuneOptions({}, &o, &error)) << error;
  EXPECT_TRUE(o.supervise);
  EXPECT_FALSE(o.workerFd);
  EXPECT_FALSE(o.tuner.candidateTimeoutSeconds);
  ASSERT_TRUE(parseTuneOptions({"--candidate-timeout", "2.5", "--no-supervise", "--worker-fd", "7"},
                               &o, &error))
      << error;
  EXPECT_FALSE(o.supervise);
  EXPECT_EQ(o.workerFd, 7);
  EXPECT_EQ(o.tuner.candidateTimeoutSeconds, 2.5);
  for (const char* bad : {"0", "-1", "soon", "nan"}) {
    EXPECT_FALSE(parseTuneOptions({"--candidate-timeout", bad}, &o, &error)) << bad;
    EXPECT_NE(error.find("--candidate-timeout"), std::string::npos) << error;
  }
  EXPECT_FALSE(parseTuneOptions({"--worker-fd", "-3"}, &o, &error));
}

TEST(TuneOptions, RejectsMalformedValues) {
  TuneOptions o;
  std::string error;
  EXPECT_FALSE(parseTuneOptions({"--arg", "n"}, &o, &error));
  EXPECT_FALSE(parseTuneOptions({"--arg", "n=big"}, &o, &error));
  EXPECT_FALSE(parseTuneOptions({"--noise", "1.5"}, &o, &error));
  EXPECT_FALSE(parseTuneOptions({"--repeats", "9:3"}, &o, &error));
  EXPECT_FALSE(parseTuneOptions({"--profile"}, &o, &error));
  EXPECT_NE(error.find("needs a value"), std::string::npos);
  EXPECT_FALSE(parseTuneOptions({"--devices", "0"}, &o, &error));
  EXPECT_FALSE(parseTuneOptions({"--fast"}, &o, &error));
  EXPECT_NE(error.find("unknown option"), std::string::npos);
}

} // namespace
} // namespace overlap::tune
