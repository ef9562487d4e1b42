#include "tune/json_fields.h"

namespace overlap::tune {

std::string field_path(const std::string& parent_path, const std::string& key) {
  return parent_path.empty() ? key : parent_path + "." + key;
}

std::string element_path(const std::string& array_path, std::size_t index) {
  return array_path + "[" + std::to_string(index) + "]";
}

const nlohmann::json& required_field(const nlohmann::json& parent, const std::string& parent_path,
                                     const std::string& key) {
  if (!parent.is_object())
    throw JsonFieldError(parent_path.empty() ? "(document)" : parent_path,
                         "expected an object, found " + std::string(parent.type_name()));
  const auto found = parent.find(key);
  if (found == parent.end())
    throw JsonFieldError(field_path(parent_path, key), "missing");
  return *found;
}

} // namespace overlap::tune
