// The papers' closed-form estimates of a good stream count for one call, as a second opinion
// beside the predicted table: paper 000's optimum, paper 001 §VI's bounds for the device
// category, paper 002's optimal subtask count. They assume what their papers assume (equal
// chunks, no fill penalty, their device categories), so they may disagree with the table.
#pragma once

#include "model/Workload.h"
#include "overlap/HardwareProfile.h"

#include <string>
#include <vector>

namespace overlap::model {

struct StreamCountEstimate {
  std::string source; // e.g. "paper 001 §VI: largest useful nStreams, 2 copy engines"
  double streams = 0; // may be infinite (an overhead of 0 makes more streams never worse)
};

std::vector<StreamCountEstimate> streamCountEstimates(const HardwareProfile& profile,
                                                      const Workload& workload);

} // namespace overlap::model
