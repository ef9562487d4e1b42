#include "tune/TuningSupervisor.h"

#include "tune/TuningCache.h"
#include "tune/TuningRun.h"
#include "tune/WorkerChannel.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>
#include <thread>

extern char** environ;

namespace overlap::tune {
namespace {

using Clock = std::chrono::steady_clock;

// The self-pipe the signal handler writes the signal number to, so poll() sees an interrupt
// together with the worker's messages. One supervisor at a time installs it.
int gSignalPipe[2] = {-1, -1};

extern "C" void forwardSignalToPipe(int signalNumber) {
  const int saved = errno;
  const unsigned char byte = static_cast<unsigned char>(signalNumber);
  [[maybe_unused]] const ssize_t ignored = ::write(gSignalPipe[1], &byte, 1);
  errno = saved;
}

// SIGINT and SIGTERM go to the self-pipe while it lives; the previous handlers come back after.
class InterruptCatcher {
public:
  InterruptCatcher() {
    if (::pipe2(gSignalPipe, O_CLOEXEC | O_NONBLOCK) != 0) {
      error_ = std::string("pipe2 failed: ") + std::strerror(errno);
      return;
    }
    struct sigaction action{};
    action.sa_handler = forwardSignalToPipe;
    sigemptyset(&action.sa_mask);
    for (std::size_t i = 0; i < kSignals.size(); ++i)
      ::sigaction(kSignals[i], &action, &previous_[i]);
    installed_ = true;
  }
  ~InterruptCatcher() {
    if (installed_)
      for (std::size_t i = 0; i < kSignals.size(); ++i)
        ::sigaction(kSignals[i], &previous_[i], nullptr);
    for (int& fd : gSignalPipe)
      if (fd >= 0) {
        ::close(fd);
        fd = -1;
      }
  }
  InterruptCatcher(const InterruptCatcher&) = delete;
  InterruptCatcher& operator=(const InterruptCatcher&) = delete;

  const std::string& error() const { return error_; }
  // The signal caught since the last call, if any.
  static std::optional<int> caught() {
    unsigned char byte = 0;
    if (::read(gSignalPipe[0], &byte, 1) == 1)
      return byte;
    return std::nullopt;
  }

private:
  static constexpr std::array<int, 2> kSignals = {SIGINT, SIGTERM};
  std::array<struct sigaction, 2> previous_{};
  bool installed_ = false;
  std::string error_;
};

std::string secondsText(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%g s", seconds);
  return text;
}

std::string describeWaitStatus(int status) {
  if (WIFSIGNALED(status)) {
    const int signalNumber = WTERMSIG(status);
    const char* name = ::strsignal(signalNumber);
    return "died of signal " + std::to_string(signalNumber) +
           (name ? std::string(" (") + name + ")" : "");
  }
  return "exited with status " + std::to_string(WEXITSTATUS(status));
}

bool isInterrupt(int signalNumber) {
  return signalNumber == SIGINT || signalNumber == SIGTERM;
}

} // namespace

// One started worker: its process and the read end of its channel. Killed if still running when
// it goes out of scope, so no worker outlives its supervisor.
struct TuningSupervisor::Worker {
  pid_t pid = -1;
  int channel = -1;

  ~Worker() {
    if (channel >= 0)
      ::close(channel);
    if (pid > 0) {
      ::kill(pid, SIGKILL);
      wait();
    }
  }

  bool start(const std::vector<std::string>& command, std::string* error) {
    if (command.empty()) {
      *error = "no worker command";
      return false;
    }
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) {
      *error = std::string("pipe2 failed: ") + std::strerror(errno);
      return false;
    }
    // Only the write end reaches the worker.
    ::fcntl(fds[1], F_SETFD, 0);
    std::vector<std::string> arguments = command;
    arguments.push_back("--worker-fd");
    arguments.push_back(std::to_string(fds[1]));
    std::vector<char*> argv;
    for (std::string& argument : arguments)
      argv.push_back(argument.data());
    argv.push_back(nullptr);
    const int code = ::posix_spawn(&pid, argv[0], nullptr, nullptr, argv.data(), environ);
    ::close(fds[1]);
    if (code != 0) {
      ::close(fds[0]);
      pid = -1;
      *error = "cannot start " + command[0] + ": " + std::strerror(code);
      return false;
    }
    channel = fds[0];
    return true;
  }

