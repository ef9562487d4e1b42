// Every variant of every hand-written binding, in every configuration, on pinned and pageable
// user memory: the result must equal Explicit's and the CPU's bit for bit.
#include "GpuTestSupport.h"
#include "StrategyCases.cuh"
#include "StrategyChecks.h"

#include <gtest/gtest.h>

#include <string>
#include <tuple>

namespace overlap::test {
namespace {

using ResultsParam = std::tuple<StrategyCase, HostMemory>;

class StrategyResults : public ::testing::TestWithParam<ResultsParam> {};

TEST_P(StrategyResults, SaxpyOffsetMode) {
  OVERLAP_SKIP_WITHOUT_GPU();
  const auto& [strategy, memory] = GetParam();
  Random random;
  SCOPED_TRACE(random.trace());
  for (long long n : partitionExtents(strategy, (1LL << 24) + 3)) {
    checkSaxpy(strategy, memory, n, random);
    if (HasFailure())
      return;
  }
}

TEST_P(StrategyResults, MatmulRowsWithBroadcastB) {
  OVERLAP_SKIP_WITHOUT_GPU();
  const auto& [strategy, memory] = GetParam();
  Random random;
  SCOPED_TRACE(random.trace());
  for (long long m : partitionExtents(strategy)) {
    checkMatmul(strategy, memory, m, random);
    if (HasFailure())
      return;
  }
}

TEST_P(StrategyResults, ColumnRangeModeWithHaloAndInOut) {
  OVERLAP_SKIP_WITHOUT_GPU();
  const auto& [strategy, memory] = GetParam();
  Random random;
  SCOPED_TRACE(random.trace());
  for (long long levels : partitionExtents(strategy)) {
    checkColumn(strategy, memory, levels, random);
    if (HasFailure())
      return;
  }
}

std::string paramName(const ::testing::TestParamInfo<ResultsParam>& info) {
  return nameOf(std::get<0>(info.param)) + "_" + to_string(std::get<1>(info.param));
}

INSTANTIATE_TEST_SUITE_P(AllStrategies, StrategyResults,
                         ::testing::Combine(::testing::ValuesIn(allStrategyCases()),
                                            ::testing::Values(HostMemory::Pageable,
                                                              HostMemory::Pinned)),
                         paramName);

TEST(StrategySmoke, EveryVariantSmall) {
  OVERLAP_SKIP_WITHOUT_GPU();
  Random random;
  SCOPED_TRACE(random.trace());
  checkEveryVariantSmall(random);
}

} // namespace
} // namespace overlap::test
