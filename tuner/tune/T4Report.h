// The tuning in the autotuning community's T4 format (the TuningSchema "Open Autotuning Results"
// and "Metadata" schemas, version 1.0.0, which Kernel Tuner writes and reads), so that tools that
// read T4 load Overlap's tunings: one result per candidate that ran, with its configuration
// (variant, streams, order), its timed repeats, whether it was valid, and its median as the
// objective. The project's own report (ReportJson.h) stays the one this project reads back.
#pragma once

#include "tune/TuningRun.h"

#include <string>

namespace overlap::tune {

inline constexpr const char* kT4SchemaVersion = "1.0.0";

// `results[]`: the candidates that ran, in the enumeration order. Times in milliseconds.
std::string toT4ResultsText(const TuningRun& run);
// `metadata`: the device, the hardware profile, the model and the tuner that produced them.
std::string toT4MetadataText(const TuningRun& run);

// T4's invalidity of a candidate that ran: "correct", "correctness" (a wrong result), "timeout"
// (stopped by the supervisor), "runtime" (any other failure).
const char* t4Invalidity(const CandidateOutcome& outcome);

} // namespace overlap::tune
