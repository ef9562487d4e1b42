#include "tune/tuning_cache.h"

#include "tune/report_json.h"

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace overlap::tune {
namespace {

// FNV-1a: a stable file name for a key (std::hash may differ between builds).
std::string hex_digest(const std::string& text) {
  std::uint64_t hash = 1469598103934665603ULL;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 1099511628211ULL;
  }
  char out[17];
  std::snprintf(out, sizeof out, "%016llx", static_cast<unsigned long long>(hash));
  return out;
}

const char* kKeyLine = "// key: ";

} // namespace

std::string TuningCache::path_of(const std::string& key) const {
  return (std::filesystem::path(directory_) / (hex_digest(key) + ".json")).string();
}

std::optional<TuningRun> TuningCache::load(const std::string& key) const {
  if (!enabled())
    return std::nullopt;
  std::ifstream in(path_of(key));
  if (!in)
    return std::nullopt;
  // The first line holds the full key: a hash collision must not return another tuning.
  std::string first;
  std::getline(in, first);
  if (first != kKeyLine + key)
    return std::nullopt;
  std::stringstream rest;
  rest << in.rdbuf();
  TuningRun run;
  std::string error;
  if (!from_json_text(rest.str(), &run, &error))
    return std::nullopt;
  return run;
}

bool TuningCache::store(const std::string& key, const TuningRun& run, std::string* error) const {
  if (!enabled())
    return true;
  std::error_code code;
  std::filesystem::create_directories(directory_, code);
  const std::string path = path_of(key);
  const std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary, std::ios::trunc);
    out << kKeyLine << key << "\n" << to_json_text(run);
    if (!out) {
      *error = "cannot write " + temporary;
      return false;
    }
  }
  std::filesystem::rename(temporary, path, code);
  if (code) {
    *error = "cannot rename " + temporary + " to " + path + ": " + code.message();
    return false;
  }
  return true;
}

} // namespace overlap::tune
