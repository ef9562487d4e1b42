#include "tune/ResultsFile.h"

#include "tune/JsonFields.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace overlap::tune {
namespace {

using nlohmann::json;

const char* kSchema = "overlap-tuning-results";

bool parseVariant(const std::string& text, Variant* variant) {
  for (Variant v : {Variant::Explicit, Variant::Mapped, Variant::Streams, Variant::Hybrid})
    if (text == model::to_string(v)) {
      *variant = v;
      return true;
    }
  return false;
}

bool parseOrder(const std::string& text, IssueOrder* order) {
  for (IssueOrder o : {IssueOrder::DepthFirst, IssueOrder::BreadthFirst})
    if (text == model::to_string(o)) {
      *order = o;
      return true;
    }
  return false;
}

} // namespace

void ResultsFile::put(const ResultsEntry& entry) {
  for (ResultsEntry& existing : entries)
    if (existing.kernel == entry.kernel && existing.device == entry.device &&
        existing.memory == entry.memory) {
      existing = entry;
      return;
    }
  entries.push_back(entry);
}

const ResultsEntry* ResultsFile::find(const std::string& kernel, const std::string& device,
                                      CallMemory memory) const {
  for (const ResultsEntry& entry : entries)
    if (entry.kernel == kernel && entry.device == device && entry.memory == memory)
      return &entry;
  return nullptr;
}

std::string toJsonText(const ResultsFile& file) {
  json entries = json::array();
  // Chunks, devices, graph or staging threads: what version 3 cannot say.
  bool versionFourFields = false;
  for (const ResultsEntry& e : file.entries) {
    std::vector<ResultsSize> ascending = e.sizes;
    std::sort(ascending.begin(), ascending.end(),
              [](const ResultsSize& a, const ResultsSize& b) { return a.extent < b.extent; });
    json sizes = json::array();
    for (const ResultsSize& size : ascending) {
      json arguments = json::object();
      for (const auto& [name, value] : size.arguments)
        arguments[name] = value;
      json fields = {{"extent", size.extent},
                     {"arguments", arguments},
                     {"variant", model::to_string(size.choice.variant)},
                     {"streams", size.choice.streams},
                     {"order", model::to_string(size.choice.order)},
                     {"pageable", to_string(size.choice.pageable)},
                     {"median_s", size.medianSeconds},
                     {"predicted_s", size.predictedSeconds},
                     {"kernel_s", size.kernelSeconds},
                     {"speedup_over_explicit", size.speedupOverExplicit},
                     {"report", size.report}};
      // Only where it is not one per stream: such a file stays what version 3 wrote.
      if (size.choice.chunks > 0) {
        fields["chunks"] = size.choice.chunks;
        versionFourFields = true;
      }
      // Only for a split (GPUs it runs on), likewise.
      if (size.choice.devices != 1) {
        fields["devices"] = size.choice.devices;
        versionFourFields = true;
      }
      if (size.choice.graph) {
        fields["graph"] = true;
        versionFourFields = true;
      }
      // Only where the winner's staging ring has threads of its own (0: automatic), likewise.
      if (size.choice.staging.threads > 0) {
        fields["staging_threads"] = size.choice.staging.threads;
        versionFourFields = true;
      }
      sizes.push_back(fields);
    }
    entries.push_back({{"kernel", e.kernel},
                       {"device", e.device},
                       {"memory", to_string(e.memory)},
                       {"date", e.date},
                       {"sweep", e.sweep},
                       {"sizes", sizes}});
  }
  const int version = versionFourFields ? kResultsSchemaVersion : kOldestResultsSchemaVersion;
  return json{{"schema", kSchema}, {"schema_version", version}, {"entries", entries}}.dump(2) +
         "\n";
}

namespace {

const json& arrayField(const json& parent, const std::string& parentPath, const std::string& key) {
  const json& value = requiredField(parent, parentPath, key);
  if (!value.is_array())
    throw JsonFieldError(fieldPath(parentPath, key),
                         "expected an array, found " + std::string(value.type_name()));
  return value;
}

ResultsSize sizeFrom(const json& j, const std::string& where) {
  ResultsSize size;
  size.extent = requiredValue<long long>(j, where, "extent");
  if (size.extent < 0)
    throw JsonFieldError(fieldPath(where, "extent"), "is negative");
  const json arguments = optionalValue<json>(j, where, "arguments", json::object());
  if (!arguments.is_object())
    throw JsonFieldError(fieldPath(where, "arguments"),
                         "expected an object, found " + std::string(arguments.type_name()));
  for (const auto& [name, value] : arguments.items())
    size.arguments.emplace_back(
        name, fieldValue<long long>(value, fieldPath(fieldPath(where, "arguments"), name)));
  const std::string variant = requiredValue<std::string>(j, where, "variant");
  if (!parseVariant(variant, &size.choice.variant))
    throw JsonFieldError(fieldPath(where, "variant"), "unknown variant \"" + variant + "\"");
  size.choice.streams = optionalValue<int>(j, where, "streams", 1);
  const std::string order =
      optionalValue<std::string>(j, where, "order", model::to_string(IssueOrder::DepthFirst));
  if (!parseOrder(order, &size.choice.order))
    throw JsonFieldError(fieldPath(where, "order"), "unknown order \"" + order + "\"");
  const bool streamed =
      size.choice.variant == Variant::Streams || size.choice.variant == Variant::Hybrid;
  if (streamed && size.choice.streams < 1)
    throw JsonFieldError(fieldPath(where, "streams"),
                         std::string(model::to_string(size.choice.variant)) +
                             " needs streams >= 1");
  if (streamed) {
    size.choice.chunks = chunksField(j, where);
    size.choice.staging.threads = stagingThreadsField(j, where);
  } else {
    size.choice.streams = 1;
    size.choice.order = IssueOrder::DepthFirst;
  }
  if (size.choice.variant != Variant::Explicit)
    size.choice.pageable = pageableField(j, where);
  size.choice.devices = devicesField(j, where);
  size.choice.graph = graphField(j, where, size.choice.variant);
  const auto nonNegative = [&](const char* key) {
    const double value = optionalValue<double>(j, where, key, 0.0);
    if (!(value >= 0))
      throw JsonFieldError(fieldPath(where, key), "is negative");
    return value;
  };
  size.medianSeconds = nonNegative("median_s");
  size.predictedSeconds = nonNegative("predicted_s");
  size.kernelSeconds = nonNegative("kernel_s");
  size.speedupOverExplicit = nonNegative("speedup_over_explicit");
  size.report = optionalValue<std::string>(j, where, "report", "");
  return size;
}

} // namespace

