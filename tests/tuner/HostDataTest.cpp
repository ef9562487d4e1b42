#include "tune/HostData.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace overlap::tune {
namespace {

TEST(FillRandom, FloatsAreNeverZeroAndDifferBetweenSeeds) {
  std::vector<float> a(10000), b(10000);
  RandomBits first(1), second(2);
  fill_random(ElementKind::F32, sizeof(float), a.data(), 10000, first);
  fill_random(ElementKind::F32, sizeof(float), b.data(), 10000, second);
  int negative = 0;
  for (float v : a) {
    EXPECT_GE(std::abs(v), 0.25f);
    EXPECT_LT(std::abs(v), 1.0f);
    negative += v < 0;
  }
  EXPECT_GT(negative, 4000);
  EXPECT_LT(negative, 6000);
  EXPECT_NE(a, b);
}

TEST(FillRandom, IntegersStayInTheirRangeAndAreNeverZero) {
  std::vector<std::int32_t> s(5000);
  std::vector<std::uint8_t> u(5000);
  RandomBits bits(7);
  fill_random(ElementKind::I32, 4, s.data(), 5000, bits);
  fill_random(ElementKind::U8, 1, u.data(), 5000, bits);
  bool anyNegative = false;
  for (std::int32_t v : s) {
    EXPECT_NE(v, 0);
    EXPECT_LE(std::abs(v), 100);
    anyNegative |= v < 0;
  }
  EXPECT_TRUE(anyNegative);
  for (std::uint8_t v : u) {
    EXPECT_GE(v, 1);
    EXPECT_LE(v, 100);
  }
}

TEST(CompareElements, ExactComparisonFindsTheFirstDifference) {
  std::vector<float> reference = {1, 2, 3, 4}, actual = reference;
  EXPECT_TRUE(compareElements(ElementKind::F32, 4, reference.data(), actual.data(), 4, 0).equal());
  actual[2] = std::nextafter(3.0f, 4.0f);
  actual[3] = 5;
  const Comparison c = compareElements(ElementKind::F32, 4, reference.data(), actual.data(), 4, 0);
  EXPECT_EQ(c.mismatches, 2);
  EXPECT_EQ(c.firstMismatch, 2);
  EXPECT_DOUBLE_EQ(c.maxAbsDifference, 1.0);
  EXPECT_NE(c.describe(4).find("2 of 4"), std::string::npos);
}

TEST(CompareElements, ToleranceIsRelativeAboveOneAndAbsoluteBelow) {
  std::vector<double> reference = {1000.0, 0.001}, actual = {1000.5, 0.0015};
  EXPECT_TRUE(
      compareElements(ElementKind::F64, 8, reference.data(), actual.data(), 2, 1e-3).equal());
  EXPECT_FALSE(
      compareElements(ElementKind::F64, 8, reference.data(), actual.data(), 2, 1e-4).equal());
}

TEST(CompareElements, IntegersAreAlwaysExact) {
  std::vector<std::int32_t> reference = {1, 2}, actual = {1, 3};
  EXPECT_FALSE(
      compareElements(ElementKind::I32, 4, reference.data(), actual.data(), 2, 0.5).equal());
}

TEST(HalfPrecision, ConversionsRoundToNearestEven) {
  EXPECT_EQ(floatToHalf(1.0f), 0x3C00);
  EXPECT_EQ(floatToHalf(-2.0f), 0xC000);
  EXPECT_EQ(floatToHalf(0.1f), 0x2E66);
  EXPECT_EQ(floatToHalf(65504.0f), 0x7BFF);         // the largest half
  EXPECT_EQ(floatToHalf(65519.0f), 0x7BFF);         // below the midpoint to infinity
  EXPECT_EQ(floatToHalf(65520.0f), 0x7C00);         // the midpoint: ties to even, infinity
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -24)), 1); // the smallest subnormal
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -25)), 0); // half of it: ties to even, zero
  EXPECT_EQ(floatToHalf(std::ldexp(3.0f, -26)), 1); // above the midpoint
  EXPECT_EQ(floatToHalf(std::ldexp(1023.0f, -24) + std::ldexp(1.0f, -25)), 0x0400); // carry
  EXPECT_EQ(floatToHalf(1.0f + std::ldexp(1.0f, -11)), 0x3C00);     // tie, even stays
  EXPECT_EQ(floatToHalf(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3C02); // tie, odd rounds up
  EXPECT_EQ(floatToHalf(-0.0f), 0x8000);
  EXPECT_EQ(floatToHalf(INFINITY), 0x7C00);
  EXPECT_TRUE(std::isnan(halfToFloat(floatToHalf(NAN))));
}

