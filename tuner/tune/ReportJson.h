// The JSON form of a tuning (schema "overlap-tuning-report", documented in docs/tuner.md): what
// the reports, the cache and other tools read. Reading accepts only the schema version it writes.
#pragma once

#include "tune/TuningRun.h"

#include <string>

namespace overlap::tune {

inline constexpr int kReportSchemaVersion = 1;

std::string toJsonText(const TuningRun& run);
// False with `error` set when the text is not a tuning report of this schema version.
bool fromJsonText(const std::string& text, TuningRun* run, std::string* error);

} // namespace overlap::tune
