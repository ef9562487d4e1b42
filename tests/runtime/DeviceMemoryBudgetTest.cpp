// OVERLAP_DEVICE_MEMORY_BUDGET's values and the order in which budgets win
// (overlap/DeviceMemoryBudget.h); the sizes' shared parser and printer (overlap/ByteSize.h).
#include "overlap/DeviceMemoryBudget.h"
#include "overlap/ByteSize.h"

#include <gtest/gtest.h>

#include <string>

namespace {

constexpr std::size_t kMiB = std::size_t{1} << 20;
constexpr std::size_t kGiB = std::size_t{1} << 30;

TEST(DeviceMemoryBudget, UnsetOrEmptyIsAutomatic) {
  for (const char* value : {static_cast<const char*>(nullptr), ""}) {
    const overlap::DeviceMemoryBudgetSetting s = overlap::parseDeviceMemoryBudgetSetting(value);
    EXPECT_EQ(s.bytes, 0u);
    EXPECT_TRUE(s.error.empty());
  }
}

TEST(DeviceMemoryBudget, SizesInBinaryUnits) {
  EXPECT_EQ(overlap::parseDeviceMemoryBudgetSetting("2GiB").bytes, 2 * kGiB);
  EXPECT_EQ(overlap::parseDeviceMemoryBudgetSetting("512M").bytes, 512 * kMiB);
  EXPECT_EQ(overlap::parseDeviceMemoryBudgetSetting("1.5g").bytes, 3 * kGiB / 2);
  EXPECT_EQ(overlap::parseDeviceMemoryBudgetSetting("1073741824").bytes, kGiB);
}

TEST(DeviceMemoryBudget, AMalformedValueIsIgnoredSayingWhy) {
  for (const char* value : {"lots", "2 parsecs", "-1G", "4X"}) {
    const overlap::DeviceMemoryBudgetSetting s = overlap::parseDeviceMemoryBudgetSetting(value);
    EXPECT_EQ(s.bytes, 0u) << value;
    EXPECT_NE(s.error.find(std::string("'") + value + "'"), std::string::npos) << s.error;
  }
}

// Without a device: the call's own budget, then the process's, win before anything is asked.
TEST(DeviceMemoryBudget, TheCallsThenTheProcesssBudgetWin) {
  overlap::DeviceMemoryBudget budget;
  ASSERT_TRUE(overlap::resolveDeviceMemoryBudget(3 * kMiB, 0, 100 * kGiB, &budget).ok());
  EXPECT_EQ(budget.bytes, 3 * kMiB);
  EXPECT_STREQ(budget.source, "StreamsConfig::deviceMemoryBudget");
  overlap::setDeviceMemoryBudget(5 * kMiB);
  ASSERT_TRUE(overlap::resolveDeviceMemoryBudget(0, 0, 100 * kGiB, &budget).ok());
  EXPECT_EQ(budget.bytes, 5 * kMiB);
  EXPECT_STREQ(budget.source, "setDeviceMemoryBudget");
  ASSERT_TRUE(overlap::resolveDeviceMemoryBudget(7 * kMiB, 0, 100 * kGiB, &budget).ok());
  EXPECT_EQ(budget.bytes, 7 * kMiB);
  overlap::setDeviceMemoryBudget(0);
}

TEST(DeviceMemoryBudget, ARefusalNamesWhatIsNeededAndTheBudget) {
  const overlap::Status status =
      overlap::overBudget("Explicit", 16 * kGiB, {3 * kGiB + kGiB / 2, "setDeviceMemoryBudget"},
                          ": run it out of core");
  EXPECT_EQ(status.code, cudaErrorMemoryAllocation);
  EXPECT_EQ(std::string(status.call), "Explicit needs 16.0 GiB of device memory; the budget is "
                                      "3.5 GiB (setDeviceMemoryBudget): run it out of core");
}

TEST(ByteSize, FormatsInBinaryUnits) {
  EXPECT_EQ(overlap::formatBytes(12), "12 B");
  EXPECT_EQ(overlap::formatBytes(1536), "1.5 KiB");
  EXPECT_EQ(overlap::formatBytes(512.0 * kMiB), "512.0 MiB");
  EXPECT_EQ(overlap::formatBytes(static_cast<double>(3 * kGiB / 2)), "1.5 GiB");
}

} // namespace
