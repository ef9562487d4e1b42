// Runs the measurements of a CalibrationPlan on one GPU and records every repeat
// (CalibrationMeasurements); ProfileEstimator.h turns them into a profile.
#pragma once

#include "CalibrationMeasurements.h"
#include "CalibrationPlan.h"
#include "LinkBench.h"

#include "overlap/Device.h"
#include "overlap/Status.h"

#include <functional>
#include <string>

namespace overlap::calibration {

// Called with one line per step as the measurement proceeds.
using Progress = std::function<void(const std::string& line)>;

// Today's date in UTC, "YYYY-MM-DD".
std::string todayUtc();

DeviceIdentity identityOf(const DeviceDescription& device, const std::string& date);

// Buffers and streams enough for `plan` and, when given, `accuracy` too.
LinkBenchLimits limitsFor(const CalibrationPlan& plan, const AccuracyPlan* accuracy);

// Measures on the bench's device. Each point is measured plan.warmup + plan.repeats times in
// passes over all its points, so a slow drift shows up as spread instead of as a bent line.
Status measureLink(LinkBench& bench, const CalibrationPlan& plan, const Progress& progress,
                   CalibrationMeasurements* measurements);

} // namespace overlap::calibration