bool fromJsonText(const std::string& text, ResultsFile* file, std::string* error, bool* older) {
  if (older)
    *older = false;
  json document;
  try {
    document = json::parse(text);
  } catch (const std::exception& e) {
    *error = std::string("not JSON (empty, truncated or corrupt): ") + e.what();
    return false;
  }
  ResultsFile out;
  try {
    if (!document.is_object() ||
        optionalValue<std::string>(document, "", "schema", "") != kSchema) {
      *error = std::string("not a tuning-results file (expected \"schema\": \"") + kSchema + "\")";
      return false;
    }
    const int version = requiredValue<int>(document, "", "schema_version");
    if (version < kOldestResultsSchemaVersion || version > kResultsSchemaVersion) {
      if (older)
        *older = version < kOldestResultsSchemaVersion;
      *error = "schema_version: " + std::to_string(version) + ", this build reads versions " +
               std::to_string(kOldestResultsSchemaVersion) + " and " +
               std::to_string(kResultsSchemaVersion) +
               (version < kOldestResultsSchemaVersion
                    ? " (winners at every tuned size, per host memory): re-run overlap_tune "
                      "(the <target>_tuning target) to tune again"
                    : ": written by a newer Overlap");
      return false;
    }
    const json& entries = arrayField(document, "", "entries");
    for (std::size_t i = 0; i < entries.size(); ++i) {
      const json& j = entries[i];
      const std::string where = elementPath("entries", i);
      ResultsEntry e;
      e.kernel = requiredValue<std::string>(j, where, "kernel");
      e.device = requiredValue<std::string>(j, where, "device");
      const std::string memory = requiredValue<std::string>(j, where, "memory");
      if (!parseCallMemory(memory, &e.memory))
        throw JsonFieldError(fieldPath(where, "memory"),
                             "\"" + memory + "\" is not " + kCallMemoryNames);
      e.date = optionalValue<std::string>(j, where, "date", "");
      e.sweep = optionalValue<std::string>(j, where, "sweep", "");
      const std::string sizesPath = fieldPath(where, "sizes");
      const json& sizes = arrayField(j, where, "sizes");
      if (sizes.empty())
        throw JsonFieldError(sizesPath, "is empty: an entry holds at least one tuned size");
      for (std::size_t s = 0; s < sizes.size(); ++s) {
        const std::string sizePath = elementPath(sizesPath, s);
        e.sizes.push_back(sizeFrom(sizes[s], sizePath));
        if (s > 0 && e.sizes[s].extent <= e.sizes[s - 1].extent)
          throw JsonFieldError(
              fieldPath(sizePath, "extent"),
              std::to_string(e.sizes[s].extent) + " is not above the previous size's " +
                  std::to_string(e.sizes[s - 1].extent) + " (sizes are ascending and distinct)");
      }
      if (out.find(e.kernel, e.device, e.memory))
        throw JsonFieldError(where, "a second entry for kernel \"" + e.kernel + "\" on \"" +
                                        e.device + "\" with " + to_string(e.memory) + " memory");
      out.entries.push_back(std::move(e));
    }
  } catch (const std::exception& e) {
    *error = e.what();
    return false;
  }
  *file = std::move(out);
  return true;
}

bool readResultsFile(const std::string& path, ResultsFile* file, std::string* error, bool* older) {
  if (older)
    *older = false;
  std::ifstream in(path);
  if (!in) {
    if (!std::filesystem::exists(path)) {
      *file = {};
      return true;
    }
    *error = "cannot read " + path;
    return false;
  }
  std::stringstream text;
  text << in.rdbuf();
  if (!fromJsonText(text.str(), file, error, older)) {
    *error = path + ": " + *error;
    return false;
  }
  return true;
}

bool writeResultsFile(const std::string& path, const ResultsFile& file, std::string* error) {
  std::ofstream out(path, std::ios::trunc);
  out << toJsonText(file);
  if (!out) {
    *error = "cannot write " + path;
    return false;
  }
  return true;
}

} // namespace overlap::tune
