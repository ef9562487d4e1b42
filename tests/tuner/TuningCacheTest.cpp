// The tuning cache's files: written atomically, read back, and, when corrupt or foreign, moved
// aside to <file>.corrupt with a warning that names the file and the field, so a damaged cache is
// never silently dropped; a candidate a supervisor had to stop is recorded in place.
#include "tune/TuningCache.h"
#include "tune/ReportJson.h"
#include "tune/Tuner.h"

#include "ModelTestProfiles.h"
#include "TunerTestSupport.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace overlap::tune {
namespace {

namespace fs = std::filesystem;

std::string readText(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void writeText(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::trunc);
  out << text;
}

TuningRun twoCandidates() {
  TuningRun run;
  run.kernel = "saxpy";
  run.sourceFile = "saxpy.cu";
  run.arguments = {{"n", 1024}};
  run.device = "Fake GPU";
  CandidateOutcome reference;
  reference.keptByModel = true;
  reference.run = true;
  reference.verification = Verification::Reference;
  reference.samples = {1e-3, 1.1e-3};
  reference.timing = summarize(reference.samples);
  CandidateOutcome streams;
  streams.candidate = {Variant::Streams, 4};
  streams.keptByModel = true;
  run.candidates = {reference, streams};
  return run;
}

class TuningCacheTest : public ::testing::Test {
protected:
  TuningCacheTest()
      : directory_(fs::temp_directory_path() /
                   ("overlap-cache-test-" + std::to_string(::getpid()) + "-" +
                    ::testing::UnitTest::GetInstance()->current_test_info()->name())),
        cache_(directory_.string()) {
    fs::remove_all(directory_);
  }
  ~TuningCacheTest() override { fs::remove_all(directory_); }

  std::vector<std::string> files() const {
    std::vector<std::string> names;
    for (const fs::directory_entry& entry : fs::directory_iterator(directory_))
      names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }

  // Stores the sample tuning, then replaces its file's text by what `damage` makes of it; loads
  // it back and checks it is refused, moved aside and reported. Returns the warning.
  std::string loadDamaged(const std::function<std::string(const std::string&)>& damage) {
    std::string error;
    EXPECT_TRUE(cache_.store(key_, twoCandidates(), &error)) << error;
    const std::string path = cache_.pathOf(key_);
    const std::string damaged = damage(readText(path));
    writeText(path, damaged);
    std::string warning;
    EXPECT_FALSE(cache_.load(key_, &warning).has_value());
    EXPECT_NE(warning.find(path), std::string::npos) << warning;
    EXPECT_NE(warning.find("moved to " + path + ".corrupt"), std::string::npos) << warning;
    EXPECT_FALSE(fs::exists(path));
    EXPECT_EQ(readText(path + ".corrupt"), damaged) << "the damaged file is kept as it was";
    return warning;
  }

