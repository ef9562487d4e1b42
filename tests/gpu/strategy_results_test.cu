// Every variant of every hand-written binding, in every configuration, on pinned and pageable
// user memory: the result must equal Explicit's and the CPU's bit for bit.
#include "gpu_test_support.h"
#include "strategy_cases.cuh"
#include "strategy_checks.h"

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
  for (long long n : partition_extents(strategy, (1LL << 24) + 3)) {
    check_saxpy(strategy, memory, n, random);
    if (HasFailure())
      return;
  }
}

TEST_P(StrategyResults, MatmulRowsWithBroadcastB) {
  OVERLAP_SKIP_WITHOUT_GPU();
  const auto& [strategy, memory] = GetParam();
  Random random;
  SCOPED_TRACE(random.trace());
  for (long long m : partition_extents(strategy)) {
    check_matmul(strategy, memory, m, random);
    if (HasFailure())
      return;
  }
}

TEST_P(StrategyResults, ColumnRangeModeWithHaloAndInOut) {
  OVERLAP_SKIP_WITHOUT_GPU();
  const auto& [strategy, memory] = GetParam();
  Random random;
  SCOPED_TRACE(random.trace());
  for (long long levels : partition_extents(strategy)) {
    check_column(strategy, memory, levels, random);
    if (HasFailure())
      return;
  }
}

std::string param_name(const ::testing::TestParamInfo<ResultsParam>& info) {
  return name_of(std::get<0>(info.param)) + "_" + to_string(std::get<1>(info.param));
}

INSTANTIATE_TEST_SUITE_P(AllStrategies, StrategyResults,
                         ::testing::Combine(::testing::ValuesIn(all_strategy_cases()),
                                            ::testing::Values(HostMemory::Pageable,
                                                              HostMemory::Pinned)),
                         param_name);

// One small case per variant and kernel: quick enough to run under compute-sanitizer.
TEST(StrategySmoke, EveryVariantSmall) {
  OVERLAP_SKIP_WITHOUT_GPU();
  Random random;
  SCOPED_TRACE(random.trace());
  for (const StrategyCase& strategy : one_case_per_variant())
    for (HostMemory memory : {HostMemory::Pageable, HostMemory::Pinned}) {
      check_saxpy(strategy, memory, 1009, random);
      check_matmul(strategy, memory, 31, random);
      check_column(strategy, memory, 13, random);
    }
}

} // namespace
} // namespace overlap::test
