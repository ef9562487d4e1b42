// One strategy configuration against Explicit and a CPU reference, on fresh random data, for each
// of the bindings of ContractBindings.h. Failures are reported with the configuration, the
// memory kind, the size and (through the caller's SCOPED_TRACE) the random seed.
#pragma once

#include "GpuTestSupport.h"

namespace overlap::test {

struct StrategyCase;

// Inner rows [1, rows + 1) of a (rows + 2) x 67 grid.
void checkStencil(const StrategyCase& c, HostMemory memory, long long rows, Random& random);
void checkFloat4Loads(const StrategyCase& c, HostMemory memory, long long n, Random& random);
void checkHalf2Loads(const StrategyCase& c, HostMemory memory, long long n, Random& random);
void checkReductions(const StrategyCase& c, HostMemory memory, long long n, Random& random);
// Once with the optional output passed null, once passed.
void checkOptionalOutput(const StrategyCase& c, HostMemory memory, long long n, Random& random);
// Also counts the launches: none for a chunk shorter than a tile.
void checkTiles(const StrategyCase& c, HostMemory memory, long long n, Random& random);

} // namespace overlap::test
