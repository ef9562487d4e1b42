// The contract's newer features (issue 18) in every variant: Explicit, Mapped, and Streams and
// Hybrid with 1, 2, 3, 4, 7 and 16 streams in both issue orders, on pinned and pageable user
// memory, at n = 1, n below the stream count, a prime n and a few thousand. Each result must
// equal Explicit's and the CPU's (bit for bit, except float sums, within their rounding).
#include "contract_checks.h"
#include "gpu_test_support.h"
#include "strategy_cases.cuh"

#include <gtest/gtest.h>

#include <string>
#include <tuple>

namespace overlap::test {
namespace {

using ContractParam = std::tuple<StrategyCase, HostMemory>;

class StrategyContract : public ::testing::TestWithParam<ContractParam> {
protected:
  // Runs `check` at every extent of the case, stopping at the first failure.
  template <class Check> void at_every_extent(Check check) {
    const auto& [strategy, memory] = GetParam();
    Random random;
    SCOPED_TRACE(random.trace());
    for (long long n : partition_extents(strategy, 3000)) {
      check(strategy, memory, n, random);
      if (HasFailure())
        return;
    }
  }
};

TEST_P(StrategyContract, StencilOverInnerRowsFromAnOrigin) {
  OVERLAP_SKIP_WITHOUT_GPU();
  at_every_extent(check_stencil);
}

TEST_P(StrategyContract, Float4LoadsFromChunksAlignedByTheGranule) {
  OVERLAP_SKIP_WITHOUT_GPU();
  at_every_extent(check_float4_loads);
}

TEST_P(StrategyContract, Half2LoadsFromChunksAlignedByTheGranule) {
  OVERLAP_SKIP_WITHOUT_GPU();
  at_every_extent(check_half2_loads);
}

TEST_P(StrategyContract, ReductionsIntoOneFloatAndAHistogram) {
  OVERLAP_SKIP_WITHOUT_GPU();
  at_every_extent(check_reductions);
}

TEST_P(StrategyContract, OptionalOutputPassedNullAndNot) {
  OVERLAP_SKIP_WITHOUT_GPU();
  at_every_extent(check_optional_output);
}

TEST_P(StrategyContract, ChunksShorterThanATileLaunchNothing) {
  OVERLAP_SKIP_WITHOUT_GPU();
  at_every_extent(check_tiles);
}

std::string param_name(const ::testing::TestParamInfo<ContractParam>& info) {
  return name_of(std::get<0>(info.param)) + "_" + to_string(std::get<1>(info.param));
}

INSTANTIATE_TEST_SUITE_P(
    AllStrategies, StrategyContract,
    ::testing::Combine(::testing::ValuesIn(strategy_cases({1, 2, 3, 4, 7, 16})),
                       ::testing::Values(HostMemory::Pageable, HostMemory::Pinned)),
    param_name);

// One small case per variant and binding: quick enough to run under compute-sanitizer.
TEST(StrategyContractSmoke, EveryVariantSmall) {
  OVERLAP_SKIP_WITHOUT_GPU();
  Random random;
  SCOPED_TRACE(random.trace());
  for (const StrategyCase& strategy : one_case_per_variant())
    for (HostMemory memory : {HostMemory::Pageable, HostMemory::Pinned}) {
      check_stencil(strategy, memory, 13, random);
      check_float4_loads(strategy, memory, 1009, random);
      check_half2_loads(strategy, memory, 1009, random);
      check_reductions(strategy, memory, 1009, random);
      check_optional_output(strategy, memory, 1009, random);
      check_tiles(strategy, memory, 1009, random);
    }
}

} // namespace
} // namespace overlap::test
