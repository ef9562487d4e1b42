// One strategy configuration against Explicit and a CPU reference, on fresh random data, for each
// of the hand-written bindings. Failures are reported with the configuration, the memory kind,
// the size and (through the caller's SCOPED_TRACE) the random seed.
#pragma once

#include "GpuTestSupport.h"
#include "overlap/KernelTypes.h"

namespace overlap::test {

struct StrategyCase;

void checkSaxpy(const StrategyCase& c, HostMemory memory, long long n, Random& random);
void checkMatmul(const StrategyCase& c, HostMemory memory, long long m, Random& random);
void checkColumn(const StrategyCase& c, HostMemory memory, long long levels, Random& random);
// One small case per variant of each of the three kernels, on pageable and pinned memory: quick
// enough to run under compute-sanitizer.
void checkEveryVariantSmall(Random& random);

} // namespace overlap::test