TEST(HalfPrecision, EveryHalfRoundTripsThroughFloat) {
  for (std::uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
    const auto half = static_cast<std::uint16_t>(bits);
    const float value = halfToFloat(half);
    if (std::isnan(value))
      continue;
    ASSERT_EQ(floatToHalf(value), half) << std::hex << bits;
  }
  EXPECT_EQ(halfToFloat(0x0001), std::ldexp(1.0f, -24));
  EXPECT_EQ(halfToFloat(0x3555), 0.333251953125f);
}

TEST(BFloat16, ConversionsRoundToNearestEvenAndRoundTrip) {
  EXPECT_EQ(floatToBfloat16(1.0f), 0x3F80);
  EXPECT_EQ(floatToBfloat16(-0.25f), 0xBE80);
  EXPECT_EQ(floatToBfloat16(1.0f + std::ldexp(1.0f, -8)), 0x3F80);       // tie, even stays
  EXPECT_EQ(floatToBfloat16(1.0f + 3 * std::ldexp(1.0f, -8)), 0x3F82);   // tie, odd rounds up
  EXPECT_EQ(floatToBfloat16(std::numeric_limits<float>::max()), 0x7F80); // rounds to infinity
  EXPECT_TRUE(std::isnan(bfloat16ToFloat(floatToBfloat16(NAN))));
  for (std::uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
    const auto value = static_cast<std::uint16_t>(bits);
    if (!std::isnan(bfloat16ToFloat(value))) {
      ASSERT_EQ(floatToBfloat16(bfloat16ToFloat(value)), value) << std::hex << bits;
    }
  }
}

TEST(FillRandom, HalfAndBFloat16ValuesAreInRangeAndNeverZero) {
  for (ElementKind kind : {ElementKind::F16, ElementKind::BF16}) {
    std::vector<std::uint16_t> values(20000);
    RandomBits bits(3);
    fill_random(kind, 2, values.data(), 20000, bits);
    int negative = 0;
    for (std::uint16_t v : values) {
      const float f = kind == ElementKind::F16 ? halfToFloat(v) : bfloat16ToFloat(v);
      EXPECT_GE(std::abs(f), 0.25f);
      EXPECT_LT(std::abs(f), 1.0f);
      negative += f < 0;
    }
    EXPECT_GT(negative, 8000);
    EXPECT_LT(negative, 12000);
  }
}

TEST(FillRandom, EveryLaneOfAVectorElementIsAValue) {
  // float4 (16 bytes of F32), int2 (8 bytes of I32), struct {float x, y, z;} (12 bytes), and an
  // element that is no whole number of its kind's lanes (random bytes).
  std::vector<float> float4s(4 * 1000), float3s(3 * 1000);
  std::vector<std::int32_t> int2s(2 * 1000);
  RandomBits bits(11);
  fill_random(ElementKind::F32, 16, float4s.data(), 1000, bits);
  fill_random(ElementKind::F32, 12, float3s.data(), 1000, bits);
  fill_random(ElementKind::I32, 8, int2s.data(), 1000, bits);
  for (float v : float4s) {
    EXPECT_GE(std::abs(v), 0.25f);
    EXPECT_LT(std::abs(v), 1.0f);
  }
  for (float v : float3s)
    EXPECT_GE(std::abs(v), 0.25f);
  for (std::int32_t v : int2s) {
    EXPECT_NE(v, 0);
    EXPECT_LE(std::abs(v), 100);
  }
  std::vector<unsigned char> odd(6 * 100, 0);
  fill_random(ElementKind::F32, 6, odd.data(), 100, bits);
  int nonzero = 0;
  for (unsigned char byte : odd)
    nonzero += byte != 0;
  EXPECT_GT(nonzero, 500);
}

TEST(CompareElements, HalfComparesAsFloatsWithinTheTolerance) {
  std::vector<std::uint16_t> reference = {floatToHalf(0.5f), floatToHalf(-0.75f)};
  std::vector<std::uint16_t> actual = reference;
  actual[1] = static_cast<std::uint16_t>(actual[1] + 1); // one unit in the last place: 2^-11
  const Comparison exact =
      compareElements(ElementKind::F16, 2, reference.data(), actual.data(), 2, 0);
  EXPECT_EQ(exact.mismatches, 1);
  EXPECT_EQ(exact.firstMismatch, 1);
  EXPECT_DOUBLE_EQ(exact.maxAbsDifference, std::ldexp(1.0, -11));
  EXPECT_TRUE(
      compareElements(ElementKind::F16, 2, reference.data(), actual.data(), 2, 1e-3).equal());
  EXPECT_FALSE(
      compareElements(ElementKind::F16, 2, reference.data(), actual.data(), 2, 1e-4).equal());
  std::vector<std::uint16_t> bfReference = {floatToBfloat16(3.0f)};
  std::vector<std::uint16_t> bfActual = {floatToBfloat16(3.0f + 1.0f / 64)};
  EXPECT_TRUE(
      compareElements(ElementKind::BF16, 2, bfReference.data(), bfActual.data(), 1, 1e-2).equal());
  EXPECT_FALSE(
      compareElements(ElementKind::BF16, 2, bfReference.data(), bfActual.data(), 1, 0).equal());
}