  fs::path directory_;
  TuningCache cache_;
  std::string key_ = "tuner 1|kernel saxpy";
};

TEST_F(TuningCacheTest, StoresAtomicallyAndReadsBack) {
  std::string error;
  ASSERT_TRUE(cache_.store(key_, twoCandidates(), &error)) << error;
  ASSERT_TRUE(cache_.store(key_, twoCandidates(), &error)) << error;
  EXPECT_EQ(files().size(), 1u) << "one file per key, no temporary left";
  std::string warning;
  const std::optional<TuningRun> back = cache_.load(key_, &warning);
  ASSERT_TRUE(back);
  EXPECT_TRUE(warning.empty()) << warning;
  EXPECT_EQ(toJsonText(*back), toJsonText(twoCandidates()));
  EXPECT_FALSE(cache_.load("another key", &warning));
  EXPECT_TRUE(warning.empty()) << "no file is not a problem: " << warning;
}

TEST_F(TuningCacheTest, AnEmptyFileIsMovedAsideAndReported) {
  const std::string warning = loadDamaged([](const std::string&) { return std::string(); });
  EXPECT_NE(warning.find("first line"), std::string::npos) << warning;
}

TEST_F(TuningCacheTest, ATruncatedFileIsMovedAsideAndReported) {
  const std::string warning =
      loadDamaged([](const std::string& text) { return text.substr(0, text.size() / 2); });
  EXPECT_NE(warning.find("not JSON"), std::string::npos) << warning;
}

TEST_F(TuningCacheTest, AFieldOfTheWrongTypeIsNamed) {
  const std::string warning = loadDamaged([](std::string text) {
    const std::string from = "\"complete\": false";
    return text.replace(text.find(from), from.size(), "\"complete\": \"no\"");
  });
  EXPECT_NE(warning.find("complete: has the wrong type (string)"), std::string::npos) << warning;
}

TEST_F(TuningCacheTest, ForeignJsonUnderTheKeyLineIsMovedAside) {
  const std::string warning = loadDamaged([](const std::string& text) {
    return text.substr(0, text.find('\n') + 1) + R"({"schema": "overlap-tuning-results"})";
  });
  EXPECT_NE(warning.find("not an overlap tuning report"), std::string::npos) << warning;
}

TEST_F(TuningCacheTest, AnotherKeysFileIsReplacedNotMovedAside) {
  std::string error;
  ASSERT_TRUE(cache_.store(key_, twoCandidates(), &error)) << error;
  std::string text = readText(cache_.pathOf(key_));
  text.replace(text.find(key_), key_.size(), "some other key");
  writeText(cache_.pathOf(key_), text);
  std::string warning;
  EXPECT_FALSE(cache_.load(key_, &warning));
  EXPECT_NE(warning.find("another key"), std::string::npos) << warning;
  EXPECT_TRUE(fs::exists(cache_.pathOf(key_)));
}

TEST_F(TuningCacheTest, AStoppedCandidateIsRecordedAsFailedWithItsReason) {
  std::string error;
  ASSERT_TRUE(cache_.store(key_, twoCandidates(), &error)) << error;
  const std::string path = cache_.pathOf(key_);
  ASSERT_TRUE(recordFailedCandidate(path, "Streams(4, depth-first)", "stopped after 2 s", &error))
      << error;
  const std::optional<TuningRun> back = cache_.load(key_);
  ASSERT_TRUE(back);
  const CandidateOutcome& streams = back->candidates[1];
  EXPECT_TRUE(streams.run);
  EXPECT_EQ(streams.verification, Verification::Failed);
  EXPECT_EQ(streams.error, "stopped after 2 s");
  EXPECT_EQ(back->candidates[0].verification, Verification::Reference) << "others untouched";
  EXPECT_EQ(files().size(), 1u);

  EXPECT_FALSE(recordFailedCandidate(path, "Hybrid(3, depth-first)", "x", &error));
  EXPECT_NE(error.find("no candidate \"Hybrid(3, depth-first)\""), std::string::npos) << error;
  EXPECT_FALSE(recordFailedCandidate(path + ".missing", "Mapped", "x", &error));
  EXPECT_NE(error.find("cannot read"), std::string::npos) << error;
}

// Through the search: the warning reaches the progress lines and the tuning starts afresh.
TEST_F(TuningCacheTest, TheTunerWarnsAndTunesAfreshOverACorruptCache) {
  TuningSetup setup;
  setup.header.kernel = "saxpy";
  setup.header.arguments = {{"n", 1 << 26}};
  const HardwareProfile profile = model::testing::h100Like();
  const std::unique_ptr<model::PerformanceModel> model = model::makeModel(model::ModelKind::Modern);
  setup.profile = &profile;
  setup.model = model.get();
  setup.workload = testing::saxpyWorkload();
  TunerOptions options;
  options.timing.warmup = 0;
  const auto seconds = [](const model::Candidate& c) { return 1e-3 * (1 + c.streams); };
  std::vector<std::string> lines;
  const Progress progress = [&](const std::string& line) { lines.push_back(line); };

  testing::FakeRunner first(seconds);
  tune(first, setup, options, cache_, progress);
  const std::string path = cache_.pathOf(cacheKey(setup, options));
  writeText(path, readText(path).substr(0, 200));
  lines.clear();
  testing::FakeRunner second(seconds);
  const TuningRun run = tune(second, setup, options, cache_, progress);
  EXPECT_FALSE(run.fromCache);
  EXPECT_EQ(second.referenceRuns, 1);
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines.front().rfind("warning: ", 0), 0u) << lines.front();
  EXPECT_NE(lines.front().find(path + ".corrupt"), std::string::npos) << lines.front();
  EXPECT_TRUE(fs::exists(path)) << "the fresh tuning is cached again";
}

} // namespace
} // namespace overlap::tune
