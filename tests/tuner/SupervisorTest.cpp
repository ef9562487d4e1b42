// The tuning supervisor over a fake worker (FakeTuneWorker.cpp: the real search and cache over
// fake timings): a hung candidate is stopped at its bound, a crashing one is seen, both are
// recorded in the cache and passed over by a restarted worker that resumes; an interrupt is
// forwarded, not restarted, and the rerun resumes; a lost reference stops the tuning. No GPU;
// the hang tests wait out a 1 s bound.
#include "tune/TuningCache.h"
#include "tune/TuningSupervisor.h"
#include "tune/WorkerChannel.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace overlap::tune {
namespace {

namespace fs = std::filesystem;

class SupervisorTest : public ::testing::Test {
protected:
  SupervisorTest()
      : directory_(fs::temp_directory_path() /
                   ("overlap-supervisor-test-" + std::to_string(::getpid()) + "-" +
                    ::testing::UnitTest::GetInstance()->current_test_info()->name())) {
    fs::remove_all(directory_);
    fs::create_directories(directory_);
  }
  ~SupervisorTest() override { fs::remove_all(directory_); }

  // Runs the fake worker under a supervisor with these extra arguments; the worker's log starts
  // afresh, so log() holds only this run's candidates.
  int supervise(const std::vector<std::string>& extra) {
    fs::remove(logPath());
    out_.str("");
    err_.str("");
    SupervisorOptions options;
    options.workerCommand = {OVERLAP_FAKE_TUNE_WORKER, "--cache-dir", cacheDir().string(), "--log",
                             logPath().string()};
    options.workerCommand.insert(options.workerCommand.end(), extra.begin(), extra.end());
    options.interruptGraceSeconds = 5;
    TuningSupervisor supervisor(options, out_, err_);
    const int status = supervisor.run();
    restarts_ = supervisor.restarts();
    stopped_ = supervisor.stopped();
    return status;
  }

  fs::path cacheDir() const { return directory_ / "cache"; }
  fs::path logPath() const { return directory_ / "ran.log"; }

  // The candidates the workers of the latest run started, with how often.
  std::map<std::string, int> ran() const {
    std::map<std::string, int> counts;
    std::ifstream in(logPath());
    for (std::string line; std::getline(in, line);)
      ++counts[line];
    return counts;
  }

  // The one cache file, parsed; no temporary files beside it.
  TuningRun cached(std::string* path = nullptr) const {
    std::vector<fs::path> files;
    for (const fs::directory_entry& entry : fs::directory_iterator(cacheDir()))
      files.push_back(entry.path());
    EXPECT_EQ(files.size(), 1u) << "one cache file and nothing else (no .tmp)";
    TuningRun run;
    if (files.empty())
      return run;
    std::string key;
    std::string error;
    EXPECT_TRUE(TuningCache::readFile(files[0].string(), &key, &run, &error)) << error;
    if (path)
      *path = files[0].string();
    return run;
  }

  static const CandidateOutcome& outcome(const TuningRun& run, const std::string& name) {
    for (const CandidateOutcome& c : run.candidates)
      if (model::describe(c.candidate) == name)
        return c;
    ADD_FAILURE() << "no candidate " << name;
    return run.candidates.front();
  }

