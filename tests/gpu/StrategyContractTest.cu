// The contract's newer features (issue 18) in every variant: Explicit, Mapped, and Streams and
// Hybrid with 1, 2, 3, 4, 7 and 16 streams in both issue orders, on pinned and pageable user
// memory, at n = 1, n below the stream count, a prime n and a few thousand. Each result must
// equal Explicit's and the CPU's (bit for bit, except float sums, within their rounding).
#include "ContractChecks.h"
#include "GpuTestSupport.h"
#include "StrategyCases.cuh"

#include <gtest/gtest.h>

#include <string>
#include <tuple>

namespace overlap::test {
namespace {

using ContractParam = std::tuple<StrategyCase, HostMemory>;

class StrategyContract : public ::testing::TestWithParam<ContractParam> {
protected:
  // Runs `check` at every extent of the case, stopping at the first failure.
  template <class Check> void atEveryExtent(Check check) {
    const auto& [strategy, memory] = GetParam();
    Random random;
    SCOPED_TRACE(random.trace());
    for (long long n : partitionExtents(strategy, 3000)) {
      check(strategy, memory, n, random);
      if (HasFailure())
        return;
    }
  }
};

TEST_P(StrategyContract, StencilOverInnerRowsFromAnOrigin) {
  OVERLAP_SKIP_WITHOUT_GPU();
  atEveryExtent(checkStencil);
}

TEST_P(StrategyContract, Float4LoadsFromChunksAlignedByTheGranule) {
  OVERLAP_SKIP_WITHOUT_GPU();
  atEveryExtent(checkFloat4Loads);
}

TEST_P(StrategyContract, Half2LoadsFromChunksAlignedByTheGranule) {
  OVERLAP_SKIP_WITHOUT_GPU();
  atEveryExtent(checkHalf2Loads);
}

TEST_P(StrategyContract, ReductionsIntoOneFloatAndAHistogram) {
  OVERLAP_SKIP_WITHOUT_GPU();
  atEveryExtent(checkReductions);
}

TEST_P(StrategyContract, OptionalOutputPassedNullAndNot) {
  OVERLAP_SKIP_WITHOUT_GPU();
  atEveryExtent(checkOptionalOutput);
}

TEST_P(StrategyContract, ChunksShorterThanATileLaunchNothing) {
  OVERLAP_SKIP_WITHOUT_GPU();
  atEveryExtent(checkTiles);
}

std::string paramName(const ::testing::TestParamInfo<ContractParam>& info) {
  return nameOf(std::get<0>(info.param)) + "_" + to_string(std::get<1>(info.param));
}

INSTANTIATE_TEST_SUITE_P(AllStrategies, StrategyContract,
                         ::testing::Combine(::testing::ValuesIn(strategyCases({1, 2, 3, 4, 7, 16})),
                                            ::testing::Values(HostMemory::Pageable,
                                                              HostMemory::Pinned)),
                         paramName);

// One small case per variant and binding: quick enough to run under compute-sanitizer.
TEST(StrategyContractSmoke, EveryVariantSmall) {
  OVERLAP_SKIP_WITHOUT_GPU();
  Random random;
  SCOPED_TRACE(random.trace());
  for (const StrategyCase& strategy : oneCasePerVariant())
    for (HostMemory memory : {HostMemory::Pageable, HostMemory::Pinned}) {
      checkStencil(strategy, memory, 13, random);
      checkFloat4Loads(strategy, memory, 1009, random);
      checkHalf2Loads(strategy, memory, 1009, random);
      checkReductions(strategy, memory, 1009, random);
      checkOptionalOutput(strategy, memory, 1009, random);
      checkTiles(strategy, memory, 1009, random);
    }
}

} // namespace
} // namespace overlap::test
