// Tunings kept between runs, one JSON report per key in a directory: an interrupted tuning resumes
// with the candidates it had measured, and a finished one is reused while nothing that could
// change its result has changed. The key names the kernel (name, source, line, parameter types),
// the arguments, the device, the profile, the settings and the tuner version.
#pragma once

#include "tune/tuning_run.h"

#include <optional>
#include <string>

namespace overlap::tune {

class TuningCache {
public:
  // An empty directory disables the cache.
  explicit TuningCache(std::string directory) : directory_(std::move(directory)) {}

  bool enabled() const { return !directory_.empty(); }
  // The stored tuning of `key`, complete or not; nullopt when there is none or it cannot be read.
  std::optional<TuningRun> load(const std::string& key) const;
  // Replaces the stored tuning of `key` (written to a temporary file first, then renamed, so an
  // interrupt never leaves half a file). False with `error` set when it cannot be written.
  bool store(const std::string& key, const TuningRun& run, std::string* error) const;
  std::string path_of(const std::string& key) const;

private:
  std::string directory_;
};

} // namespace overlap::tune
