// The JSON form of a tuning (schema "overlap-tuning-report", documented in docs/tuner.md): what
// the reports, the cache and other tools read. Reading accepts only the schema version it writes.
#pragma once

#include "tune/tuning_run.h"

#include <string>

namespace overlap::tune {

inline constexpr int kReportSchemaVersion = 1;

std::string to_json_text(const TuningRun& run);
// False with `error` set when the text is not a tuning report of this schema version.
bool from_json_text(const std::string& text, TuningRun* run, std::string* error);

} // namespace overlap::tune
