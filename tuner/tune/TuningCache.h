// Tunings kept between runs, one JSON report per key in a directory: an interrupted tuning resumes
// with the candidates it had measured, and a finished one is reused while nothing that could
// change its result has changed. The key names the kernel (name, source, line, parameter types),
// the arguments, the device, the profile, the settings and the tuner version.
//
// A cache file that cannot be read back (truncated, edited, written by something else) is never
// silently dropped: load() moves it aside to `<file>.corrupt`, kept for inspection, and says so
// with the file and the field that is wrong; the tuning then starts afresh.
#pragma once

#include "tune/TuningRun.h"

#include <optional>
#include <string>

namespace overlap::tune {

class TuningCache {
public:
  // An empty directory disables the cache.
  explicit TuningCache(std::string directory) : directory_(std::move(directory)) {}

  bool enabled() const { return !directory_.empty(); }
  // The stored tuning of `key`, complete or not; nullopt when there is none or it cannot be read.
  // When a file exists but cannot be used, `warning` (if given) says why, naming the file, and a
  // corrupt file has been moved to `<file>.corrupt`.
  std::optional<TuningRun> load(const std::string& key, std::string* warning = nullptr) const;
  // Replaces the stored tuning of `key` (written to a temporary file first, then renamed, so an
  // interrupt never leaves half a file). False with `error` set when it cannot be written.
  bool store(const std::string& key, const TuningRun& run, std::string* error) const;
  std::string pathOf(const std::string& key) const;

  // The same, for one cache file by its path: what a supervisor that only knows the path of the
  // tuning in progress uses. readFile leaves the file where it is.
  static bool readFile(const std::string& path, std::string* key, TuningRun* run,
                       std::string* error);
  static bool writeFile(const std::string& path, const std::string& key, const TuningRun& run,
                        std::string* error);

private:
  std::string directory_;
};

// Records, in the cache file at `path`, the candidate named `candidate` (model::describe) as run
// and failed with `reason`, so a resumed tuning does not run it again. False with `error` set when
// the file cannot be read or written or has no such candidate.
bool recordFailedCandidate(const std::string& path, const std::string& candidate,
                           const std::string& reason, std::string* error);

} // namespace overlap::tune
