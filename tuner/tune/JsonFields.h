// Reading the tuner's JSON files (reports, the cache, the results file) so that a corrupt or
// foreign file is refused with the field that is wrong, by its path
// ("candidates[3].timing.samples_s"), instead of nlohmann's bare "type must be number". Private to
// the tuner's sources: it needs nlohmann-json, which the tuner's public headers do not.
#pragma once

#include "model/PerformanceModel.h"

#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>
#include <type_traits>

namespace overlap::tune {

// A field missing or of the wrong type; what() reads "<path>: <reason>".
class JsonFieldError : public std::runtime_error {
public:
  JsonFieldError(const std::string& path, const std::string& reason)
      : std::runtime_error(path + ": " + reason), path_(path) {}
  const std::string& path() const { return path_; }

private:
  std::string path_;
};

// `parentPath` + `key`, as the errors spell it ("settings.noise"; top level: "noise").
std::string fieldPath(const std::string& parentPath, const std::string& key);
std::string elementPath(const std::string& arrayPath, std::size_t index);

// The member `key` of the object `parent` (at `parentPath`); throws JsonFieldError when `parent`
// is not an object or has no such member.
const nlohmann::json& requiredField(const nlohmann::json& parent, const std::string& parentPath,
                                    const std::string& key);

// `value` (at `path`) as a T; throws JsonFieldError naming the expected and the found type.
// Integers must be integers: nlohmann would silently truncate 1.5.
template <class T> T fieldValue(const nlohmann::json& value, const std::string& path) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>)
    if (!value.is_number_integer())
      throw JsonFieldError(path, "has the wrong type (" + std::string(value.type_name()) +
                                     "): expected an integer");
  try {
    return value.get<T>();
  } catch (const nlohmann::json::exception& e) {
    throw JsonFieldError(path, "has the wrong type (" + std::string(value.type_name()) +
                                   "): " + e.what());
  }
}

// requiredField + fieldValue.
template <class T>
T requiredValue(const nlohmann::json& parent, const std::string& parentPath,
                const std::string& key) {
  return fieldValue<T>(requiredField(parent, parentPath, key), fieldPath(parentPath, key));
}

// The member `key` as a T, or `fallback` when it is absent; present with another type throws.
template <class T>
T optionalValue(const nlohmann::json& parent, const std::string& parentPath, const std::string& key,
                const T& fallback) {
  if (!parent.is_object() || !parent.contains(key))
    return fallback;
  return fieldValue<T>(parent.at(key), fieldPath(parentPath, key));
}

// A candidate as the reports write it: variant, streams, order, what it does with pageable
// arrays ("pageable", a to_string(PageableMode) name; absent when reading: Default), its chunks
// ("chunks", 0: one per stream; absent when reading, as in reports older than chunk counts: 0),
// its GPUs ("devices", only for a split), graph form ("graph", only when true) and staging ring's
// host threads ("staging_threads", StagingConfig::threads, only when it asks for its own; absent:
// 0, automatic; the ring's slots stay automatic).
nlohmann::json candidateJson(const model::Candidate& c);
model::Candidate candidateFrom(const nlohmann::json& j, const std::string& path);
// The optional member "pageable" of `j` (at `path`); absent: PageableMode::Default.
PageableMode pageableField(const nlohmann::json& j, const std::string& path);
// The optional member "chunks" of `j` (at `path`), not negative; absent: 0.
int chunksField(const nlohmann::json& j, const std::string& path);
// A candidate's optional "devices" (GPUs it is split across; absent: 1).
int devicesField(const nlohmann::json& j, const std::string& path);
// A candidate's optional "graph" (the graph form; absent: false), only for Streams and Hybrid.
bool graphField(const nlohmann::json& j, const std::string& path, Variant variant);
// A candidate's optional "staging_threads" (StagingConfig::threads), not negative; absent: 0.
int stagingThreadsField(const nlohmann::json& j, const std::string& path);

} // namespace overlap::tune
