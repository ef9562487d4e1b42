// Runs the measurements of a CalibrationPlan on one GPU and records every repeat
// (CalibrationMeasurements; ProfileEstimator.h turns them into a profile), and the transfers of
// an AccuracyPlan set against a profile's predictions (AccuracyTable.h).
#pragma once

#include "AccuracyTable.h"
#include "CalibrationPlan.h"
#include "LinkBench.h"
#include "ProfileEstimator.h"

#include "overlap/Device.h"
#include "overlap/HardwareProfile.h"
#include "overlap/Status.h"

#include <functional>
#include <string>

namespace overlap::calibration {

// Called with one line per step as the measurement proceeds.
using Progress = std::function<void(const std::string& line)>;

// The profile's device fields (name, link, driver, category, ...) from `device`, dated `date`.
void identify(const DeviceDescription& device, const std::string& date, HardwareProfile* profile);

// Buffers and streams enough for the calibration and/or the accuracy check of `plan`.
LinkBenchLimits limitsFor(const CalibrationPlan& plan, bool calibrate, bool checkAccuracy);

// Measures on the bench's device, each point plan.warmup + plan.repeats times in passes over all
// the points of a step, so a slow drift shows up as spread instead of as a bent line.
Status measureLink(LinkBench& bench, const CalibrationPlan& plan, const Progress& progress,
                   CalibrationMeasurements* measurements);

// Measures plan.accuracy and fills report->rows and notes (device identity and profile name are
// the caller's). The bench needs limitsFor(plan, ..., true).
Status checkAccuracy(LinkBench& bench, const HardwareProfile& profile, const CalibrationPlan& plan,
                     const Progress& progress, AccuracyReport* report);

} // namespace overlap::calibration
