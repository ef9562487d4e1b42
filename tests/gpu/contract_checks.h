// One strategy configuration against Explicit and a CPU reference, on fresh random data, for each
// of the bindings of contract_bindings.h. Failures are reported with the configuration, the
// memory kind, the size and (through the caller's SCOPED_TRACE) the random seed.
#pragma once

#include "gpu_test_support.h"

namespace overlap::test {

struct StrategyCase;

// Inner rows [1, rows + 1) of a (rows + 2) x 67 grid.
void check_stencil(const StrategyCase& c, HostMemory memory, long long rows, Random& random);
void check_float4_loads(const StrategyCase& c, HostMemory memory, long long n, Random& random);
void check_half2_loads(const StrategyCase& c, HostMemory memory, long long n, Random& random);
void check_reductions(const StrategyCase& c, HostMemory memory, long long n, Random& random);
// Once with the optional output passed null, once passed.
void check_optional_output(const StrategyCase& c, HostMemory memory, long long n, Random& random);
// Also counts the launches: none for a chunk shorter than a tile.
void check_tiles(const StrategyCase& c, HostMemory memory, long long n, Random& random);

} // namespace overlap::test
