#include "tune/host_data.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
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
  bool any_negative = false;
  for (std::int32_t v : s) {
    EXPECT_NE(v, 0);
    EXPECT_LE(std::abs(v), 100);
    any_negative |= v < 0;
  }
  EXPECT_TRUE(any_negative);
  for (std::uint8_t v : u) {
    EXPECT_GE(v, 1);
    EXPECT_LE(v, 100);
  }
}

TEST(CompareElements, ExactComparisonFindsTheFirstDifference) {
  std::vector<float> reference = {1, 2, 3, 4}, actual = reference;
  EXPECT_TRUE(compare_elements(ElementKind::F32, 4, reference.data(), actual.data(), 4, 0).equal());
  actual[2] = std::nextafter(3.0f, 4.0f);
  actual[3] = 5;
  const Comparison c = compare_elements(ElementKind::F32, 4, reference.data(), actual.data(), 4, 0);
  EXPECT_EQ(c.mismatches, 2);
  EXPECT_EQ(c.first_mismatch, 2);
  EXPECT_DOUBLE_EQ(c.max_abs_difference, 1.0);
  EXPECT_NE(c.describe(4).find("2 of 4"), std::string::npos);
}

TEST(CompareElements, ToleranceIsRelativeAboveOneAndAbsoluteBelow) {
  std::vector<double> reference = {1000.0, 0.001}, actual = {1000.5, 0.0015};
  EXPECT_TRUE(
      compare_elements(ElementKind::F64, 8, reference.data(), actual.data(), 2, 1e-3).equal());
  EXPECT_FALSE(
      compare_elements(ElementKind::F64, 8, reference.data(), actual.data(), 2, 1e-4).equal());
}

TEST(CompareElements, IntegersAreAlwaysExact) {
  std::vector<std::int32_t> reference = {1, 2}, actual = {1, 3};
  EXPECT_FALSE(
      compare_elements(ElementKind::I32, 4, reference.data(), actual.data(), 2, 0.5).equal());
}

} // namespace
} // namespace overlap::tune