  fs::path directory_;
  std::ostringstream out_;
  std::ostringstream err_;
  int restarts_ = 0;
  std::vector<std::string> stopped_;
};

TEST_F(SupervisorTest, ATuningWithoutFaultsFinishesInOneWorker) {
  ASSERT_EQ(supervise({}), 0) << err_.str();
  EXPECT_EQ(restarts_, 0);
  const TuningRun run = cached();
  EXPECT_TRUE(run.complete);
  EXPECT_TRUE(run.winner);
  EXPECT_EQ(run.runCount(), static_cast<int>(run.candidates.size()));
  for (const auto& [name, count] : ran())
    EXPECT_EQ(count, 1) << name;
  EXPECT_EQ(ran().size(), run.candidates.size());
}

TEST_F(SupervisorTest, AHungCandidateIsStoppedRecordedAndPassedOver) {
  const std::string hung = "Streams(2, depth-first)";
  ASSERT_EQ(supervise({"--hang", hung, "--candidate-timeout", "1"}), 0) << err_.str();
  EXPECT_EQ(restarts_, 1);
  const std::string reason = "stopped after 1 s: exceeded the candidate time bound "
                             "(--candidate-timeout); the process was killed";
  EXPECT_EQ(stopped_, std::vector<std::string>{hung + ": " + reason});
  EXPECT_NE(out_.str().find(hung + ": failed (" + reason + ")"), std::string::npos) << out_.str();
  EXPECT_NE(out_.str().find("restarting the tuning worker (restart 1)"), std::string::npos);

  std::string path;
  const TuningRun run = cached(&path);
  EXPECT_TRUE(run.complete);
  const CandidateOutcome& stopped = outcome(run, hung);
  EXPECT_TRUE(stopped.run);
  EXPECT_EQ(stopped.verification, Verification::Failed);
  EXPECT_EQ(stopped.error, reason);
  ASSERT_TRUE(run.winner);
  EXPECT_NE(model::describe(run.candidates[*run.winner].candidate), hung);
  EXPECT_EQ(run.runCount(), static_cast<int>(run.candidates.size()));

  // The second worker re-ran the reference, resumed the rest and never the hung one again.
  const std::map<std::string, int> counts = ran();
  EXPECT_EQ(counts.at(hung), 1);
  EXPECT_EQ(counts.at("Explicit"), 2);
  for (const auto& [name, count] : counts)
    if (name != "Explicit") {
      EXPECT_EQ(count, 1) << name;
    }
  EXPECT_FALSE(run.notes.empty());
  EXPECT_TRUE(std::any_of(run.notes.begin(), run.notes.end(), [](const std::string& note) {
    return note.find("resumed an interrupted tuning") != std::string::npos;
  }));
}

TEST_F(SupervisorTest, ACrashingCandidateIsRecordedAsCrashed) {
  ASSERT_EQ(supervise({"--crash", "Mapped"}), 0) << err_.str();
  EXPECT_EQ(restarts_, 1);
  const TuningRun run = cached();
  const CandidateOutcome& crashed = outcome(run, "Mapped");
  EXPECT_EQ(crashed.verification, Verification::Failed);
  EXPECT_EQ(crashed.error.rfind("crashed: the process died of signal 11", 0), 0u) << crashed.error;
  EXPECT_TRUE(run.complete);
  EXPECT_EQ(ran().at("Mapped"), 1);
}

TEST_F(SupervisorTest, AnInterruptIsForwardedNotRestartedAndTheRerunResumes) {
  const std::string interrupted = "Streams(4, depth-first)";
  ASSERT_EQ(supervise({"--interrupt-parent", interrupted}), 130) << err_.str();
  EXPECT_EQ(restarts_, 0);
  std::string path;
  const TuningRun partial = cached(&path);
  EXPECT_FALSE(partial.complete);
  EXPECT_FALSE(outcome(partial, interrupted).run) << "an interrupted candidate is not a failure";
  const int planned = static_cast<int>(partial.candidates.size()) - 1;
  const int measured = partial.runCount() - 1; // without Explicit
  EXPECT_GT(measured, 0);
  EXPECT_LT(measured, planned);
  EXPECT_NE(err_.str().find("interrupted: " + std::to_string(measured) + " of " +
                            std::to_string(planned) + " candidates measured are in the cache " +
                            path + "; run again to resume"),
            std::string::npos)
      << err_.str();
  std::vector<std::string> measuredFirst;
  for (const CandidateOutcome& c : partial.candidates)
    if (c.run && c.candidate != model::Candidate{})
      measuredFirst.push_back(model::describe(c.candidate));

  ASSERT_EQ(supervise({}), 0) << err_.str();
  const TuningRun resumed = cached();
  EXPECT_TRUE(resumed.complete);
  EXPECT_EQ(resumed.runCount(), static_cast<int>(resumed.candidates.size()));
  const std::map<std::string, int> counts = ran();
  EXPECT_EQ(counts.at(interrupted), 1) << "the interrupted candidate is measured by the rerun";
  for (const std::string& name : measuredFirst)
    EXPECT_EQ(counts.count(name), 0u) << name << " was measured again";
}

TEST_F(SupervisorTest, AHungReferenceStopsTheTuningWithAClearError) {
  EXPECT_EQ(supervise({"--hang", "Explicit", "--candidate-timeout", "1"}), kReferenceLost);
  EXPECT_EQ(restarts_, 0);
  EXPECT_NE(err_.str().find("the reference (Explicit) stopped after 1 s"), std::string::npos)
      << err_.str();
  EXPECT_EQ(ran().size(), 1u) << "nothing ran after the reference";
}

TEST_F(SupervisorTest, AWorkerThatDoesNotResumeIsStoppedInsteadOfLooping) {
  const std::string hung = "Mapped";
  EXPECT_EQ(supervise({"--hang", hung, "--candidate-timeout", "1", "--forget-cache"}),
            kSupervisorFailed);
  EXPECT_EQ(restarts_, 1);
  EXPECT_NE(err_.str().find("ran again after it was recorded as failed"), std::string::npos)
      << err_.str();
}

TEST_F(SupervisorTest, AWorkerThatCannotStartIsAnError) {
  std::ostringstream out;
  std::ostringstream err;
  SupervisorOptions options;
  options.workerCommand = {(directory_ / "no-such-program").string()};
  TuningSupervisor supervisor(options, out, err);
  EXPECT_EQ(supervisor.run(), kSupervisorFailed);
  EXPECT_NE(err.str().find("cannot start " + options.workerCommand[0]), std::string::npos)
      << err.str();
}

TEST(WorkerChannel, LinesRoundTripAndMalformedOnesAreRefused) {
  WorkerMessage begin;
  begin.begin = true;
  begin.start = {"Streams(4, breadth-first)", false, "/tmp/a dir/0123.json", 61.5};
  std::string line = formatWorkerLine(begin);
  ASSERT_EQ(line.back(), '\n');
  line.pop_back();
  const std::optional<WorkerMessage> parsed = parseWorkerLine(line);
  ASSERT_TRUE(parsed);
  EXPECT_TRUE(parsed->begin);
  EXPECT_EQ(parsed->start.candidate, begin.start.candidate);
  EXPECT_EQ(parsed->start.cacheFile, begin.start.cacheFile);
  EXPECT_FALSE(parsed->start.reference);
  EXPECT_DOUBLE_EQ(parsed->start.boundSeconds, 61.5);
  ASSERT_TRUE(parseWorkerLine("end"));
  EXPECT_FALSE(parseWorkerLine("end")->begin);

  for (const char* bad :
       {"", "begin", "begin\tcandidate\t0\t/c\tMapped", "begin\tcandidate\tsoon\t/c\tMapped",
        "begin\tother\t1\t/c\tMapped", "begin\tcandidate\t1\t/c\t", "ended"})
    EXPECT_FALSE(parseWorkerLine(bad)) << bad;
}

} // namespace
} // namespace overlap::tune
