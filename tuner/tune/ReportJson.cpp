#include "tune/ReportJson.h"

#include "tune/JsonFields.h"
#include "tune/SeriesShape.h"

#include <nlohmann/json.hpp>

namespace overlap::tune {
namespace {

using nlohmann::json;

const char* kSchema = "overlap-tuning-report";

json optionalNumber(const std::optional<double>& value) {
  return value ? json(*value) : json(nullptr);
}

json timingJson(const CandidateOutcome& c) {
  if (c.timing.count == 0)
    return nullptr;
  json timing = {{"repeats", c.timing.count}, {"median_s", c.timing.median},
                 {"min_s", c.timing.min},     {"max_s", c.timing.max},
                 {"q1_s", c.timing.q1},       {"q3_s", c.timing.q3},
                 {"mad_s", c.timing.mad},     {"samples_s", c.samples}};
  if (!c.screeningSamples.empty())
    timing["screening_s"] = c.screeningSamples;
  return timing;
}

// For people and other tools: derived from the samples, so the reader does not read it back.
json seriesJson(const SeriesShape& shape) {
  return {{"shape", to_string(shape.kind)},
          {"first_s", shape.firstSeconds},
          {"second_s", shape.secondSeconds}};
}

} // namespace

std::string toJsonText(const TuningRun& run) {
  json arguments = json::object();
  for (const auto& [name, value] : run.arguments)
    arguments[name] = value;
  json candidates = json::array();
  for (std::size_t i = 0; i < run.candidates.size(); ++i) {
    const CandidateOutcome& c = run.candidates[i];
    json entry = candidateJson(c.candidate);
    entry["name"] = model::describe(c.candidate);
    entry["predicted_s"] = optionalNumber(c.predictedSeconds);
    entry["predicted_is_lower_bound"] = c.predictedIsLowerBound;
    entry["kept_by_model"] = c.keptByModel;
    entry["run"] = c.run;
    entry["run_reason"] = c.runReason;
    entry["verification"] = to_string(c.verification);
    entry["error"] = c.error;
    entry["timing"] = timingJson(c);
    if (c.timing.count > 0)
      entry["series"] = seriesJson(seriesShape(c, run.noise));
    entry["speedup_over_explicit"] = optionalNumber(run.speedup(i));
    candidates.push_back(entry);
  }
  json within = json::array();
  for (std::size_t i : run.withinNoise)
    within.push_back(i);
  const json document = {
      {"schema", kSchema},
      {"schema_version", kReportSchemaVersion},
      {"tuner_version", kTunerVersion},
      {"kernel",
       {{"name", run.kernel}, {"source_file", run.sourceFile}, {"source_line", run.sourceLine}}},
      {"arguments", arguments},
      {"device", run.device},
      {"profile", {{"name", run.profileName}, {"origin", run.profileOrigin}}},
      {"model", run.modelName},
      {"date", run.date},
      {"settings",
       {{"exhaustive", run.exhaustive},
        {"memory", to_string(run.memory)},
        {"pinned_inputs", run.memory != CallMemory::Pageable},
        {"model_only", run.modelOnly},
        {"tolerance", run.tolerance},
        {"noise", run.noise}}},
      {"kernel_seconds", {{"value_s", run.kernelSeconds}, {"source", run.kernelSecondsSource}}},
      {"notes", run.notes},
      {"candidates", candidates},
      {"candidates_total", run.candidates.size()},
      {"candidates_run", run.runCount()},
      {"winner", run.winner ? json(*run.winner) : json(nullptr)},
      {"winner_name",
       run.winner ? json(model::describe(run.candidates[*run.winner].candidate)) : json(nullptr)},
      {"within_noise", within},
      {"winner_reason", run.winnerReason},
      {"wall_s", run.wallSeconds},
      {"complete", run.complete},
      {"from_cache", run.fromCache}};
  return document.dump(2) + "\n";
}

bool fromJsonText(const std::string& text, TuningRun* run, std::string* error) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception& e) {
    *error = std::string("not JSON (truncated or corrupt): ") + e.what();
    return false;
  }
  try {
    if (!j.is_object() || optionalValue<std::string>(j, "", "schema", "") != kSchema) {
      *error =
          std::string("not an overlap tuning report (expected \"schema\": \"") + kSchema + "\")";
      return false;
    }
    const int version = requiredValue<int>(j, "", "schema_version");
    if (version != kReportSchemaVersion) {
      *error = "tuning report schema version " + std::to_string(version) +
               ", this tuner reads version " + std::to_string(kReportSchemaVersion);
      return false;
    }
    TuningRun out;
    const json& kernel = requiredField(j, "", "kernel");
    out.kernel = requiredValue<std::string>(kernel, "kernel", "name");
    out.sourceFile = requiredValue<std::string>(kernel, "kernel", "source_file");
    out.sourceLine = requiredValue<int>(kernel, "kernel", "source_line");
    const json& arguments = requiredField(j, "", "arguments");
    if (!arguments.is_object())
      throw JsonFieldError("arguments",
                           "expected an object, found " + std::string(arguments.type_name()));
    for (const auto& [name, value] : arguments.items())
      out.arguments.emplace_back(name, fieldValue<long long>(value, fieldPath("arguments", name)));
    out.device = requiredValue<std::string>(j, "", "device");
    const json& profile = requiredField(j, "", "profile");
    out.profileName = requiredValue<std::string>(profile, "profile", "name");
    out.profileOrigin = requiredValue<std::string>(profile, "profile", "origin");
    out.modelName = requiredValue<std::string>(j, "", "model");
    out.date = requiredValue<std::string>(j, "", "date");
    const json& settings = requiredField(j, "", "settings");
    out.exhaustive = requiredValue<bool>(settings, "settings", "exhaustive");
    // Reports older than "memory" name pinned or pageable memory by "pinned_inputs" alone.
    const bool pinnedInputs = requiredValue<bool>(settings, "settings", "pinned_inputs");
    const std::string memory = optionalValue<std::string>(
        settings, "settings", "memory",
        to_string(pinnedInputs ? CallMemory::Pinned : CallMemory::Pageable));
    if (!parseCallMemory(memory, &out.memory))
      throw JsonFieldError("settings.memory", "\"" + memory + "\" is not " + kCallMemoryNames);
    out.modelOnly = requiredValue<bool>(settings, "settings", "model_only");
    out.tolerance = requiredValue<double>(settings, "settings", "tolerance");
    out.noise = requiredValue<double>(settings, "settings", "noise");
    const json& kernelSeconds = requiredField(j, "", "kernel_seconds");
    out.kernelSeconds = requiredValue<double>(kernelSeconds, "kernel_seconds", "value_s");
    out.kernelSecondsSource = requiredValue<std::string>(kernelSeconds, "kernel_seconds", "source");
    out.notes = requiredValue<std::vector<std::string>>(j, "", "notes");
    const json& candidates = requiredField(j, "", "candidates");
    if (!candidates.is_array())
      throw JsonFieldError("candidates",
                           "expected an array, found " + std::string(candidates.type_name()));
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      const json& entry = candidates[i];
      const std::string path = elementPath("candidates", i);
      CandidateOutcome c;
      c.candidate = candidateFrom(entry, path);
      const json& predicted = requiredField(entry, path, "predicted_s");
      if (!predicted.is_null())
        c.predictedSeconds = fieldValue<double>(predicted, fieldPath(path, "predicted_s"));
      // Absent from reports written before it existed: those predictions were read as exact.
      c.predictedIsLowerBound = optionalValue<bool>(entry, path, "predicted_is_lower_bound", false);
      c.keptByModel = requiredValue<bool>(entry, path, "kept_by_model");
      c.run = requiredValue<bool>(entry, path, "run");
      c.runReason = optionalValue<std::string>(entry, path, "run_reason", "");
      const std::string verification = requiredValue<std::string>(entry, path, "verification");
      const std::optional<Verification> parsed = parseVerification(verification);
      if (!parsed)
        throw JsonFieldError(fieldPath(path, "verification"),
                             "unknown verification \"" + verification + "\"");
      c.verification = *parsed;
      c.error = requiredValue<std::string>(entry, path, "error");
      const json& timing = requiredField(entry, path, "timing");
      if (!timing.is_null()) {
        c.samples =
            requiredValue<std::vector<double>>(timing, fieldPath(path, "timing"), "samples_s");
        c.timing = summarize(c.samples);
        c.screeningSamples = optionalValue<std::vector<double>>(timing, fieldPath(path, "timing"),
                                                                "screening_s", {});
      }
      out.candidates.push_back(std::move(c));
    }
    const json& winner = requiredField(j, "", "winner");
    if (!winner.is_null())
      out.winner = fieldValue<std::size_t>(winner, "winner");
    if (out.winner && *out.winner >= out.candidates.size())
      throw JsonFieldError("winner", "index " + std::to_string(*out.winner) + " out of range (" +
                                         std::to_string(out.candidates.size()) + " candidates)");
    out.withinNoise = requiredValue<std::vector<std::size_t>>(j, "", "within_noise");
    out.winnerReason = requiredValue<std::string>(j, "", "winner_reason");
    out.wallSeconds = requiredValue<double>(j, "", "wall_s");
    out.complete = requiredValue<bool>(j, "", "complete");
    out.fromCache = requiredValue<bool>(j, "", "from_cache");
    *run = std::move(out);
    return true;
  } catch (const std::exception& e) {
    *error = std::string("malformed tuning report: ") + e.what();
    return false;
  }
}

} // namespace overlap::tune
