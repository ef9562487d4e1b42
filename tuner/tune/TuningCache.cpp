#include "tune/TuningCache.h"

#include "tune/FileReplace.h"

#include "tune/ReportJson.h"

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace overlap::tune {
namespace {

// FNV-1a: a stable file name for a key (std::hash may differ between builds).
std::string hexDigest(const std::string& text) {
  std::uint64_t hash = 1469598103934665603ULL;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 1099511628211ULL;
  }
  char out[17];
  std::snprintf(out, sizeof out, "%016llx", static_cast<unsigned long long>(hash));
  return out;
}

const std::string kKeyLine = "// key: ";

} // namespace

std::string TuningCache::pathOf(const std::string& key) const {
  return (std::filesystem::path(directory_) / (hexDigest(key) + ".json")).string();
}

bool TuningCache::readFile(const std::string& path, std::string* key, TuningRun* run,
                           std::string* error) {
  std::ifstream in(path);
  if (!in) {
    *error = "cannot read " + path;
    return false;
  }
  std::string first;
  std::getline(in, first);
  if (first.compare(0, kKeyLine.size(), kKeyLine) != 0) {
    *error = path + ": the first line is not \"" + kKeyLine + "...\" (empty, truncated or not " +
             "a tuning cache file)";
    return false;
  }
  std::stringstream rest;
  rest << in.rdbuf();
  if (!fromJsonText(rest.str(), run, error)) {
    *error = path + ": " + *error;
    return false;
  }
  *key = first.substr(kKeyLine.size());
  return true;
}

std::optional<TuningRun> TuningCache::load(const std::string& key, std::string* warning) const {
  if (!enabled())
    return std::nullopt;
  const std::string path = pathOf(key);
  std::error_code code;
  if (!std::filesystem::exists(path, code))
    return std::nullopt;
  std::string storedKey;
  TuningRun run;
  std::string error;
  if (!readFile(path, &storedKey, &run, &error)) {
    // Kept beside the cache rather than deleted: it may be the only record of a long tuning.
    const std::string aside = path + ".corrupt";
    std::filesystem::rename(path, aside, code);
    if (warning)
      *warning = "the tuning cache file cannot be used, so this tuning starts afresh: " + error +
                 (code ? "; it could not be moved aside (" + code.message() + ")"
                       : "; it was moved to " + aside);
    return std::nullopt;
  }
  // The name is a hash of the key: a collision must not return another tuning. Not corrupt; it is
  // replaced by the next store().
  if (storedKey != key) {
    if (warning)
      *warning = path + " holds the tuning of another key (a hash collision): it is replaced";
    return std::nullopt;
  }
  return run;
}

bool TuningCache::writeFile(const std::string& path, const std::string& key, const TuningRun& run,
                            std::string* error) {
  std::ostringstream text;
  text << kKeyLine << key << "\n" << toJsonText(run);
  return replaceFile(path, text.str(), error);
}

bool TuningCache::store(const std::string& key, const TuningRun& run, std::string* error) const {
  if (!enabled())
    return true;
  std::error_code code;
  std::filesystem::create_directories(directory_, code);
  return writeFile(pathOf(key), key, run, error);
}

bool recordFailedCandidate(const std::string& path, const std::string& candidate,
                           const std::string& reason, std::string* error) {
  std::string key;
  TuningRun run;
  if (!TuningCache::readFile(path, &key, &run, error))
    return false;
  for (CandidateOutcome& outcome : run.candidates) {
    if (model::describe(outcome.candidate) != candidate)
      continue;
    outcome.run = true;
    outcome.verification = Verification::Failed;
    outcome.error = reason;
    outcome.timing = {};
    outcome.samples.clear();
    return TuningCache::writeFile(path, key, run, error);
  }
  *error = path + " has no candidate \"" + candidate + "\"";
  return false;
}

} // namespace overlap::tune
