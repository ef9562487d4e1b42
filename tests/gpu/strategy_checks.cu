#include "strategy_checks.h"

#include "check_support.cuh"
#include "column_binding.h"
#include "matmul_binding.h"
#include "saxpy_binding.h"

#include <cstdint>

namespace overlap::test {

void check_saxpy(const StrategyCase& c, HostMemory memory, long long n, Random& random) {
  SCOPED_TRACE(describe(c, memory, "n", n));
  const auto count = static_cast<std::size_t>(n);
  HostBuffer<float> x, x_before, y_before, reference, y_explicit, y;
  float a = 0;
  random.fill(&a, 1);
  allocate_random(count, memory, random, &x);
  allocate_random(count, HostMemory::Pageable, random, &y_before);
  allocate_copy(x, HostMemory::Pageable, &x_before);
  allocate_copy(y_before, HostMemory::Pageable, &reference);
  allocate_copy(y_before, memory, &y_explicit);
  allocate_copy(y_before, memory, &y);
  if (::testing::Test::HasFatalFailure())
    return;
  saxpy_reference(n, a, x_before.data(), reference.data());

  // The strategy under test first and Explicit second, so neither finds the other's data.
  OVERLAP_ASSERT_OK(run_scribbled(SaxpyBinding{n, a, x.data(), y.data()}, c));
  OVERLAP_ASSERT_OK(run_scribbled(SaxpyBinding{n, a, x.data(), y_explicit.data()}, kExplicit));
  EXPECT_TRUE(bitwise_equal(reference.data(), y_explicit.data(), count)) << "Explicit vs CPU";
  EXPECT_TRUE(bitwise_equal(y_explicit.data(), y.data(), count)) << "y vs Explicit";
  EXPECT_TRUE(bitwise_equal(reference.data(), y.data(), count)) << "y vs CPU";
  EXPECT_TRUE(bitwise_equal(x_before.data(), x.data(), count)) << "the input x changed";
}

void check_matmul(const StrategyCase& c, HostMemory memory, long long m, Random& random) {
  SCOPED_TRACE(describe(c, memory, "m", m));
  const long long n = 29;
  const long long k = 37;
  HostBuffer<std::uint32_t> a, b, c_before, reference, c_explicit, c_result;
  allocate_random(static_cast<std::size_t>(m * k), memory, random, &a);
  allocate_random(static_cast<std::size_t>(k * n), memory, random, &b);
  // Out arrays start with garbage: every element must be written, none copied in.
  allocate_random(static_cast<std::size_t>(m * n), HostMemory::Pageable, random, &c_before);
  allocate_copy(c_before, HostMemory::Pageable, &reference);
  allocate_copy(c_before, memory, &c_explicit);
  allocate_copy(c_before, memory, &c_result);
  if (::testing::Test::HasFatalFailure())
    return;
  matmul_reference(m, n, k, a.data(), b.data(), reference.data());

  const auto count = static_cast<std::size_t>(m * n);
  OVERLAP_ASSERT_OK(run_scribbled(MatmulBinding{m, n, k, a.data(), b.data(), c_result.data()}, c));
  OVERLAP_ASSERT_OK(
      run_scribbled(MatmulBinding{m, n, k, a.data(), b.data(), c_explicit.data()}, kExplicit));
  EXPECT_TRUE(bitwise_equal(reference.data(), c_explicit.data(), count)) << "Explicit vs CPU";
  EXPECT_TRUE(bitwise_equal(c_explicit.data(), c_result.data(), count)) << "c vs Explicit";
  EXPECT_TRUE(bitwise_equal(reference.data(), c_result.data(), count)) << "c vs CPU";
}

void check_column(const StrategyCase& c, HostMemory memory, long long levels, Random& random) {
  SCOPED_TRACE(describe(c, memory, "levels", levels));
  const long long plane = 67;
  const auto count = static_cast<std::size_t>(levels * plane);
  HostBuffer<float> rho, rho_before, acc_before, out_before;
  HostBuffer<float> acc_reference, out_reference, acc_explicit, out_explicit, acc, out;
  allocate_random(count, memory, random, &rho);
  allocate_copy(rho, HostMemory::Pageable, &rho_before);
  allocate_random(count, HostMemory::Pageable, random, &acc_before);
  allocate_random(count, HostMemory::Pageable, random, &out_before);
  allocate_copy(acc_before, HostMemory::Pageable, &acc_reference);
  allocate_copy(out_before, HostMemory::Pageable, &out_reference);
  allocate_copy(acc_before, memory, &acc_explicit);
  allocate_copy(out_before, memory, &out_explicit);
  allocate_copy(acc_before, memory, &acc);
  allocate_copy(out_before, memory, &out);
  if (::testing::Test::HasFatalFailure())
    return;
  column_reference(levels, plane, rho_before.data(), acc_reference.data(), out_reference.data());

  OVERLAP_ASSERT_OK(
      run_scribbled(ColumnBinding{levels, plane, rho.data(), acc.data(), out.data()}, c));
  OVERLAP_ASSERT_OK(run_scribbled(
      ColumnBinding{levels, plane, rho.data(), acc_explicit.data(), out_explicit.data()},
      kExplicit));
  EXPECT_TRUE(bitwise_equal(out_reference.data(), out_explicit.data(), count))
      << "Explicit out vs CPU";
  EXPECT_TRUE(bitwise_equal(acc_reference.data(), acc_explicit.data(), count))
      << "Explicit acc vs CPU";
  EXPECT_TRUE(bitwise_equal(out_explicit.data(), out.data(), count)) << "out vs Explicit";
  EXPECT_TRUE(bitwise_equal(acc_explicit.data(), acc.data(), count)) << "acc vs Explicit";
  EXPECT_TRUE(bitwise_equal(out_reference.data(), out.data(), count)) << "out vs CPU";
  EXPECT_TRUE(bitwise_equal(acc_reference.data(), acc.data(), count)) << "acc vs CPU";
  EXPECT_TRUE(bitwise_equal(rho_before.data(), rho.data(), count)) << "the input rho changed";
}

} // namespace overlap::test
