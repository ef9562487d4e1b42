// What the hand-written test bindings share with generated glue.
#pragma once

#include "overlap/launch.cuh"
#include "overlap/status.h"

#include <cuda_runtime_api.h>

namespace overlap::test {

// Launches report through overlap::launch_status (launch.cuh), as generated glue does, so that
// fault injection reaches them too.
using ::overlap::launch_status;

} // namespace overlap::test
