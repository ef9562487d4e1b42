#include "tune/report_json.h"

#include "tune/json_fields.h"
#include "tune/series_shape.h"

#include <nlohmann/json.hpp>

namespace overlap::tune {
namespace {

using nlohmann::json;

const char* kSchema = "overlap-tuning-report";

json optional_number(const std::optional<double>& value) {
  return value ? json(*value) : json(nullptr);
}

json timing_json(const CandidateOutcome& c) {
  if (c.timing.count == 0)
    return nullptr;
  json timing = {{"repeats", c.timing.count}, {"median_s", c.timing.median},
                 {"min_s", c.timing.min},     {"max_s", c.timing.max},
                 {"q1_s", c.timing.q1},       {"q3_s", c.timing.q3},
                 {"mad_s", c.timing.mad},     {"samples_s", c.samples}};
  if (!c.screening_samples.empty())
    timing["screening_s"] = c.screening_samples;
  return timing;
}

// For people and other tools: derived from the samples, so the reader does not read it back.
json series_json(const SeriesShape& shape) {
  return {{"shape", to_string(shape.kind)},
          {"first_s", shape.first_seconds},
          {"second_s", shape.second_seconds}};
}

} // namespace

std::string to_json_text(const TuningRun& run) {
  json arguments = json::object();
  for (const auto& [name, value] : run.arguments)
    arguments[name] = value;
  json candidates = json::array();
  for (std::size_t i = 0; i < run.candidates.size(); ++i) {
    const CandidateOutcome& c = run.candidates[i];
    json entry = candidate_json(c.candidate);
    entry["name"] = model::describe(c.candidate);
    entry["predicted_s"] = optional_number(c.predicted_seconds);
    entry["predicted_is_lower_bound"] = c.predicted_is_lower_bound;
    entry["kept_by_model"] = c.kept_by_model;
    entry["run"] = c.run;
    entry["run_reason"] = c.run_reason;
    entry["verification"] = to_string(c.verification);
    entry["error"] = c.error;
    entry["timing"] = timing_json(c);
    if (c.timing.count > 0)
      entry["series"] = series_json(series_shape(c, run.noise));
    entry["speedup_over_explicit"] = optional_number(run.speedup(i));
    candidates.push_back(entry);
  }
  json within = json::array();
  for (std::size_t i : run.within_noise)
    within.push_back(i);
  const json document = {
      {"schema", kSchema},
      {"schema_version", kReportSchemaVersion},
      {"tuner_version", kTunerVersion},
      {"kernel",
       {{"name", run.kernel}, {"source_file", run.source_file}, {"source_line", run.source_line}}},
      {"arguments", arguments},
      {"device", run.device},
      {"profile", {{"name", run.profile_name}, {"origin", run.profile_origin}}},
      {"model", run.model_name},
      {"date", run.date},
      {"settings",
       {{"exhaustive", run.exhaustive},
        {"pinned_inputs", run.pinned_inputs},
        {"model_only", run.model_only},
        {"tolerance", run.tolerance},
        {"noise", run.noise}}},
      {"kernel_seconds", {{"value_s", run.kernel_seconds}, {"source", run.kernel_seconds_source}}},
      {"notes", run.notes},
      {"candidates", candidates},
      {"candidates_total", run.candidates.size()},
      {"candidates_run", run.run_count()},
      {"winner", run.winner ? json(*run.winner) : json(nullptr)},
      {"winner_name",
       run.winner ? json(model::describe(run.candidates[*run.winner].candidate)) : json(nullptr)},
      {"within_noise", within},
      {"winner_reason", run.winner_reason},
      {"wall_s", run.wall_seconds},
      {"complete", run.complete},
      {"from_cache", run.from_cache}};
  return document.dump(2) + "\n";
}

bool from_json_text(const std::string& text, TuningRun* run, std::string* error) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception& e) {
    *error = std::string("not JSON (truncated or corrupt): ") + e.what();
    return false;
  }
  try {
    if (!j.is_object() || optional_value<std::string>(j, "", "schema", "") != kSchema) {
      *error =
          std::string("not an overlap tuning report (expected \"schema\": \"") + kSchema + "\")";
      return false;
    }
    const int version = required_value<int>(j, "", "schema_version");
    if (version != kReportSchemaVersion) {
      *error = "tuning report schema version " + std::to_string(version) +
               ", this tuner reads version " + std::to_string(kReportSchemaVersion);
      return false;
    }
    TuningRun out;
    const json& kernel = required_field(j, "", "kernel");
    out.kernel = required_value<std::string>(kernel, "kernel", "name");
    out.source_file = required_value<std::string>(kernel, "kernel", "source_file");
    out.source_line = required_value<int>(kernel, "kernel", "source_line");
    const json& arguments = required_field(j, "", "arguments");
    if (!arguments.is_object())
      throw JsonFieldError("arguments",
                           "expected an object, found " + std::string(arguments.type_name()));
    for (const auto& [name, value] : arguments.items())
      out.arguments.emplace_back(name,
                                 field_value<long long>(value, field_path("arguments", name)));
    out.device = required_value<std::string>(j, "", "device");
    const json& profile = required_field(j, "", "profile");
    out.profile_name = required_value<std::string>(profile, "profile", "name");
    out.profile_origin = required_value<std::string>(profile, "profile", "origin");
    out.model_name = required_value<std::string>(j, "", "model");
    out.date = required_value<std::string>(j, "", "date");
    const json& settings = required_field(j, "", "settings");
    out.exhaustive = required_value<bool>(settings, "settings", "exhaustive");
    out.pinned_inputs = required_value<bool>(settings, "settings", "pinned_inputs");
    out.model_only = required_value<bool>(settings, "settings", "model_only");
    out.tolerance = required_value<double>(settings, "settings", "tolerance");
    out.noise = required_value<double>(settings, "settings", "noise");
    const json& kernel_seconds = required_field(j, "", "kernel_seconds");
    out.kernel_seconds = required_value<double>(kernel_seconds, "kernel_seconds", "value_s");
    out.kernel_seconds_source =
        required_value<std::string>(kernel_seconds, "kernel_seconds", "source");
    out.notes = required_value<std::vector<std::string>>(j, "", "notes");
    const json& candidates = required_field(j, "", "candidates");
    if (!candidates.is_array())
      throw JsonFieldError("candidates",
                           "expected an array, found " + std::string(candidates.type_name()));
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      const json& entry = candidates[i];
      const std::string path = element_path("candidates", i);
      CandidateOutcome c;
      c.candidate = candidate_from(entry, path);
      const json& predicted = required_field(entry, path, "predicted_s");
      if (!predicted.is_null())
        c.predicted_seconds = field_value<double>(predicted, field_path(path, "predicted_s"));
      // Absent from reports written before it existed: those predictions were read as exact.
      c.predicted_is_lower_bound =
          optional_value<bool>(entry, path, "predicted_is_lower_bound", false);
      c.kept_by_model = required_value<bool>(entry, path, "kept_by_model");
      c.run = required_value<bool>(entry, path, "run");
      c.run_reason = optional_value<std::string>(entry, path, "run_reason", "");
      const std::string verification = required_value<std::string>(entry, path, "verification");
      const std::optional<Verification> parsed = parse_verification(verification);
      if (!parsed)
        throw JsonFieldError(field_path(path, "verification"),
                             "unknown verification \"" + verification + "\"");
      c.verification = *parsed;
      c.error = required_value<std::string>(entry, path, "error");
      const json& timing = required_field(entry, path, "timing");
      if (!timing.is_null()) {
        c.samples =
            required_value<std::vector<double>>(timing, field_path(path, "timing"), "samples_s");
        c.timing = summarize(c.samples);
        c.screening_samples = optional_value<std::vector<double>>(
            timing, field_path(path, "timing"), "screening_s", {});
      }
      out.candidates.push_back(std::move(c));
    }
    const json& winner = required_field(j, "", "winner");
    if (!winner.is_null())
      out.winner = field_value<std::size_t>(winner, "winner");
    if (out.winner && *out.winner >= out.candidates.size())
      throw JsonFieldError("winner", "index " + std::to_string(*out.winner) + " out of range (" +
                                         std::to_string(out.candidates.size()) + " candidates)");
    out.within_noise = required_value<std::vector<std::size_t>>(j, "", "within_noise");
    out.winner_reason = required_value<std::string>(j, "", "winner_reason");
    out.wall_seconds = required_value<double>(j, "", "wall_s");
    out.complete = required_value<bool>(j, "", "complete");
    out.from_cache = required_value<bool>(j, "", "from_cache");
    *run = std::move(out);
    return true;
  } catch (const std::exception& e) {
    *error = std::string("malformed tuning report: ") + e.what();
    return false;
  }
}

} // namespace overlap::tune
