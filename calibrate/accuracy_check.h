// Measures the transfers of an AccuracyPlan and sets them against a profile's predictions.
#pragma once

#include "accuracy_table.h"
#include "calibration_plan.h"
#include "calibrator.h"
#include "link_bench.h"

#include "overlap/hardware_profile.h"
#include "overlap/status.h"

namespace overlap::calibration {

// Fills report->rows (device identity and profile name are the caller's). The bench must have
// room for plan.max_bytes() and plan.max_pieces().
Status check_accuracy(LinkBench& bench, const HardwareProfile& profile, const AccuracyPlan& plan,
                      const Progress& progress, AccuracyReport* report);

} // namespace overlap::calibration