  // Blocks until the worker has exited; its wait status.
  int wait() {
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    pid = -1;
    return status;
  }

  // Waits up to `seconds`; false if it is still running.
  bool wait_for(double seconds, int* status) {
    const Clock::time_point deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                                          std::chrono::duration<double>(seconds));
    while (true) {
      const pid_t done = ::waitpid(pid, status, WNOHANG);
      if (done == pid) {
        pid = -1;
        return true;
      }
      if (done < 0 && errno != EINTR)
        return false;
      if (Clock::now() >= deadline)
        return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
};

TuningSupervisor::TuningSupervisor(SupervisorOptions options, std::ostream& out, std::ostream& err)
    : options_(std::move(options)), out_(out), err_(err) {}

int TuningSupervisor::run() {
  const InterruptCatcher interrupts;
  if (!interrupts.error().empty()) {
    err_ << "overlap-tune: cannot supervise the tuning: " << interrupts.error() << "\n";
    return kSupervisorFailed;
  }
  while (true) {
    Worker worker;
    std::string error;
    out_.flush();
    err_.flush();
    if (!worker.start(options_.workerCommand, &error)) {
      err_ << "overlap-tune: " << error << "\n";
      return kSupervisorFailed;
    }
    int exitCode = kSupervisorFailed;
    if (supervise(worker, &exitCode) != Outcome::Restart)
      return exitCode;
  }
}

TuningSupervisor::Outcome TuningSupervisor::supervise(Worker& worker, int* exitCode) {
  std::string pending; // bytes of a line not yet complete
  std::optional<CandidateStart> current;
  Clock::time_point deadline;
  const auto onInterrupt = [&](int signalNumber) {
    if (worker.pid > 0) {
      ::kill(worker.pid, signalNumber);
      int status = 0;
      if (!worker.wait_for(options_.interruptGraceSeconds, &status)) {
        ::kill(worker.pid, SIGKILL);
        worker.wait();
      }
    }
    *exitCode = interrupted(signalNumber, lastCacheFile_);
    return Outcome::Stop;
  };

  while (true) {
    int timeoutMs = -1;
    if (current) {
      const double left = std::chrono::duration<double>(deadline - Clock::now()).count();
      timeoutMs = static_cast<int>(std::ceil(std::max(0.0, std::min(left, 86400.0)) * 1e3));
    }
    pollfd fds[2] = {{worker.channel, POLLIN, 0}, {gSignalPipe[0], POLLIN, 0}};
    const int ready = ::poll(fds, 2, timeoutMs);
    if (ready < 0) {
      if (errno == EINTR)
        continue;
      err_ << "overlap-tune: poll failed: " << std::strerror(errno) << "\n";
      *exitCode = kSupervisorFailed;
      return Outcome::Stop;
    }
    if (const std::optional<int> signalNumber = InterruptCatcher::caught())
      return onInterrupt(*signalNumber);
    if (ready == 0 && current && Clock::now() >= deadline) {
      ::kill(worker.pid, SIGKILL);
      worker.wait();
      return candidateLost(*current,
                           kStoppedAtTimeBound + secondsText(current->boundSeconds) +
                               ": exceeded the candidate time bound (--candidate-timeout); the "
                               "process was killed",
                           exitCode);
    }
    if (!(fds[0].revents & (POLLIN | POLLHUP | POLLERR)))
      continue;

    char chunk[4096];
    const ssize_t n = ::read(worker.channel, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR)
      continue;
    if (n > 0) {
      pending.append(chunk, static_cast<std::size_t>(n));
      std::size_t newline;
      while ((newline = pending.find('\n')) != std::string::npos) {
        const std::string line = pending.substr(0, newline);
        pending.erase(0, newline + 1);
        const std::optional<WorkerMessage> message = parseWorkerLine(line);
        if (!message) {
          err_ << "overlap-tune: ignoring a malformed message of the tuning worker: \"" << line
               << "\"\n";
          continue;
        }
        if (!message->begin) {
          current.reset();
          continue;
        }
        current = message->start;
        if (!current->cacheFile.empty())
          lastCacheFile_ = current->cacheFile;
        deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                      std::chrono::duration<double>(current->boundSeconds));
      }
      continue;
    }

    // End of the channel: the worker has exited, or is about to.
    const int status = worker.wait();
    if (WIFSIGNALED(status) && isInterrupt(WTERMSIG(status))) {
      // A terminal's Ctrl-C reaches the whole process group, the worker often first.
      const std::optional<int> ours = InterruptCatcher::caught();
      *exitCode = interrupted(ours.value_or(WTERMSIG(status)), lastCacheFile_);
      return Outcome::Stop;
    }
    if (current)
      return candidateLost(
          *current, "crashed: the process " + describeWaitStatus(status) + " while running it",
          exitCode);
    if (WIFSIGNALED(status)) {
      err_ << "overlap-tune: the tuning worker " << describeWaitStatus(status)
           << " outside any candidate; the tuning stops\n";
      *exitCode = kSupervisorFailed;
      return Outcome::Stop;
    }
    *exitCode = WEXITSTATUS(status);
    return Outcome::Finished;
  }
}

