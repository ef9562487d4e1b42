// The IR of annotated kernels as JSON (overlap-gen --dump-ir): what the generator understood from
// an annotation, for users checking their sections and for tests.
#pragma once

#include "ir/KernelIR.h"

#include <nlohmann/json.hpp>

#include <vector>

namespace overlap::frontend {

// Expressions print as the user would write them (ir::toSource); parameters by name.
nlohmann::ordered_json kernelToJson(const ir::Kernel& kernel);
nlohmann::ordered_json kernelsToJson(const std::vector<ir::Kernel>& kernels);

} // namespace overlap::frontend
