#include "overlap/SampleStats.h"

#include <gtest/gtest.h>

namespace overlap {
namespace {

TEST(Summarize, OddCount) {
  const SampleStats s = summarize({5, 1, 4, 2, 3});
  EXPECT_EQ(s.count, 5);
  EXPECT_DOUBLE_EQ(s.median, 3);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 5);
  EXPECT_DOUBLE_EQ(s.q1, 2);
  EXPECT_DOUBLE_EQ(s.q3, 4);
  EXPECT_DOUBLE_EQ(s.iqr(), 2);
  // |x - 3| = 2, 2, 1, 1, 0: median 1.
  EXPECT_DOUBLE_EQ(s.mad, 1);
  EXPECT_DOUBLE_EQ(s.relativeRange(), 4.0 / 3.0);
}

TEST(Summarize, EvenCountInterpolates) {
  // Type-7 quantiles of 1, 2, 3, 10: median 2.5, q1 at position 0.75 -> 1.75, q3 at 2.25 -> 4.75.
  const SampleStats s = summarize({10, 3, 1, 2});
  EXPECT_DOUBLE_EQ(s.median, 2.5);
  EXPECT_DOUBLE_EQ(s.q1, 1.75);
  EXPECT_DOUBLE_EQ(s.q3, 4.75);
  // |x - 2.5| = 1.5, 0.5, 0.5, 7.5: median 1.
  EXPECT_DOUBLE_EQ(s.mad, 1.0);
}

TEST(Summarize, SingleValueAndEmpty) {
  const SampleStats one = summarize({7});
  EXPECT_EQ(one.count, 1);
  EXPECT_DOUBLE_EQ(one.median, 7);
  EXPECT_DOUBLE_EQ(one.q1, 7);
  EXPECT_DOUBLE_EQ(one.mad, 0);
  const SampleStats none = summarize({});
  EXPECT_EQ(none.count, 0);
  EXPECT_DOUBLE_EQ(none.relativeRange(), 0);
}

} // namespace
} // namespace overlap
