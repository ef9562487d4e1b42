// One strategy configuration against Explicit and a CPU reference, on fresh random data, for each
// of the hand-written bindings. Failures are reported with the configuration, the memory kind,
// the size and (through the caller's SCOPED_TRACE) the random seed.
#pragma once

#include "gpu_test_support.h"
#include "overlap/kernel_types.h"

namespace overlap::test {

struct StrategyCase;

void check_saxpy(const StrategyCase& c, HostMemory memory, long long n, Random& random);
void check_matmul(const StrategyCase& c, HostMemory memory, long long m, Random& random);
void check_column(const StrategyCase& c, HostMemory memory, long long levels, Random& random);

} // namespace overlap::test
