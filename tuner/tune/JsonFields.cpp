#include "tune/JsonFields.h"

namespace overlap::tune {

std::string fieldPath(const std::string& parentPath, const std::string& key) {
  return parentPath.empty() ? key : parentPath + "." + key;
}

std::string elementPath(const std::string& arrayPath, std::size_t index) {
  return arrayPath + "[" + std::to_string(index) + "]";
}

const nlohmann::json& requiredField(const nlohmann::json& parent, const std::string& parentPath,
                                    const std::string& key) {
  if (!parent.is_object())
    throw JsonFieldError(parentPath.empty() ? "(document)" : parentPath,
                         "expected an object, found " + std::string(parent.type_name()));
  const auto found = parent.find(key);
  if (found == parent.end())
    throw JsonFieldError(fieldPath(parentPath, key), "missing");
  return *found;
}

nlohmann::json candidateJson(const model::Candidate& c) {
  nlohmann::json j = {{"variant", model::to_string(c.variant)},
                      {"streams", c.streams},
                      {"order", model::to_string(c.order)},
                      {"pageable", to_string(c.pageable)},
                      {"chunks", c.chunks}};
  // Only for a split, so that the candidates that always were read as they did.
  if (c.devices != 1)
    j["devices"] = c.devices;
  if (c.graph)
    j["graph"] = true;
  // Only where the candidate asks for its own (0: automatic), likewise.
  if (c.staging.threads > 0)
    j["staging_threads"] = c.staging.threads;
  return j;
}

model::Candidate candidateFrom(const nlohmann::json& j, const std::string& path) {
  model::Candidate c;
  const std::string variant = requiredValue<std::string>(j, path, "variant");
  for (Variant v : {Variant::Explicit, Variant::Mapped, Variant::Streams, Variant::Hybrid})
    if (variant == model::to_string(v))
      c.variant = v;
  if (variant != model::to_string(c.variant))
    throw JsonFieldError(fieldPath(path, "variant"), "unknown variant \"" + variant + "\"");
  c.streams = requiredValue<int>(j, path, "streams");
  const std::string order = requiredValue<std::string>(j, path, "order");
  if (order == model::to_string(IssueOrder::BreadthFirst))
    c.order = IssueOrder::BreadthFirst;
  else if (order == model::to_string(IssueOrder::DepthFirst))
    c.order = IssueOrder::DepthFirst;
  else
    throw JsonFieldError(fieldPath(path, "order"), "unknown issue order \"" + order + "\"");
  c.pageable = pageableField(j, path);
  c.chunks = chunksField(j, path);
  c.devices = devicesField(j, path);
  c.graph = graphField(j, path, c.variant);
  c.staging.threads = stagingThreadsField(j, path);
  return c;
}

PageableMode pageableField(const nlohmann::json& j, const std::string& path) {
  const std::string text =
      optionalValue<std::string>(j, path, "pageable", to_string(PageableMode::Default));
  for (PageableMode mode : {PageableMode::Default, PageableMode::Register,
                            PageableMode::CachedRegister, PageableMode::Stage})
    if (text == to_string(mode))
      return mode;
  throw JsonFieldError(fieldPath(path, "pageable"), "unknown pageable mode \"" + text + "\"");
}

int chunksField(const nlohmann::json& j, const std::string& path) {
  const int chunks = optionalValue<int>(j, path, "chunks", 0);
  if (chunks < 0)
    throw JsonFieldError(fieldPath(path, "chunks"), "is negative");
  return chunks;
}

int devicesField(const nlohmann::json& j, const std::string& path) {
  const int devices = optionalValue<int>(j, path, "devices", 1);
  if (devices < 1)
    throw JsonFieldError(fieldPath(path, "devices"), "is not a device count (1 or more)");
  return devices;
}

bool graphField(const nlohmann::json& j, const std::string& path, Variant variant) {
  const bool graph = optionalValue<bool>(j, path, "graph", false);
  if (graph && variant != Variant::Streams && variant != Variant::Hybrid)
    throw JsonFieldError(fieldPath(path, "graph"), "only Streams and Hybrid have a graph form");
  return graph;
}

int stagingThreadsField(const nlohmann::json& j, const std::string& path) {
  const int threads = optionalValue<int>(j, path, "staging_threads", 0);
  if (threads < 0)
    throw JsonFieldError(fieldPath(path, "staging_threads"), "is negative");
  return threads;
}

} // namespace overlap::tune
