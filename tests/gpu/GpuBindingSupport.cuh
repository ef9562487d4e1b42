// What the hand-written test bindings share with generated glue.
#pragma once

#include "overlap/Launch.cuh"
#include "overlap/Status.h"

#include <cuda_runtime_api.h>

namespace overlap::test {

// Launches report through overlap::launchStatus (Launch.cuh), as generated glue does, so that
// fault injection reaches them too.
using ::overlap::launchStatus;

// What generated launch() does around the kernel launch: the chunk's configuration
// (binding.launchConfig), nothing at all for a grid of no blocks, and the launch's status under
// its name. `launch` issues the kernel with the configuration.
template <class B, class Launch>
Status launchChunk(const B& binding, long long lo, long long hi, const char* name, Launch launch) {
  LaunchConfig config;
  OVERLAP_TRY(binding.launchConfig(lo, hi, &config));
  if (config.empty())
    return Status::success();
  launch(config);
  return launchStatus(name);
}

} // namespace overlap::test
