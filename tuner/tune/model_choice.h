// The model's choice for the generated entry points (overlap/dispatch.h, step 3) when the tuning
// results hold nothing for the current device: the predicted best on a calibrated profile of this
// device model from the user's profile directories, else the first embedded profile. The kernel
// time is unknown at a call, so it is taken as 0 (transfers only), which favours the variants
// that hide transfers best.
#pragma once

#include "overlap/descriptor.h"

#include <string>

namespace overlap::tune {

bool choose_by_model(const KernelDescriptor& kernel, ArgPointers args,
                     const std::string& device_name, RunConfig* config, std::string* why);

} // namespace overlap::tune
