// Runs a tuning in a worker process and keeps it going past candidates that hang or crash: a hung
// GPU call cannot be stopped inside the process that made it, so the worker (the tuning executable
// started again with --worker-fd) reports every run over a pipe (WorkerChannel.h), and the
// supervisor, which never touches CUDA:
//  - kills the worker when a candidate overruns its bound, or sees it die in one (a segfault),
//    records that candidate as failed, with the reason, in the tuning's cache file, and starts a
//    new worker, which resumes from the cache and does not run it again;
//  - forwards SIGINT/SIGTERM to the worker, waits for it, does not restart it, and says how much
//    of the tuning is in the cache for the next run to resume;
//  - stops with a clear error when the reference (Explicit) is lost, when a worker dies outside
//    any candidate, or when restarts stop making progress.
// The command to start is a parameter, so the tests drive it with a small fake worker.
#pragma once

#include "tune/CandidateWatch.h"

#include <ostream>
#include <string>
#include <vector>

namespace overlap::tune {

struct SupervisorOptions {
  // The worker's argv (argv[0] is the program to start); "--worker-fd N" is appended.
  std::vector<std::string> workerCommand;
  // False when the cache is private to this run (--no-cache): an interrupt then cannot be resumed.
  bool cacheKept = true;
  // After forwarding an interrupt, how long the worker may take to exit before it is killed.
  double interruptGraceSeconds = 10;
};

// Exit codes of run(), beyond the worker's own (runTuneCommand's).
inline constexpr int kSupervisorFailed = 1;  // cannot start, or cannot go on
inline constexpr int kReferenceLost = 2;     // as a failed reference: no winner can be picked
inline constexpr int kExitAfterSignal = 128; // + the signal: 130 after SIGINT

class TuningSupervisor {
public:
  TuningSupervisor(SupervisorOptions options, std::ostream& out, std::ostream& err);

  // Runs workers until one finishes the tuning, or the tuning cannot go on, or it is interrupted.
  // Returns the last worker's exit code, or one of the codes above.
  int run();

  int restarts() const { return restarts_; }
  // "<candidate>: <reason>" for every candidate stopped or crashed, in order.
  const std::vector<std::string>& stopped() const { return stopped_; }

private:
  struct Worker;
  enum class Outcome { Finished, Restart, Stop };

  Outcome supervise(Worker& worker, int* exitCode);
  Outcome candidateLost(const CandidateStart& start, const std::string& reason, int* exitCode);
  int interrupted(int signalNumber, const std::string& cacheFile);

  SupervisorOptions options_;
  std::ostream& out_;
  std::ostream& err_;
  int restarts_ = 0;
  std::vector<std::string> stopped_;
  std::vector<std::pair<std::string, std::string>> recorded_; // (cache file, candidate)
  std::string lastCacheFile_;
};

} // namespace overlap::tune
