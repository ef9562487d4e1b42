// What the hand-written test bindings share with generated glue.
#pragma once

#include "overlap/launch.cuh"
#include "overlap/status.h"

#include <cuda_runtime_api.h>

namespace overlap::test {

// Launches report through overlap::launch_status (launch.cuh), as generated glue does, so that
// fault injection reaches them too.
using ::overlap::launch_status;

// What generated launch() does around the kernel launch: the chunk's configuration
// (binding.launch_config), nothing at all for a grid of no blocks, and the launch's status under
// its name. `launch` issues the kernel with the configuration.
template <class B, class Launch>
Status launch_chunk(const B& binding, long long lo, long long hi, const char* name, Launch launch) {
  LaunchConfig config;
  OVERLAP_TRY(binding.launch_config(lo, hi, &config));
  if (config.empty())
    return Status::success();
  launch(config);
  return launch_status(name);
}

} // namespace overlap::test
