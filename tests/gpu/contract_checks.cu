#include "contract_checks.h"

#include "check_support.cuh"
#include "contract_bindings.h"
#if OVERLAP_FAULT_INJECTION
#include "overlap/fault_injection.h"
#endif

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <string>

namespace overlap::test {
namespace {

// Halves in ±[0.5, 2), never zero, like Random::fill's floats.
void fill(Random& random, HostBuffer<__half>* data) {
  for (std::size_t i = 0; i < data->size(); ++i) {
    float value = 0;
    random.fill(&value, 1);
    (*data)[i] = __float2half_rn(value);
  }
}

void fill(Random& random, HostBuffer<float>* data) {
  random.fill(data->data(), data->size());
}

template <class T>
void allocate_filled(std::size_t count, HostMemory memory, Random& random, HostBuffer<T>* out) {
  OVERLAP_ASSERT_OK(HostBuffer<T>::allocate(count, memory, out));
  fill(random, out);
}

template <class T>
void check_vector_loads(const StrategyCase& c, HostMemory memory, long long n, Random& random) {
  SCOPED_TRACE(describe(c, memory, "n", n));
  const auto count = static_cast<std::size_t>(n);
  HostBuffer<T> x, x_before, y_before, reference, y_explicit, y;
  allocate_filled(count, memory, random, &x);
  allocate_copy(x, HostMemory::Pageable, &x_before);
  // Out arrays start with garbage: every element must be written, none copied in.
  allocate_filled(count, HostMemory::Pageable, random, &y_before);
  allocate_copy(y_before, HostMemory::Pageable, &reference);
  allocate_copy(y_before, memory, &y_explicit);
  allocate_copy(y_before, memory, &y);
  if (::testing::Test::HasFatalFailure())
    return;
  vector_load_reference(n, x_before.data(), reference.data());

  OVERLAP_ASSERT_OK(run_scribbled(VectorLoadBinding<T>{n, x.data(), y.data()}, c));
  OVERLAP_ASSERT_OK(run_scribbled(VectorLoadBinding<T>{n, x.data(), y_explicit.data()}, kExplicit));
  EXPECT_TRUE(bitwise_equal(reference.data(), y_explicit.data(), count)) << "Explicit vs CPU";
  EXPECT_TRUE(bitwise_equal(y_explicit.data(), y.data(), count)) << "y vs Explicit";
  EXPECT_TRUE(bitwise_equal(reference.data(), y.data(), count)) << "y vs CPU";
  EXPECT_TRUE(bitwise_equal(x_before.data(), x.data(), count)) << "the input x changed";
}

// Launches of TileBinding's kernel a call makes: one per chunk of at least a whole tile.
long long expected_tile_launches(const StrategyCase& c, long long n) {
  const Partition partition{0, n, TileBinding::kTile};
  const bool chunked = c.variant == Variant::Streams || c.variant == Variant::Hybrid;
  const long long chunks = chunked ? chunk_count(partition, c.streams.streams) : 1;
  long long launches = 0;
  for (long long k = 0; k < chunks; ++k) {
    long long lo = 0;
    long long hi = 0;
    chunk_bounds(partition, chunks, k, lo, hi);
    launches += hi - lo >= TileBinding::kTile ? 1 : 0;
  }
  return launches;
}

} // namespace

void check_stencil(const StrategyCase& c, HostMemory memory, long long rows, Random& random) {
  SCOPED_TRACE(describe(c, memory, "rows", rows));
  const long long nx = 67;
  const long long ny = rows + 2;
  const auto count = static_cast<std::size_t>(ny * nx);
  HostBuffer<float> in, in_before, out_before, reference, out_explicit, out;
  allocate_random(count, memory, random, &in);
  allocate_copy(in, HostMemory::Pageable, &in_before);
  allocate_random(count, HostMemory::Pageable, random, &out_before);
  allocate_copy(out_before, HostMemory::Pageable, &reference);
  allocate_copy(out_before, memory, &out_explicit);
  allocate_copy(out_before, memory, &out);
  if (::testing::Test::HasFatalFailure())
    return;
  // The reference leaves rows 0 and ny - 1 as they were: so must every variant.
  stencil_reference(ny, nx, in_before.data(), reference.data());

  OVERLAP_ASSERT_OK(run_scribbled(StencilBinding{1, ny - 1, nx, in.data(), out.data()}, c));
  OVERLAP_ASSERT_OK(
      run_scribbled(StencilBinding{1, ny - 1, nx, in.data(), out_explicit.data()}, kExplicit));
  EXPECT_TRUE(bitwise_equal(reference.data(), out_explicit.data(), count)) << "Explicit vs CPU";
  EXPECT_TRUE(bitwise_equal(out_explicit.data(), out.data(), count)) << "out vs Explicit";
  EXPECT_TRUE(bitwise_equal(reference.data(), out.data(), count)) << "out vs CPU";
  EXPECT_TRUE(bitwise_equal(in_before.data(), in.data(), count)) << "the input in changed";
}

void check_float4_loads(const StrategyCase& c, HostMemory memory, long long n, Random& random) {
  check_vector_loads<float>(c, memory, n, random);
}

void check_half2_loads(const StrategyCase& c, HostMemory memory, long long n, Random& random) {
  check_vector_loads<__half>(c, memory, n, random);
}

void check_reductions(const StrategyCase& c, HostMemory memory, long long n, Random& random) {
  SCOPED_TRACE(describe(c, memory, "n", n));
  const auto count = static_cast<std::size_t>(n);
  const auto bins = static_cast<std::size_t>(ReductionBinding::kBins);
  HostBuffer<float> x, sum, sum_explicit;
  HostBuffer<std::uint8_t> b;
  HostBuffer<unsigned> bins_before, bins_reference, bins_explicit, bins_result;
  allocate_random(count, memory, random, &x);
  OVERLAP_ASSERT_OK(HostBuffer<std::uint8_t>::allocate(count, memory, &b));
  random.fill_any(b.data(), count);
  // The sums start far from 0, so that an initial value lost or added twice shows beyond the
  // rounding the atomics' order may cause.
  OVERLAP_ASSERT_OK(HostBuffer<float>::allocate(1, memory, &sum));
  random.fill_uniform(sum.data(), 1, 1000, 2000);
  allocate_copy(sum, memory, &sum_explicit);
  allocate_random(bins, HostMemory::Pageable, random, &bins_before);
  allocate_copy(bins_before, HostMemory::Pageable, &bins_reference);
  allocate_copy(bins_before, memory, &bins_explicit);
  allocate_copy(bins_before, memory, &bins_result);
  if (::testing::Test::HasFatalFailure())
    return;
  const float initial = sum[0];
  double sum_reference = initial;
  reduction_reference(n, x.data(), b.data(), &sum_reference, bins_reference.data());
  // Float additions in any order err by at most (terms - 1) u times the sum of the terms'
  // magnitudes (u = 2^-24), to first order: 1 % over that for the second order.
  double magnitudes = std::fabs(initial);
  for (std::size_t i = 0; i < count; ++i)
    magnitudes += std::fabs(x[i]);
  const double bound = 1.01 * static_cast<double>(n) * std::ldexp(1.0, -24) * magnitudes;

  OVERLAP_ASSERT_OK(
      run_scribbled(ReductionBinding{n, x.data(), b.data(), sum.data(), bins_result.data()}, c));
  OVERLAP_ASSERT_OK(run_scribbled(
      ReductionBinding{n, x.data(), b.data(), sum_explicit.data(), bins_explicit.data()},
      kExplicit));
  EXPECT_NEAR(sum_explicit[0], sum_reference, bound) << "Explicit's sum vs CPU";
  EXPECT_NEAR(sum[0], sum_reference, bound) << "sum vs CPU";
  EXPECT_NEAR(sum[0], sum_explicit[0], 2 * bound) << "sum vs Explicit";
  EXPECT_TRUE(bitwise_equal(bins_reference.data(), bins_explicit.data(), bins))
      << "Explicit's bins vs CPU";
  EXPECT_TRUE(bitwise_equal(bins_explicit.data(), bins_result.data(), bins)) << "bins vs Explicit";
}

void check_optional_output(const StrategyCase& c, HostMemory memory, long long n, Random& random) {
  SCOPED_TRACE(describe(c, memory, "n", n));
  const auto count = static_cast<std::size_t>(n);
  float a = 0;
  random.fill(&a, 1);
  HostBuffer<float> x, y_before, z_before, y_reference, z_reference;
  HostBuffer<float> y_explicit, z_explicit, y, z;
  allocate_random(count, memory, random, &x);
  allocate_random(count, HostMemory::Pageable, random, &y_before);
  allocate_random(count, HostMemory::Pageable, random, &z_before);
  allocate_copy(y_before, HostMemory::Pageable, &y_reference);
  allocate_copy(z_before, HostMemory::Pageable, &z_reference);
  if (::testing::Test::HasFatalFailure())
    return;
  optional_output_reference(n, a, x.data(), y_reference.data(), z_reference.data());

  for (bool passed : {false, true}) {
    SCOPED_TRACE(passed ? "z passed" : "z null");
    allocate_copy(y_before, memory, &y_explicit);
    allocate_copy(y_before, memory, &y);
    allocate_copy(z_before, memory, &z_explicit);
    allocate_copy(z_before, memory, &z);
    if (::testing::Test::HasFatalFailure())
      return;
    float* const z_arg = passed ? z.data() : nullptr;
    float* const z_explicit_arg = passed ? z_explicit.data() : nullptr;
    OVERLAP_ASSERT_OK(run_scribbled(OptionalOutputBinding{n, a, x.data(), y.data(), z_arg}, c));
    OVERLAP_ASSERT_OK(run_scribbled(
        OptionalOutputBinding{n, a, x.data(), y_explicit.data(), z_explicit_arg}, kExplicit));
    EXPECT_TRUE(bitwise_equal(y_reference.data(), y_explicit.data(), count)) << "Explicit vs CPU";
    EXPECT_TRUE(bitwise_equal(y_explicit.data(), y.data(), count)) << "y vs Explicit";
    EXPECT_TRUE(bitwise_equal(y_reference.data(), y.data(), count)) << "y vs CPU";
    if (passed) {
      EXPECT_TRUE(bitwise_equal(z_reference.data(), z_explicit.data(), count))
          << "Explicit's z vs CPU";
      EXPECT_TRUE(bitwise_equal(z_reference.data(), z.data(), count)) << "z vs CPU";
    }
  }
}

void check_tiles(const StrategyCase& c, HostMemory memory, long long n, Random& random) {
  SCOPED_TRACE(describe(c, memory, "n", n));
  const auto count = static_cast<std::size_t>(n);
  HostBuffer<float> x, y_before, reference, y_explicit, y;
  allocate_random(count, memory, random, &x);
  allocate_random(count, HostMemory::Pageable, random, &y_before);
  allocate_copy(y_before, HostMemory::Pageable, &reference);
  allocate_copy(y_before, memory, &y_explicit);
  allocate_copy(y_before, memory, &y);
  if (::testing::Test::HasFatalFailure())
    return;
  tile_reference(n, x.data(), reference.data());

#if OVERLAP_FAULT_INJECTION // the launches are counted by the fault injector
  long long launches = 0;
  {
    const fault::ScopedCallCount counting("tiles<<<");
    OVERLAP_ASSERT_OK(run_scribbled(TileBinding{n, x.data(), y.data()}, c));
    launches = fault::matched_calls();
  }
  EXPECT_EQ(launches, expected_tile_launches(c, n));
#else
  OVERLAP_ASSERT_OK(run_scribbled(TileBinding{n, x.data(), y.data()}, c));
#endif
  OVERLAP_ASSERT_OK(run_scribbled(TileBinding{n, x.data(), y_explicit.data()}, kExplicit));
  EXPECT_TRUE(bitwise_equal(reference.data(), y_explicit.data(), count)) << "Explicit vs CPU";
  EXPECT_TRUE(bitwise_equal(y_explicit.data(), y.data(), count)) << "y vs Explicit";
  EXPECT_TRUE(bitwise_equal(reference.data(), y.data(), count)) << "y vs CPU";
}

} // namespace overlap::test
