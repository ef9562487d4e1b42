// Measures the transfers of an AccuracyPlan and sets them against a profile's predictions.
#pragma once

#include "AccuracyTable.h"
#include "CalibrationPlan.h"
#include "Calibrator.h"
#include "LinkBench.h"

#include "overlap/HardwareProfile.h"
#include "overlap/Status.h"

namespace overlap::calibration {

// Fills report->rows (device identity and profile name are the caller's). The bench must have
// room for plan.maxBytes() and plan.maxPieces().
Status checkAccuracy(LinkBench& bench, const HardwareProfile& profile, const AccuracyPlan& plan,
                     const Progress& progress, AccuracyReport* report);

} // namespace overlap::calibration
