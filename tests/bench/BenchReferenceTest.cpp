// The benchmark's CPU references (bench/apps/Reference.h) on hand-computed cases: the GPU tests
// trust them as the ground truth, so they are checked here first, without a GPU.
#include "Reference.h"

#include <gtest/gtest.h>

#include <vector>

namespace {

TEST(BenchReference, ScalarAddStepsTheGeneratorModulo2To32) {
  std::vector<unsigned int> values = {0u, 1u, 0xFFFFFFFFu};
  bench::scalar_add(1, values);
  EXPECT_EQ(values[0], 1013904223u);
  EXPECT_EQ(values[1], 1664525u + 1013904223u);
  EXPECT_EQ(values[2], 1013904223u - 1664525u); // -1 * a + c, wrapped
  std::vector<unsigned int> twice = {0u};
  bench::scalar_add(2, twice);
  EXPECT_EQ(twice[0], 1013904223u * 1664525u + 1013904223u);
}

TEST(BenchReference, FrameHistogramsCountEachFrameApart) {
  const std::vector<unsigned char> gray = {0, 0, 255, 7, 7, 7};
  const std::vector<unsigned int> histograms = bench::frameHistograms(2, 3, gray);
  ASSERT_EQ(histograms.size(), 512u);
  EXPECT_EQ(histograms[0], 2u);
  EXPECT_EQ(histograms[255], 1u);
  EXPECT_EQ(histograms[256 + 7], 3u);
  unsigned int total = 0;
  for (unsigned int count : histograms)
    total += count;
  EXPECT_EQ(total, 6u);
}

TEST(BenchReference, GrayscaleWeighsGreenMost) {
  const std::vector<unsigned char> rgb = {255, 255, 255, 255, 0, 0, 0, 255, 0, 0, 0, 255};
  const std::vector<unsigned char> gray = bench::grayscale(rgb);
  ASSERT_EQ(gray.size(), 4u);
  EXPECT_EQ(gray[0], 255); // (77 + 150 + 29) * 255 / 256
  EXPECT_EQ(gray[1], 76);  // 77 * 255 >> 8
  EXPECT_EQ(gray[2], 149); // 150 * 255 >> 8
  EXPECT_EQ(gray[3], 28);  // 29 * 255 >> 8
}

TEST(BenchReference, SepiaClampsAt255) {
  const std::vector<unsigned char> toned = bench::sepia({255, 255, 255, 100, 50, 20});
  ASSERT_EQ(toned.size(), 6u);
  EXPECT_EQ(toned[0], 255); // 1351 * 255 / 1000, clamped
  EXPECT_EQ(toned[1], 255); // 1203 * 255 / 1000, clamped
  EXPECT_EQ(toned[2], 238); // 937 * 255 / 1000
  EXPECT_EQ(toned[3], 81);  // (39300 + 38450 + 3780) / 1000
  EXPECT_EQ(toned[4], 72);  // (34900 + 34300 + 3360) / 1000
  EXPECT_EQ(toned[5], 56);  // (27200 + 26700 + 2620) / 1000
}

TEST(BenchReference, PopStateGrowsWithSalinityAndDepth) {
  // Two levels of one point: the surface at 0 dbar and level 1 at 10 dbar.
  const std::vector<float> temperature = {10.0f, 10.0f};
  const std::vector<float> salinity = {35.0f, 35.0f};
  const std::vector<float> density = bench::pop_state(2, 1, temperature, salinity);
  ASSERT_EQ(density.size(), 2u);
  // 999.842594 + 10 (0.06793952 - 0.0909529) + 35 (0.824493 - 0.040899), in float.
  EXPECT_NEAR(density[0], 1027.04f, 0.01f);
  EXPECT_GT(density[1], density[0]); // pressure term: 10 (0.0045 - 0.0003 + 0.0007)
  EXPECT_NEAR(density[1] - density[0], 0.049f, 0.001f);
  const std::vector<float> fresher = bench::pop_state(1, 1, {10.0f}, {30.0f});
  EXPECT_LT(fresher[0], density[0]);
}

} // namespace
