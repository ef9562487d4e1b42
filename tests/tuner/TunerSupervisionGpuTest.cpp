// The tuning tool as users run it (overlap_tune()'s executable over saxpy), supervised, on the GPU:
// a candidate made to hang by the test hook OVERLAP_TUNE_TEST_FAULT is stopped at its bound,
// recorded as failed and passed over, and the tuning still picks a winner; a SIGINT after the
// first candidate stops it with exit 130, and the rerun resumes without re-running what was
// measured. Skipped without a CUDA device.
#include "GpuSkip.h"
#include "ScopedEnvironment.h"

#include "model/PerformanceModel.h"
#include "tune/ReportJson.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

extern char** environ;

namespace overlap::tune {
namespace {

namespace fs = std::filesystem;
using testing::ScopedEnvironment;

struct ToolRun {
  int exitCode = -1;  // 128 + the signal when it died of one
  std::string output; // stdout and stderr together
  std::vector<std::string> lines;
};

// Runs the tool with `args`, calling `onLine(pid, line)` for every output line as it comes;
// kills it and fails after `limitSeconds`.
ToolRun runTool(const std::vector<std::string>& args,
                const std::function<void(pid_t, const std::string&)>& onLine = {},
                int limitSeconds = 180) {
  ToolRun run;
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    ADD_FAILURE() << "pipe2 failed";
    return run;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 2);
  std::vector<std::string> all = {OVERLAP_TUNE_TOOL};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& arg : all)
    argv.push_back(arg.data());
  argv.push_back(nullptr);
  pid_t pid = -1;
  const int spawned = ::posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[1]);
  if (spawned != 0) {
    ::close(fds[0]);
    ADD_FAILURE() << "cannot start " << all[0];
    return run;
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(limitSeconds);
  std::string pending;
  while (true) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    pollfd fd{fds[0], POLLIN, 0};
    if (left.count() <= 0 || ::poll(&fd, 1, static_cast<int>(left.count())) == 0) {
      ::kill(pid, SIGKILL);
      ADD_FAILURE() << "the tool did not finish within " << limitSeconds << " s";
      break;
    }
    char chunk[4096];
    const ssize_t n = ::read(fds[0], chunk, sizeof chunk);
    if (n <= 0)
      break;
    pending.append(chunk, static_cast<std::size_t>(n));
    std::size_t newline;
    while ((newline = pending.find('\n')) != std::string::npos) {
      const std::string line = pending.substr(0, newline);
      pending.erase(0, newline + 1);
      run.lines.push_back(line);
      run.output += line + "\n";
      if (onLine)
        onLine(pid, line);
    }
  }
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  run.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  std::cout << run.output;
  return run;
}

// The names of the candidates in "[k/M] NAME: ..." progress lines.
std::set<std::string> measuredIn(const ToolRun& run) {
  std::set<std::string> names;
  for (const std::string& line : run.lines) {
    const std::size_t open = line.find("  [");
    const std::size_t close = line.find("] ");
    if (open != 0 || close == std::string::npos || line.compare(3, 9, "reference") == 0)
      continue;
    const std::size_t colon = line.find(": ", close);
    names.insert(line.substr(close + 2, colon - close - 2));
  }
  return names;
}

TuningRun readReport(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  TuningRun run;
  std::string error;
  EXPECT_TRUE(fromJsonText(text.str(), &run, &error)) << path << ": " << error;
  return run;
}

class TemporaryDirectory {
public:
  TemporaryDirectory() {
    std::string pattern = (fs::temp_directory_path() / "overlap-supervised-XXXXXX").string();
    path_ = ::mkdtemp(pattern.data()) ? pattern : "";
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

std::vector<std::string> smallSaxpy(const std::string& outputDir) {
  return {"--kernel",  "saxpy", "--arg",  "n=1048576", "--exhaustive", "--max-streams", "4",
          "--repeats", "3:5",   "--seed", "7",         "--output-dir", outputDir};
}

TEST(SupervisedTunerOnGpu, AHungCandidateIsStoppedRecordedAndTheTuningStillPicksAWinner) {
  SKIP_WITHOUT_GPU();
  const TemporaryDirectory dir;
  ASSERT_FALSE(dir.path().empty());
  const ScopedEnvironment fault("OVERLAP_TUNE_TEST_FAULT", "hang:Mapped");
  std::vector<std::string> args = smallSaxpy(dir.path());
  args.insert(args.end(), {"--candidate-timeout", "5"});
  const ToolRun run = runTool(args);
  ASSERT_EQ(run.exitCode, 0);
  EXPECT_NE(run.output.find("Mapped: failed (stopped after 5 s: exceeded the candidate time bound "
                            "(--candidate-timeout); the process was killed)"),
            std::string::npos);
  EXPECT_NE(run.output.find("restarting the tuning worker (restart 1)"), std::string::npos);

  const TuningRun report = readReport(fs::path(dir.path()) / "saxpy.tuning.json");
  EXPECT_TRUE(report.complete);
  const std::optional<std::size_t> mapped = report.find({Variant::Mapped, 1});
  ASSERT_TRUE(mapped);
  EXPECT_EQ(report.candidates[*mapped].verification, Verification::Failed);
  EXPECT_NE(report.candidates[*mapped].error.find("--candidate-timeout"), std::string::npos);
  ASSERT_TRUE(report.winner) << report.winnerReason;
  EXPECT_NE(*report.winner, *mapped);
  for (const CandidateOutcome& c : report.candidates)
    EXPECT_TRUE(c.run) << model::describe(c.candidate) << " was not run (exhaustive)";
}

TEST(SupervisedTunerOnGpu, AnInterruptedTuningResumesWithoutRerunningMeasuredCandidates) {
  SKIP_WITHOUT_GPU();
  const TemporaryDirectory dir;
  ASSERT_FALSE(dir.path().empty());
  std::vector<std::string> args = smallSaxpy(dir.path());
  ToolRun first;
  {
    // A candidate that never ends keeps the tuning from finishing before the interrupt lands.
    const ScopedEnvironment fault("OVERLAP_TUNE_TEST_FAULT", "hang:Streams(4, depth-first)");
    bool sent = false;
    first = runTool(args, [&](pid_t pid, const std::string& line) {
      if (!sent && line.rfind("  [1/", 0) == 0) {
        ::kill(pid, SIGINT);
        sent = true;
      }
    });
    ASSERT_TRUE(sent) << "no \"[1/M]\" progress line";
  }
  ASSERT_EQ(first.exitCode, 130);
  EXPECT_NE(first.output.find("overlap-tune: interrupted: "), std::string::npos);
  EXPECT_NE(first.output.find("run again to resume"), std::string::npos);
  const std::set<std::string> measuredFirst = measuredIn(first);
  ASSERT_FALSE(measuredFirst.empty());

  const ToolRun second = runTool(args);
  ASSERT_EQ(second.exitCode, 0);
  EXPECT_NE(second.output.find("resumed an interrupted tuning: "), std::string::npos);
  for (const std::string& name : measuredIn(second))
    EXPECT_EQ(measuredFirst.count(name), 0u) << name << " was measured again";
  const TuningRun report = readReport(fs::path(dir.path()) / "saxpy.tuning.json");
  EXPECT_TRUE(report.complete);
  EXPECT_TRUE(report.winner) << report.winnerReason;
  for (const CandidateOutcome& c : report.candidates)
    EXPECT_TRUE(c.run && c.verification != Verification::Failed)
        << model::describe(c.candidate) << ": " << c.error;
}

} // namespace
} // namespace overlap::tune
