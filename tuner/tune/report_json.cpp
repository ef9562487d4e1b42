#include "tune/report_json.h"

#include <nlohmann/json.hpp>

namespace overlap::tune {
namespace {

using nlohmann::json;

const char* kSchema = "overlap-tuning-report";

json candidate_json(const model::Candidate& c) {
  return {{"variant", model::to_string(c.variant)},
          {"streams", c.streams},
          {"order", model::to_string(c.order)}};
}

model::Candidate candidate_from(const json& j) {
  model::Candidate c;
  const std::string variant = j.at("variant").get<std::string>();
  for (Variant v : {Variant::Explicit, Variant::Mapped, Variant::Streams, Variant::Hybrid})
    if (variant == model::to_string(v))
      c.variant = v;
  if (variant != model::to_string(c.variant))
    throw std::invalid_argument("unknown variant \"" + variant + "\"");
  c.streams = j.at("streams").get<int>();
  c.order = j.at("order").get<std::string>() == model::to_string(IssueOrder::BreadthFirst)
                ? IssueOrder::BreadthFirst
                : IssueOrder::DepthFirst;
  return c;
}

json optional_number(const std::optional<double>& value) {
  return value ? json(*value) : json(nullptr);
}

json timing_json(const CandidateOutcome& c) {
  if (c.timing.count == 0)
    return nullptr;
  return {{"repeats", c.timing.count}, {"median_s", c.timing.median}, {"min_s", c.timing.min},
          {"max_s", c.timing.max},     {"q1_s", c.timing.q1},         {"q3_s", c.timing.q3},
          {"mad_s", c.timing.mad},     {"samples_s", c.samples}};
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
    entry["kept_by_model"] = c.kept_by_model;
    entry["run"] = c.run;
    entry["verification"] = to_string(c.verification);
    entry["error"] = c.error;
    entry["timing"] = timing_json(c);
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
  try {
    const json j = json::parse(text);
    if (j.value("schema", "") != kSchema) {
      *error = "not an overlap tuning report (schema \"" + j.value("schema", "") + "\")";
      return false;
    }
    if (j.value("schema_version", 0) != kReportSchemaVersion) {
      *error = "tuning report schema version " + std::to_string(j.value("schema_version", 0)) +
               ", this tuner reads version " + std::to_string(kReportSchemaVersion);
      return false;
    }
    TuningRun out;
    out.kernel = j.at("kernel").at("name").get<std::string>();
    out.source_file = j.at("kernel").at("source_file").get<std::string>();
    out.source_line = j.at("kernel").at("source_line").get<int>();
    for (const auto& [name, value] : j.at("arguments").items())
      out.arguments.emplace_back(name, value.get<long long>());
    out.device = j.at("device").get<std::string>();
    out.profile_name = j.at("profile").at("name").get<std::string>();
    out.profile_origin = j.at("profile").at("origin").get<std::string>();
    out.model_name = j.at("model").get<std::string>();
    out.date = j.at("date").get<std::string>();
    const json& settings = j.at("settings");
    out.exhaustive = settings.at("exhaustive").get<bool>();
    out.pinned_inputs = settings.at("pinned_inputs").get<bool>();
    out.model_only = settings.at("model_only").get<bool>();
    out.tolerance = settings.at("tolerance").get<double>();
    out.noise = settings.at("noise").get<double>();
    out.kernel_seconds = j.at("kernel_seconds").at("value_s").get<double>();
    out.kernel_seconds_source = j.at("kernel_seconds").at("source").get<std::string>();
    out.notes = j.at("notes").get<std::vector<std::string>>();
    for (const json& entry : j.at("candidates")) {
      CandidateOutcome c;
      c.candidate = candidate_from(entry);
      if (!entry.at("predicted_s").is_null())
        c.predicted_seconds = entry.at("predicted_s").get<double>();
      c.kept_by_model = entry.at("kept_by_model").get<bool>();
      c.run = entry.at("run").get<bool>();
      const std::optional<Verification> verification =
          parse_verification(entry.at("verification").get<std::string>());
      if (!verification)
        throw std::invalid_argument("unknown verification \"" +
                                    entry.at("verification").get<std::string>() + "\"");
      c.verification = *verification;
      c.error = entry.at("error").get<std::string>();
      if (!entry.at("timing").is_null()) {
        c.samples = entry.at("timing").at("samples_s").get<std::vector<double>>();
        c.timing = summarize(c.samples);
      }
      out.candidates.push_back(std::move(c));
    }
    if (!j.at("winner").is_null())
      out.winner = j.at("winner").get<std::size_t>();
    if (out.winner && *out.winner >= out.candidates.size())
      throw std::out_of_range("winner index out of range");
    out.within_noise = j.at("within_noise").get<std::vector<std::size_t>>();
    out.winner_reason = j.at("winner_reason").get<std::string>();
    out.wall_seconds = j.at("wall_s").get<double>();
    out.complete = j.at("complete").get<bool>();
    out.from_cache = j.at("from_cache").get<bool>();
    *run = std::move(out);
    return true;
  } catch (const std::exception& e) {
    *error = std::string("malformed tuning report: ") + e.what();
    return false;
  }
}

} // namespace overlap::tune
