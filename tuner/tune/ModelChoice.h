// The model's part in the generated entry points (overlap/Dispatch.h): the predicted best when the
// tuning results hold nothing for the current device (step 3), and the predictions that choose
// between and beyond the tuned sizes (overlap/TunedSizes.h). Both use a calibrated profile of this
// device model from the user's profile directories, else the first embedded profile. Without
// tuning results the kernel time is unknown at a call, so it is taken as 0 (transfers only), which
// favours the variants that hide transfers best; between tuned sizes it comes from the tunings.
#pragma once

#include "overlap/CallMemory.h"
#include "overlap/Descriptor.h"

#include <optional>
#include <string>

namespace overlap::tune {

bool chooseByModel(const KernelDescriptor& kernel, ArgPointers args, const std::string& deviceName,
                   RunConfig* config, std::string* why);

// overlap::ModelPredictor: the modern model's time of each configuration for this call.
bool predictByModel(const KernelDescriptor& kernel, ArgPointers args, const std::string& deviceName,
                    CallMemory memory, double kernelSeconds, const RunConfig* configs, int count,
                    std::optional<double>* seconds);

// Sets both as the dispatch's model; true. The source overlap-bake writes calls it when the
// program links overlap_tuner_dispatch.
bool installModelDispatch();

} // namespace overlap::tune
