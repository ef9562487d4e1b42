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

nlohmann::json candidate_json(const model::Candidate& c) {
  return {{"variant", model::to_string(c.variant)},
          {"streams", c.streams},
          {"order", model::to_string(c.order)},
          {"pageable", to_string(c.pageable)}};
}

model::Candidate candidate_from(const nlohmann::json& j, const std::string& path) {
  model::Candidate c;
  const std::string variant = required_value<std::string>(j, path, "variant");
  for (Variant v : {Variant::Explicit, Variant::Mapped, Variant::Streams, Variant::Hybrid})
    if (variant == model::to_string(v))
      c.variant = v;
  if (variant != model::to_string(c.variant))
    throw JsonFieldError(field_path(path, "variant"), "unknown variant \"" + variant + "\"");
  c.streams = required_value<int>(j, path, "streams");
  const std::string order = required_value<std::string>(j, path, "order");
  if (order == model::to_string(IssueOrder::BreadthFirst))
    c.order = IssueOrder::BreadthFirst;
  else if (order == model::to_string(IssueOrder::DepthFirst))
    c.order = IssueOrder::DepthFirst;
  else
    throw JsonFieldError(field_path(path, "order"), "unknown issue order \"" + order + "\"");
  c.pageable = pageable_field(j, path);
  return c;
}

PageableMode pageable_field(const nlohmann::json& j, const std::string& path) {
  const std::string text =
      optional_value<std::string>(j, path, "pageable", to_string(PageableMode::Default));
  for (PageableMode mode : {PageableMode::Default, PageableMode::Register,
                            PageableMode::CachedRegister, PageableMode::Stage})
    if (text == to_string(mode))
      return mode;
  throw JsonFieldError(field_path(path, "pageable"), "unknown pageable mode \"" + text + "\"");
}

} // namespace overlap::tune
