#include "tune/T4Report.h"

#include "tune/JsonFields.h"

#include <nlohmann/json.hpp>

namespace overlap::tune {
namespace {

using nlohmann::json;

json milliseconds(const std::vector<double>& seconds) {
  json values = json::array();
  for (double s : seconds)
    values.push_back(s * 1e3);
  return values;
}

} // namespace

const char* t4Invalidity(const CandidateOutcome& outcome) {
  switch (outcome.verification) {
  case Verification::Reference:
  case Verification::Passed:
    return "correct";
  case Verification::WrongResult:
    return "correctness";
  case Verification::NotRun:
  case Verification::Failed:
    break;
  }
  return outcome.error.rfind(kStoppedAtTimeBound, 0) == 0 ? "timeout" : "runtime";
}

std::string toT4ResultsText(const TuningRun& run) {
  json results = json::array();
  for (const CandidateOutcome& c : run.candidates) {
    if (!c.run)
      continue;
    const bool valid = c.usable();
    json times = {{"runtimes", milliseconds(c.samples)}};
    json measurements = json::array();
    if (valid)
      measurements.push_back({{"name", "time"}, {"value", c.timing.median * 1e3}, {"unit", "ms"}});
    results.push_back({
        {"timestamp", run.date},
        {"configuration", candidateJson(c.candidate)},
        {"objectives", json::array({"time"})},
        {"times", times},
        {"invalidity", t4Invalidity(c)},
        {"correctness", c.verification == Verification::WrongResult ? 0 : 1},
        {"measurements", measurements},
    });
  }
  return json{{"schema_version", kT4SchemaVersion}, {"results", results}}.dump(2) + "\n";
}

std::string toT4MetadataText(const TuningRun& run) {
  json arguments = json::object();
  for (const auto& [name, value] : run.arguments)
    arguments[name] = value;
  const json metadata = {
      {"environment",
       {{"device_query", {{"name", run.device}}},
        {"requirements", json::array({std::string("overlap-tuner ") + kTunerVersion})}}},
      {"overlap",
       {{"kernel", run.kernel},
        {"source_file", run.sourceFile},
        {"arguments", arguments},
        {"profile", run.profileName},
        {"model", run.modelName},
        {"pinned_inputs", run.memory != CallMemory::Pageable},
        {"memory", to_string(run.memory)},
        {"exhaustive", run.exhaustive}}}};
  return json{{"schema_version", kT4SchemaVersion}, {"metadata", metadata}}.dump(2) + "\n";
}

} // namespace overlap::tune
