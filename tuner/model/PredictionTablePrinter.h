// Prints a prediction for people: what was assumed, the table of every candidate with its
// predicted time and whether the tuner would run it, the predicted optimum, and the papers'
// stream-count estimates beside it.
#pragma once

#include "model/CandidateSet.h"
#include "model/StreamCountEstimates.h"
#include "overlap/ByteSize.h"

#include <ostream>
#include <string>
#include <vector>

namespace overlap::model {

struct PredictionReport {
  std::string modelName;
  std::string profileOrigin; // where the profile came from, e.g. "<built-in h100-pcie5>"
  const HardwareProfile* profile = nullptr;
  const Workload* workload = nullptr;
  const Prediction* prediction = nullptr;
  std::vector<StreamCountEstimate> estimates;
};

void printPredictionReport(std::ostream& out, const PredictionReport& report);

// Sizes in tables: the runtime's "512.0 MiB", "1.5 GiB".
using overlap::formatBytes;
// The device category of paper 001 §IV, with Hyper-Q: "3 copy engines, no implicit
// synchronization, Hyper-Q".
std::string describeCategory(const HardwareProfile& profile);

} // namespace overlap::model
