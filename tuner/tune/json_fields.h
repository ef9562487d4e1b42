// Reading the tuner's JSON files (reports, the cache, the results file) so that a corrupt or
// foreign file is refused with the field that is wrong, by its path
// ("candidates[3].timing.samples_s"), instead of nlohmann's bare "type must be number". Private to
// the tuner's sources: it needs nlohmann-json, which the tuner's public headers do not.
#pragma once

#include "model/performance_model.h"

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

// `parent_path` + `key`, as the errors spell it ("settings.noise"; top level: "noise").
std::string field_path(const std::string& parent_path, const std::string& key);
std::string element_path(const std::string& array_path, std::size_t index);

// The member `key` of the object `parent` (at `parent_path`); throws JsonFieldError when `parent`
// is not an object or has no such member.
const nlohmann::json& required_field(const nlohmann::json& parent, const std::string& parent_path,
                                     const std::string& key);

// `value` (at `path`) as a T; throws JsonFieldError naming the expected and the found type.
// Integers must be integers: nlohmann would silently truncate 1.5.
template <class T> T field_value(const nlohmann::json& value, const std::string& path) {
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

// required_field + field_value.
template <class T>
T required_value(const nlohmann::json& parent, const std::string& parent_path,
                 const std::string& key) {
  return field_value<T>(required_field(parent, parent_path, key), field_path(parent_path, key));
}

// The member `key` as a T, or `fallback` when it is absent; present with another type throws.
template <class T>
T optional_value(const nlohmann::json& parent, const std::string& parent_path,
                 const std::string& key, const T& fallback) {
  if (!parent.is_object() || !parent.contains(key))
    return fallback;
  return field_value<T>(parent.at(key), field_path(parent_path, key));
}

// A candidate as the reports write it: variant, streams, order and what it does with pageable
// arrays ("pageable", a to_string(PageableMode) name; absent when reading: Default).
nlohmann::json candidate_json(const model::Candidate& c);
model::Candidate candidate_from(const nlohmann::json& j, const std::string& path);
// The optional member "pageable" of `j` (at `path`); absent: PageableMode::Default.
PageableMode pageable_field(const nlohmann::json& j, const std::string& path);

} // namespace overlap::tune
