#include "overlap/Launch.cuh"

#include <gtest/gtest.h>

#include <string>

namespace {

TEST(CheckedDim, AcceptsTheGridRange) {
  unsigned out = 0;
  ASSERT_TRUE(overlap::checkedDim(1, "grid.x", &out).ok());
  EXPECT_EQ(out, 1u);
  ASSERT_TRUE(overlap::checkedDim(2147483647LL, "grid.x", &out).ok());
  EXPECT_EQ(out, 2147483647u);
}

TEST(CheckedDim, RefusesValuesOutsideAndNamesTheDimension) {
  const long long refused[] = {0, -1, 2147483648LL, 1LL << 40};
  for (long long v : refused) {
    unsigned out = 7;
    const overlap::Status status =
        overlap::checkedDim(v, "saxpy: grid.x = ceil_div(len, 256)", &out);
    EXPECT_EQ(status.code, cudaErrorInvalidConfiguration) << v;
    EXPECT_EQ(out, 7u) << "out written for " << v;
    EXPECT_NE(status.message().find("saxpy: grid.x = ceil_div(len, 256)"), std::string::npos)
        << status.message();
  }
}

TEST(CheckedDim, AnExplicitBoundAppliesToOtherDimensions) {
  unsigned out = 0;
  EXPECT_TRUE(overlap::checkedDim(65535, 65535, "grid.y", &out).ok());
  EXPECT_EQ(out, 65535u);
  EXPECT_EQ(overlap::checkedDim(65536, 65535, "grid.y", &out).code, cudaErrorInvalidConfiguration);
}

TEST(CheckedGridDim, ZeroIsAGridWithoutBlocks) {
  unsigned out = 7;
  ASSERT_TRUE(overlap::checkedGridDim(0, 65535, "grid.y", &out).ok());
  EXPECT_EQ(out, 0u);
  ASSERT_TRUE(overlap::checkedGridDim(1, 65535, "grid.y", &out).ok());
  EXPECT_EQ(out, 1u);
  ASSERT_TRUE(overlap::checkedGridDim(2147483647LL, overlap::kMaxGridX, "grid.x", &out).ok());
  EXPECT_EQ(out, 2147483647u);
}

TEST(CheckedGridDim, NegativeAndTooLargeStayErrorsNamingTheDimension) {
  const long long refused[] = {-1, -256, 65536, 1LL << 40};
  for (long long v : refused) {
    unsigned out = 7;
    const overlap::Status status =
        overlap::checkedGridDim(v, 65535, "histogram: grid.y = len / 256", &out);
    EXPECT_EQ(status.code, cudaErrorInvalidConfiguration) << v;
    EXPECT_EQ(out, 7u) << "out written for " << v;
    EXPECT_NE(status.message().find("histogram: grid.y = len / 256"), std::string::npos)
        << status.message();
  }
}

TEST(LaunchConfig, EmptyWhenAnyGridDimensionIsZero) {
  overlap::LaunchConfig config;
  config.grid = dim3(4, 2, 1);
  config.block = dim3(256);
  EXPECT_FALSE(config.empty());
  for (int d = 0; d < 3; ++d) {
    overlap::LaunchConfig zero = config;
    (d == 0 ? zero.grid.x : d == 1 ? zero.grid.y : zero.grid.z) = 0;
    EXPECT_TRUE(zero.empty()) << "dimension " << d;
  }
}

} // namespace
