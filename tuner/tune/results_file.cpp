#include "tune/results_file.h"

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
    *error = std::string("not JSON: ") + e.what();
    return false;
  }
  if (!document.is_object() || document.value("schema", "") != kSchema) {
    *error = std::string("not a tuning-results file (expected \"schema\": \"") + kSchema + "\")";
    return false;
  }
  if (document.value("schema_version", 0) != kResultsSchemaVersion) {
    *error = "tuning-results schema version " +
             std::to_string(document.value("schema_version", 0)) + ", this build reads version " +
             std::to_string(kResultsSchemaVersion);
    return false;
  }
  ResultsFile out;
  const json entries = document.value("entries", json::array());
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const std::string where = "entry " + std::to_string(i);
    try {
      const json& j = entries.at(i);
      ResultsEntry e;
      e.kernel = j.at("kernel").get<std::string>();
      e.device = j.at("device").get<std::string>();
      const json arguments = j.value("arguments", json::object());
      for (const auto& [name, value] : arguments.items())
        e.arguments.emplace_back(name, value.get<long long>());
      if (!parse_variant(j.at("variant").get<std::string>(), &e.choice.variant)) {
        *error = where + ": unknown variant \"" + j.at("variant").get<std::string>() + "\"";
        return false;
      }
      e.choice.streams = j.value("streams", 1);
      if (!parse_order(j.value("order", std::string("depth-first")), &e.choice.order)) {
        *error = where + ": unknown order \"" + j.value("order", std::string()) + "\"";
        return false;
      }
      const bool streamed =
          e.choice.variant == Variant::Streams || e.choice.variant == Variant::Hybrid;
      if (streamed && e.choice.streams < 1) {
        *error = where + ": " + model::to_string(e.choice.variant) + " needs streams >= 1";
        return false;
      }
      if (!streamed)
        e.choice.streams = 1;
      e.median_seconds = j.value("median_s", 0.0);
      e.speedup_over_explicit = j.value("speedup_over_explicit", 0.0);
      e.date = j.value("date", std::string());
      e.report = j.value("report", std::string());
      if (out.find(e.kernel, e.device)) {
        *error = where + ": a second entry for kernel \"" + e.kernel + "\" on \"" + e.device + "\"";
        return false;
      }
      out.entries.push_back(std::move(e));
    } catch (const std::exception& e) {
      *error = where + ": " + e.what();
      return false;
    }
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
