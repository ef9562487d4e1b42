#include "tune/results_file.h"

#include "tune/json_fields.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace overlap::tune {
namespace {

using nlohmann::json;

const char* kSchema = "overlap-tuning-results";

bool parse_variant(const std::string& text, Variant* variant) {
  for (Variant v : {Variant::Explicit, Variant::Mapped, Variant::Streams, Variant::Hybrid})
    if (text == model::to_string(v)) {
      *variant = v;
      return true;
    }
  return false;
}

bool parse_order(const std::string& text, IssueOrder* order) {
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
    if (existing.kernel == entry.kernel && existing.device == entry.device) {
      existing = entry;
      return;
    }
  entries.push_back(entry);
}

const ResultsEntry* ResultsFile::find(const std::string& kernel, const std::string& device) const {
  for (const ResultsEntry& entry : entries)
    if (entry.kernel == kernel && entry.device == device)
      return &entry;
  return nullptr;
}

std::string to_json_text(const ResultsFile& file) {
  json entries = json::array();
  for (const ResultsEntry& e : file.entries) {
    json arguments = json::object();
    for (const auto& [name, value] : e.arguments)
      arguments[name] = value;
    entries.push_back({{"kernel", e.kernel},
                       {"device", e.device},
                       {"arguments", arguments},
                       {"variant", model::to_string(e.choice.variant)},
                       {"streams", e.choice.streams},
                       {"order", model::to_string(e.choice.order)},
                       {"median_s", e.median_seconds},
                       {"speedup_over_explicit", e.speedup_over_explicit},
                       {"date", e.date},
                       {"report", e.report}});
  }
  return json{{"schema", kSchema}, {"schema_version", kResultsSchemaVersion}, {"entries", entries}}
             .dump(2) +
         "\n";
}

bool from_json_text(const std::string& text, ResultsFile* file, std::string* error) {
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
        optional_value<std::string>(document, "", "schema", "") != kSchema) {
      *error = std::string("not a tuning-results file (expected \"schema\": \"") + kSchema + "\")";
      return false;
    }
    const int version = required_value<int>(document, "", "schema_version");
    if (version != kResultsSchemaVersion) {
      *error = "tuning-results schema version " + std::to_string(version) +
               ", this build reads version " + std::to_string(kResultsSchemaVersion);
      return false;
    }
    const json& entries = required_field(document, "", "entries");
    if (!entries.is_array())
      throw JsonFieldError("entries",
                           "expected an array, found " + std::string(entries.type_name()));
    for (std::size_t i = 0; i < entries.size(); ++i) {
      const json& j = entries[i];
      const std::string where = element_path("entries", i);
      ResultsEntry e;
      e.kernel = required_value<std::string>(j, where, "kernel");
      e.device = required_value<std::string>(j, where, "device");
      const json arguments = optional_value<json>(j, where, "arguments", json::object());
      if (!arguments.is_object())
        throw JsonFieldError(field_path(where, "arguments"),
                             "expected an object, found " + std::string(arguments.type_name()));
      for (const auto& [name, value] : arguments.items())
        e.arguments.emplace_back(
            name, field_value<long long>(value, field_path(field_path(where, "arguments"), name)));
      const std::string variant = required_value<std::string>(j, where, "variant");
      if (!parse_variant(variant, &e.choice.variant))
        throw JsonFieldError(field_path(where, "variant"), "unknown variant \"" + variant + "\"");
      e.choice.streams = optional_value<int>(j, where, "streams", 1);
      const std::string order =
          optional_value<std::string>(j, where, "order", model::to_string(IssueOrder::DepthFirst));
      if (!parse_order(order, &e.choice.order))
        throw JsonFieldError(field_path(where, "order"), "unknown order \"" + order + "\"");
      const bool streamed =
          e.choice.variant == Variant::Streams || e.choice.variant == Variant::Hybrid;
      if (streamed && e.choice.streams < 1)
        throw JsonFieldError(field_path(where, "streams"),
                             std::string(model::to_string(e.choice.variant)) +
                                 " needs streams >= 1");
      if (!streamed)
        e.choice.streams = 1;
      e.median_seconds = optional_value<double>(j, where, "median_s", 0.0);
      e.speedup_over_explicit = optional_value<double>(j, where, "speedup_over_explicit", 0.0);
      e.date = optional_value<std::string>(j, where, "date", "");
      e.report = optional_value<std::string>(j, where, "report", "");
      if (out.find(e.kernel, e.device))
        throw JsonFieldError(where, "a second entry for kernel \"" + e.kernel + "\" on \"" +
                                        e.device + "\"");
      out.entries.push_back(std::move(e));
    }
  } catch (const std::exception& e) {
    *error = e.what();
    return false;
  }
  *file = std::move(out);
  return true;
}

bool read_results_file(const std::string& path, ResultsFile* file, std::string* error) {
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
  if (!from_json_text(text.str(), file, error)) {
    *error = path + ": " + *error;
    return false;
  }
  return true;
}

bool write_results_file(const std::string& path, const ResultsFile& file, std::string* error) {
  std::ofstream out(path, std::ios::trunc);
  out << to_json_text(file);
  if (!out) {
    *error = "cannot write " + path;
    return false;
  }
  return true;
}

} // namespace overlap::tune
