// The host's combination of a split call's reduction partials (HostReduction.h): starting a
// partial, then combining it, counts the caller's initial contents once, whatever the operator.
#include "overlap/HostReduction.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

namespace {

using overlap::ElementKind;
using overlap::ReduceOp;

// One split of three devices: the caller's array updated by device 0, partials by 1 and 2.
template <class T>
std::vector<T> splitThreeWays(ReduceOp op, ElementKind kind, std::vector<T> initial,
                              const std::vector<std::vector<T>>& contributions, T (*apply)(T, T)) {
  const std::size_t bytes = initial.size() * sizeof(T);
  std::vector<std::vector<T>> partials(3, std::vector<T>(initial.size()));
  partials[0] = initial;
  for (std::size_t d = 1; d < 3; ++d)
    overlap::startPartial(op, kind, initial.data(), partials[d].data(), bytes);
  for (std::size_t d = 0; d < 3; ++d)
    for (std::size_t i = 0; i < initial.size(); ++i)
      partials[d][i] = apply(partials[d][i], contributions[d][i]);
  for (std::size_t d = 1; d < 3; ++d)
    overlap::combinePartial(op, kind, partials[0].data(), partials[d].data(), bytes);
  return partials[0];
}

template <class T>
std::vector<T> onOneDevice(std::vector<T> initial, const std::vector<std::vector<T>>& contributions,
                           T (*apply)(T, T)) {
  for (const std::vector<T>& c : contributions)
    for (std::size_t i = 0; i < initial.size(); ++i)
      initial[i] = apply(initial[i], c[i]);
  return initial;
}

TEST(HostReduction, EveryOperatorCountsTheInitialContentsOnce) {
  const std::vector<std::int32_t> initial = {5, -3, 7, 0x0f0f, 1};
  const std::vector<std::vector<std::int32_t>> contributions = {
      {1, 2, 3, 0x00ff, 2}, {-4, 9, 2, 0x0ff0, 3}, {6, -8, 11, 0x7001, 5}};
  struct Case {
    ReduceOp op;
    std::int32_t (*apply)(std::int32_t, std::int32_t);
  };
  const Case cases[] = {
      {ReduceOp::Sum, [](std::int32_t a, std::int32_t b) { return a + b; }},
      {ReduceOp::Product,
       [](std::int32_t a, std::int32_t b) {
         return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) *
                                          static_cast<std::uint32_t>(b));
       }},
      {ReduceOp::Min, [](std::int32_t a, std::int32_t b) { return b < a ? b : a; }},
      {ReduceOp::Max, [](std::int32_t a, std::int32_t b) { return a < b ? b : a; }},
      {ReduceOp::BitAnd, [](std::int32_t a, std::int32_t b) { return a & b; }},
      {ReduceOp::BitOr, [](std::int32_t a, std::int32_t b) { return a | b; }},
      {ReduceOp::BitXor, [](std::int32_t a, std::int32_t b) { return a ^ b; }},
  };
  for (const Case& c : cases) {
    ASSERT_TRUE(overlap::hostCombinable(c.op, ElementKind::I32, 4));
    EXPECT_EQ(splitThreeWays(c.op, ElementKind::I32, initial, contributions, c.apply),
              onOneDevice(initial, contributions, c.apply))
        << static_cast<int>(c.op);
  }
}

TEST(HostReduction, FloatsAndDoublesSumAndTakeExtremes) {
  const std::vector<double> initial = {1.5, -2.0, 1e10};
  const std::vector<std::vector<double>> contributions = {
      {0.25, 4.0, -1.0}, {0.5, -8.0, 2.0}, {1.0, 16.0, 4.0}};
  double (*sum)(double, double) = [](double a, double b) { return a + b; };
  EXPECT_EQ(splitThreeWays(ReduceOp::Sum, ElementKind::F64, initial, contributions, sum),
            onOneDevice(initial, contributions, sum)); // exact in binary: the same bits
  const std::vector<float> low = {3.0f, -1.0f};
  const std::vector<std::vector<float>> seen = {{4.0f, -7.0f}, {2.0f, 0.5f}, {9.0f, -2.0f}};
  float (*min)(float, float) = [](float a, float b) { return b < a ? b : a; };
  EXPECT_EQ(splitThreeWays(ReduceOp::Min, ElementKind::F32, low, seen, min),
            (std::vector<float>{2.0f, -7.0f}));
}

TEST(HostReduction, IntegersWrapAsTheDevicesAtomicsDo) {
  const std::uint8_t maximum = std::numeric_limits<std::uint8_t>::max();
  std::vector<std::uint8_t> into = {maximum, 16};
  const std::vector<std::uint8_t> from = {2, 16};
  overlap::combinePartial(ReduceOp::Sum, ElementKind::U8, into.data(), from.data(), 2);
  EXPECT_EQ(into, (std::vector<std::uint8_t>{1, 32}));
  overlap::combinePartial(ReduceOp::Product, ElementKind::U8, into.data(), from.data(), 2);
  EXPECT_EQ(into, (std::vector<std::uint8_t>{2, 0})); // 32 * 16 = 512 = 0 mod 256
}

TEST(HostReduction, LanesOfWiderElementsCombineOneByOne) {
  // A float4 element (four F32 lanes): a histogram of four channels.
  std::vector<float> into = {1, 2, 3, 4, 5, 6, 7, 8};
  const std::vector<float> from = {10, 20, 30, 40, 50, 60, 70, 80};
  ASSERT_TRUE(overlap::hostCombinable(ReduceOp::Sum, ElementKind::F32, 16));
  overlap::combinePartial(ReduceOp::Sum, ElementKind::F32, into.data(), from.data(),
                          into.size() * sizeof(float));
  EXPECT_EQ(into, (std::vector<float>{11, 22, 33, 44, 55, 66, 77, 88}));
}

TEST(HostReduction, WhatTheHostCannotCombine) {
  EXPECT_FALSE(overlap::hostCombinable(ReduceOp::None, ElementKind::F32, 4));
  EXPECT_FALSE(overlap::hostCombinable(ReduceOp::Sum, ElementKind::F16, 2));
  EXPECT_FALSE(overlap::hostCombinable(ReduceOp::Max, ElementKind::BF16, 2));
  EXPECT_FALSE(overlap::hostCombinable(ReduceOp::Sum, ElementKind::Other, 12));
  EXPECT_FALSE(overlap::hostCombinable(ReduceOp::Sum, ElementKind::F64, 12)); // not whole lanes
  EXPECT_FALSE(overlap::hostCombinable(ReduceOp::BitOr, ElementKind::F32, 4));
  EXPECT_TRUE(overlap::hostCombinable(ReduceOp::BitOr, ElementKind::U64, 8));
}

} // namespace
