// OVERLAP_PIN_CACHE's values (overlap/PinCacheSettings.h).
#include "overlap/PinCacheSettings.h"

#include <gtest/gtest.h>

namespace {

using overlap::parsePinCacheSetting;
using overlap::PinCacheSettings;

constexpr std::size_t kGiB = std::size_t{1} << 30;
constexpr std::size_t kPhysical = 64 * kGiB;

TEST(PinCacheSettings, UnsetLeavesTheCacheToCallsThatAskWithAQuarterOfTheMemory) {
  const PinCacheSettings s = parsePinCacheSetting(nullptr, kPhysical);
  EXPECT_TRUE(s.enabled);
  EXPECT_FALSE(s.everyCall);
  EXPECT_EQ(s.budgetBytes, 16 * kGiB);
  EXPECT_TRUE(s.error.empty());
}

TEST(PinCacheSettings, OffAndZeroTurnItOff) {
  for (const char* value : {"off", "OFF", "0", "0M"}) {
    const PinCacheSettings s = parsePinCacheSetting(value, kPhysical);
    EXPECT_FALSE(s.enabled) << value;
    EXPECT_TRUE(s.error.empty()) << value;
  }
}

TEST(PinCacheSettings, OnOrASizeMakesEveryCallUseIt) {
  const PinCacheSettings on = parsePinCacheSetting("on", kPhysical);
  EXPECT_TRUE(on.everyCall);
  EXPECT_EQ(on.budgetBytes, 16 * kGiB);
  const struct {
    const char* value;
    std::size_t bytes;
  } sizes[] = {
      {"268435456", 268435456}, {"512M", 512 << 20}, {"512mib", 512 << 20}, {"4G", 4 * kGiB},
      {"1.5GiB", 3 * kGiB / 2}, {"2k", 2048},        {"100B", 100}};
  for (const auto& size : sizes) {
    const PinCacheSettings s = parsePinCacheSetting(size.value, kPhysical);
    EXPECT_TRUE(s.enabled && s.everyCall) << size.value;
    EXPECT_EQ(s.budgetBytes, size.bytes) << size.value;
    EXPECT_TRUE(s.error.empty()) << size.value;
  }
}

TEST(PinCacheSettings, AMalformedValueIsReportedAndIgnored) {
  for (const char* value : {"yes", "-1", "12X", "4GG", "", "M"}) {
    const PinCacheSettings s = parsePinCacheSetting(value, kPhysical);
    EXPECT_FALSE(s.error.empty()) << value;
    EXPECT_TRUE(s.enabled) << value;
    EXPECT_FALSE(s.everyCall) << value;
    EXPECT_EQ(s.budgetBytes, 16 * kGiB) << value;
  }
}

TEST(PinCacheSettings, UnknownPhysicalMemoryGivesOneGibibyte) {
  EXPECT_EQ(overlap::defaultPinCacheBudget(0), kGiB);
}

} // namespace