TEST(CompareElements, VectorElementsCompareLaneByLane) {
  // Two float4 elements; the second's last lane is off by 1e-6 relative: within a tolerance of
  // 1e-5, not bit for bit. Mismatches count elements, not lanes.
  std::vector<float> reference = {1, 2, 3, 4, 5, 6, 7, 8}, actual = reference;
  actual[7] = 8.000008f;
  actual[6] = 7.00001f;
  EXPECT_TRUE(
      compareElements(ElementKind::F32, 16, reference.data(), actual.data(), 2, 1e-5).equal());
  const Comparison exact =
      compareElements(ElementKind::F32, 16, reference.data(), actual.data(), 2, 0);
  EXPECT_EQ(exact.mismatches, 1);
  EXPECT_EQ(exact.firstMismatch, 1);
  actual[1] = 2.5f; // a lane of the first element far off
  const Comparison far =
      compareElements(ElementKind::F32, 16, reference.data(), actual.data(), 2, 1e-5);
  EXPECT_EQ(far.mismatches, 1);
  EXPECT_EQ(far.firstMismatch, 0);
  EXPECT_DOUBLE_EQ(far.maxAbsDifference, 0.5);
  // int4 lanes compare exactly, whatever the tolerance.
  std::vector<std::int32_t> ints = {1, 2, 3, 4}, other = {1, 2, 3, 5};
  EXPECT_FALSE(compareElements(ElementKind::I32, 16, ints.data(), other.data(), 1, 0.5).equal());
}

TEST(ReductionTolerance, FloatingSumsAndProductsOnlyGrowingWithTheTerms) {
  EXPECT_EQ(reductionTolerance(ElementKind::F32, ReduceOp::None, 1000), 0);
  EXPECT_EQ(reductionTolerance(ElementKind::I32, ReduceOp::Sum, 1000), 0);
  EXPECT_EQ(reductionTolerance(ElementKind::U64, ReduceOp::Product, 1000), 0);
  for (ReduceOp exact :
       {ReduceOp::Min, ReduceOp::Max, ReduceOp::BitAnd, ReduceOp::BitOr, ReduceOp::BitXor})
    EXPECT_EQ(reductionTolerance(ElementKind::F32, exact, 1000), 0);
  const double f32 = reductionTolerance(ElementKind::F32, ReduceOp::Sum, 1 << 20);
  EXPECT_DOUBLE_EQ(f32, 16 * std::ldexp(1.0, -23) * 1024);
  EXPECT_DOUBLE_EQ(reductionTolerance(ElementKind::F32, ReduceOp::Product, 1 << 20), f32);
  EXPECT_LT(reductionTolerance(ElementKind::F64, ReduceOp::Sum, 1 << 20), f32);
  EXPECT_GT(reductionTolerance(ElementKind::F16, ReduceOp::Sum, 1 << 20), f32);
  EXPECT_GT(reductionTolerance(ElementKind::BF16, ReduceOp::Sum, 1 << 20),
            reductionTolerance(ElementKind::F16, ReduceOp::Sum, 1 << 20));
  EXPECT_LT(reductionTolerance(ElementKind::F32, ReduceOp::Sum, 100), f32);
  EXPECT_GT(reductionTolerance(ElementKind::F32, ReduceOp::Sum, 0), 0); // at least one term
}

TEST(ReductionTolerance, CoversASumAccumulatedInAnotherOrder) {
  // A float sum of 2^16 terms in ±[0.25, 1), forwards and in a scrambled order (as atomics from
  // many blocks would): the two differ, but within the tolerance.
  const long long n = 1 << 16;
  std::vector<float> terms(static_cast<std::size_t>(n));
  RandomBits bits(5);
  fill_random(ElementKind::F32, 4, terms.data(), n, bits);
  float forwards = 0;
  for (float t : terms)
    forwards += t;
  float scrambled = 0;
  for (long long i = 0; i < n; ++i)
    scrambled += terms[static_cast<std::size_t>((i * 40503) % n)];
  const double tolerance = reductionTolerance(ElementKind::F32, ReduceOp::Sum, n);
  EXPECT_TRUE(compareElements(ElementKind::F32, 4, &forwards, &scrambled, 1, tolerance).equal())
      << forwards << " vs " << scrambled;
}

} // namespace
} // namespace overlap::tune
