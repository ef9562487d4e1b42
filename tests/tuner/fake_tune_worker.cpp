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
#include "model_test_profiles.h"
#include "tune/tuner.h"
#include "tune/worker_channel.h"
#include "tuner_test_support.h"

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
  std::string interrupt_parent;
  std::string log;
};

void sleep_forever() {
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
    sleep_forever();
  if (name == faults.crash) {
    const rlimit no_core{0, 0};
    ::setrlimit(RLIMIT_CORE, &no_core);
    // The default action, so that the worker dies of the signal even where a handler (ASan's,
    // in the sanitizer build) would report it and exit with a status instead.
    ::signal(SIGSEGV, SIG_DFL);
    ::raise(SIGSEGV);
  }
  if (name == faults.interrupt_parent) {
    // As a user's Ctrl-C to the supervisor; the worker is then stopped by the forwarded signal.
    ::kill(::getppid(), SIGINT);
    sleep_forever();
  }
}

class FaultyRunner final : public CandidateRunner {
public:
  explicit FaultyRunner(Faults faults)
      : faults_(std::move(faults)),
        timings_([](const model::Candidate& c) { return 1e-3 * (2 + c.streams % 3); }) {}

  RunResult run_reference(const TimingPlan& plan) override {
    start(faults_, model::Candidate{});
    return timings_.run_reference(plan);
  }
  RunResult run_candidate(const model::Candidate& candidate, const TimingPlan& plan) override {
    start(faults_, candidate);
    return timings_.run_candidate(candidate, plan);
  }

private:
  Faults faults_;
  testing::FakeRunner timings_;
};

} // namespace

int main(int argc, char** argv) {
  Faults faults;
  std::string cache_dir;
  std::optional<int> worker_fd;
  TunerOptions options;
  options.exhaustive = true;
  options.search.max_streams = 8;
  options.timing.warmup = 0;
  options.final_rounds = 0; // the supervision tests count each candidate's one run
  bool forget_cache = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--forget-cache") {
      forget_cache = true;
    } else if (!has_value) {
      std::cerr << "fake worker: " << arg << " needs a value or is unknown\n";
      return 64;
    } else if (arg == "--cache-dir") {
      cache_dir = argv[++i];
    } else if (arg == "--log") {
      faults.log = argv[++i];
    } else if (arg == "--hang") {
      faults.hang = argv[++i];
    } else if (arg == "--crash") {
      faults.crash = argv[++i];
    } else if (arg == "--interrupt-parent") {
      faults.interrupt_parent = argv[++i];
    } else if (arg == "--candidate-timeout") {
      options.candidate_timeout_seconds = std::atof(argv[++i]);
    } else if (arg == "--worker-fd") {
      worker_fd = std::atoi(argv[++i]);
    } else {
      std::cerr << "fake worker: unknown option " << arg << "\n";
      return 64;
    }
  }
  if (cache_dir.empty() || faults.log.empty() || !worker_fd) {
    std::cerr << "fake worker: --cache-dir, --log and --worker-fd are required\n";
    return 64;
  }
  if (forget_cache)
    std::filesystem::remove_all(cache_dir);

  const HardwareProfile profile = model::testing::h100_like();
  const std::unique_ptr<model::PerformanceModel> model =
      model::make_model(model::ModelKind::Modern);
  TuningSetup setup;
  setup.header.kernel = "saxpy";
  setup.header.arguments = {{"n", 1 << 26}};
  setup.header.device = "Fake GPU";
  setup.profile = &profile;
  setup.model = model.get();
  setup.workload = testing::saxpy_workload();

  FaultyRunner runner(faults);
  WorkerChannel channel(*worker_fd);
  const TuningRun run = overlap::tune::tune(
      runner, setup, options, TuningCache(cache_dir),
      [](const std::string& line) { std::cout << "  " << line << "\n"
                                              << std::flush; }, &channel);
  return run.winner ? 0 : 2;
}