TuningSupervisor::Outcome TuningSupervisor::candidateLost(const CandidateStart& start,
                                                          const std::string& reason,
                                                          int* exitCode) {
  *exitCode = kSupervisorFailed;
  if (start.reference) {
    err_ << "overlap-tune: the reference (" << start.candidate << ") " << reason
         << ". Without a reference no candidate can be verified or compared, so the tuning stops"
         << " (if it is only slow, raise --candidate-timeout)\n";
    *exitCode = kReferenceLost;
    return Outcome::Stop;
  }
  out_ << "  " << start.candidate << ": failed (" << reason << ")\n" << std::flush;
  stopped_.push_back(start.candidate + ": " + reason);
  if (start.cacheFile.empty()) {
    err_ << "overlap-tune: " << start.candidate
         << " cannot be recorded without a tuning cache, so the tuning cannot resume past it\n";
    return Outcome::Stop;
  }
  // A worker that resumes never runs a recorded candidate again; one that does would loop.
  const std::pair<std::string, std::string> entry(start.cacheFile, start.candidate);
  if (std::find(recorded_.begin(), recorded_.end(), entry) != recorded_.end()) {
    err_ << "overlap-tune: " << start.candidate << " ran again after it was recorded as failed in "
         << start.cacheFile << "; the worker does not resume from its cache, so the tuning stops\n";
    return Outcome::Stop;
  }
  std::string error;
  if (!recordFailedCandidate(start.cacheFile, start.candidate, reason, &error)) {
    err_ << "overlap-tune: cannot record " << start.candidate << " as failed: " << error << "\n";
    return Outcome::Stop;
  }
  recorded_.push_back(entry);
  ++restarts_;
  out_ << "  restarting the tuning worker (restart " << restarts_ << "); it resumes from "
       << start.cacheFile << "\n"
       << std::flush;
  return Outcome::Restart;
}

int TuningSupervisor::interrupted(int signalNumber, const std::string& cacheFile) {
  err_ << "overlap-tune: interrupted: ";
  std::string key;
  TuningRun run;
  std::string error;
  if (!options_.cacheKept) {
    err_ << "the cache was private to this run (--no-cache), so nothing is kept\n";
  } else if (cacheFile.empty() || !TuningCache::readFile(cacheFile, &key, &run, &error)) {
    err_ << "no candidate had been measured yet; run again to start over\n";
  } else {
    int planned = 0;
    int measured = 0;
    for (const CandidateOutcome& c : run.candidates) {
      if (c.candidate == model::Candidate{} || !(run.exhaustive || c.keptByModel))
        continue;
      ++planned;
      measured += c.run;
    }
    err_ << measured << " of " << planned << " candidates measured are in the cache " << cacheFile
         << "; run again to resume\n";
  }
  err_.flush();
  return kExitAfterSignal + signalNumber;
}

} // namespace overlap::tune
