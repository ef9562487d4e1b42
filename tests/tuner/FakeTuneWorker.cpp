// A tuning worker for the supervisor's tests (SupervisorTest.cpp), with no GPU: the real search
// (tune(), the real cache, the real worker channel) over fake timings, told on its command line
// to hang, crash or interrupt its supervisor when a named candidate starts.
//
//   overlap_fake_tune_worker --cache-dir DIR --log FILE [--candidate-timeout S]
//       [--hang NAME] [--crash NAME] [--interrupt-parent NAME] [--forget-cache]
//       --worker-fd N
//
// NAME is model::describe() of a candidate ("Explicit" is the reference). --log gets one line per
// candidate started, written before any fault, so a test sees what ran in every worker.
// --forget-cache removes the cache directory first: a worker that does not resume.
// Exit status: 0 with a winner, 2 without, 64 for a bad command line.
#include "ModelTestProfiles.h"
#include "TunerTestSupport.h"
#include "tune/Tuner.h"
#include "tune/WorkerChannel.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <thread>

namespace {

using namespace overlap;
using namespace overlap::tune;

struct Faults {
  std::string hang;
  std::string crash;
  std::string interruptParent;
  std::string log;
};

void sleepForever() {
  while (true)
    std::this_thread::sleep_for(std::chrono::hours(1));
}

// Logs the start, then does what the command line asked for this candidate.
void start(const Faults& faults, const model::Candidate& candidate) {
  const std::string name = model::describe(candidate);
  const int log = ::open(faults.log.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (log >= 0) {
    const std::string line = name + "\n";
    [[maybe_unused]] const ssize_t written = ::write(log, line.data(), line.size());
    ::close(log);
  }
  if (name == faults.hang)
    sleepForever();
  if (name == faults.crash) {
    const rlimit noCore{0, 0};
    ::setrlimit(RLIMIT_CORE, &noCore);
    // The default action, so that the worker dies of the signal even where a handler (ASan's,
    // in the sanitizer build) would report it and exit with a status instead.
    ::signal(SIGSEGV, SIG_DFL);
    ::raise(SIGSEGV);
  }
  if (name == faults.interruptParent) {
    // As a user's Ctrl-C to the supervisor; the worker is then stopped by the forwarded signal.
    ::kill(::getppid(), SIGINT);
    sleepForever();
  }
}

class FaultyRunner final : public CandidateRunner {
public:
  explicit FaultyRunner(Faults faults)
      : faults_(std::move(faults)),
        timings_([](const model::Candidate& c) { return 1e-3 * (2 + c.streams % 3); }) {}

  RunResult runReference(const TimingPlan& plan) override {
    start(faults_, model::Candidate{});
    return timings_.runReference(plan);
  }
  RunResult runCandidate(const model::Candidate& candidate, const TimingPlan& plan) override {
    start(faults_, candidate);
    return timings_.runCandidate(candidate, plan);
  }

private:
  Faults faults_;
  testing::FakeRunner timings_;
};

} // namespace

int main(int argc, char** argv) {
  Faults faults;
  std::string cacheDir;
  std::optional<int> workerFd;
  TunerOptions options;
  options.exhaustive = true;
  options.search.maxStreams = 8;
  options.timing.warmup = 0;
  options.finalRounds = 0; // the supervision tests count each candidate's one run
  bool forgetCache = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--forget-cache") {
      forgetCache = true;
    } else if (!has_value) {
      std::cerr << "fake worker: " << arg << " needs a value or is unknown\n";
      return 64;
    } else if (arg == "--cache-dir") {
      cacheDir = argv[++i];
    } else if (arg == "--log") {
      faults.log = argv[++i];
    } else if (arg == "--hang") {
      faults.hang = argv[++i];
    } else if (arg == "--crash") {
      faults.crash = argv[++i];
    } else if (arg == "--interrupt-parent") {
      faults.interruptParent = argv[++i];
    } else if (arg == "--candidate-timeout") {
      options.candidateTimeoutSeconds = std::atof(argv[++i]);
    } else if (arg == "--worker-fd") {
      workerFd = std::atoi(argv[++i]);
    } else {
      std::cerr << "fake worker: unknown option " << arg << "\n";
      return 64;
    }
  }
  if (cacheDir.empty() || faults.log.empty() || !workerFd) {
    std::cerr << "fake worker: --cache-dir, --log and --worker-fd are required\n";
    return 64;
  }
  if (forgetCache)
    std::filesystem::remove_all(cacheDir);

  const HardwareProfile profile = model::testing::h100Like();
  const std::unique_ptr<model::PerformanceModel> model = model::makeModel(model::ModelKind::Modern);
  TuningSetup setup;
  setup.header.kernel = "saxpy";
  setup.header.arguments = {{"n", 1 << 26}};
  setup.header.device = "Fake GPU";
  setup.profile = &profile;
  setup.model = model.get();
  setup.workload = testing::saxpyWorkload();

  FaultyRunner runner(faults);
  WorkerChannel channel(*workerFd);
  const TuningRun run = overlap::tune::tune(
      runner, setup, options, TuningCache(cacheDir),
      [](const std::string& line) { std::cout << "  " << line << "\n"
                                              << std::flush; }, &channel);
  return run.winner ? 0 : 2;
}
