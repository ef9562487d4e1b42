// The multi-GPU split (DeviceSplit.h) with scripted device sets: which devices a call takes and
// which granules each one runs. No GPU.
#include "overlap/DeviceSplit.h"

#include <gtest/gtest.h>

#include <vector>

namespace {

using overlap::DeviceRange;
using overlap::Partition;
using overlap::splitPartition;

// The ranges tile the partition in device order, each of whole granules from its begin.
void expectTiling(const Partition& p, const std::vector<DeviceRange>& ranges) {
  ASSERT_FALSE(ranges.empty());
  EXPECT_EQ(ranges.front().begin, p.begin);
  EXPECT_EQ(ranges.back().end, p.begin + p.extent);
  for (std::size_t k = 0; k < ranges.size(); ++k) {
    EXPECT_LT(ranges[k].begin, ranges[k].end) << "range " << k;
    EXPECT_EQ((ranges[k].begin - p.begin) % p.granule, 0) << "range " << k;
    if (k > 0) {
      EXPECT_EQ(ranges[k - 1].end, ranges[k].begin) << "range " << k;
    }
  }
}

TEST(DeviceSplit, EqualWeightsSplitEvenly) {
  const Partition p{0, 1000, 1};
  const auto ranges = splitPartition(p, {0, 1}, {1.0, 1.0});
  expectTiling(p, ranges);
  ASSERT_EQ(ranges.size(), 2u);
  EXPECT_EQ(ranges[0].device, 0);
  EXPECT_EQ(ranges[0].end, 500);
  EXPECT_EQ(ranges[1].device, 1);
}

TEST(DeviceSplit, SharesFollowTheWeights) {
  // A Gen5 x16 device beside a Gen4 x16 one takes about two thirds.
  const Partition p{10, 3000, 1};
  const auto ranges = splitPartition(p, {2, 5}, {2.0, 1.0});
  expectTiling(p, ranges);
  ASSERT_EQ(ranges.size(), 2u);
  EXPECT_EQ(ranges[0].device, 2);
  EXPECT_EQ(ranges[0].end - ranges[0].begin, 2000);
  EXPECT_EQ(ranges[1].device, 5);
}

TEST(DeviceSplit, CutsOnlyAtGranulesAndKeepsTheShortLastOne) {
  // 10 granules of 64, the last one 37 long: boundaries at multiples of 64 from the begin.
  const Partition p{100, 9 * 64 + 37, 64};
  for (int devices = 1; devices <= 4; ++devices) {
    std::vector<int> ordinals;
    for (int d = 0; d < devices; ++d)
      ordinals.push_back(d);
    const auto ranges = splitPartition(p, ordinals, std::vector<double>(devices, 1.0));
    expectTiling(p, ranges);
    EXPECT_EQ(static_cast<int>(ranges.size()), devices);
  }
}

TEST(DeviceSplit, FewerGranulesThanDevicesLeaveDevicesOut) {
  const Partition one{0, 1, 1};
  const auto single = splitPartition(one, {0, 1, 2, 3}, {1, 1, 1, 1});
  expectTiling(one, single);
  EXPECT_EQ(single.size(), 1u);

  const Partition three{0, 3, 1};
  const auto ranges = splitPartition(three, {0, 1, 2, 3}, {1, 1, 1, 1});
  expectTiling(three, ranges);
  EXPECT_EQ(ranges.size(), 3u);
}

TEST(DeviceSplit, PrimeExtentTilesExactly) {
  const Partition p{0, 1000003, 1};
  const auto ranges = splitPartition(p, {0, 1, 2}, {1.0, 1.0, 1.0});
  expectTiling(p, ranges);
  ASSERT_EQ(ranges.size(), 3u);
  for (const DeviceRange& r : ranges)
    EXPECT_NEAR(static_cast<double>(r.end - r.begin), 1000003 / 3.0, 1.0);
}

TEST(DeviceSplit, NoRangesWithoutPositiveWeights) {
  EXPECT_TRUE(splitPartition(Partition{0, 10, 1}, {0, 1}, {0.0, 0.0}).empty());
  EXPECT_TRUE(splitPartition(Partition{0, 10, 1}, {0, 1}, {1.0}).empty());
}

TEST(DeviceList, ParsesOrdinals) {
  const auto setting = overlap::parseDeviceList("1,0", 2);
  EXPECT_TRUE(setting.error.empty()) << setting.error;
  EXPECT_EQ(setting.devices, (std::vector<int>{1, 0}));
  EXPECT_TRUE(overlap::parseDeviceList(nullptr, 2).devices.empty());
  EXPECT_TRUE(overlap::parseDeviceList("", 2).devices.empty());
}

TEST(DeviceList, RefusesWhatIsNotAList) {
  for (const char* bad : {"0,", ",1", "a", "0;1", "-1", "0,,1", "1 ,0"}) {
    const auto setting = overlap::parseDeviceList(bad, 4);
    EXPECT_TRUE(setting.devices.empty()) << bad;
    EXPECT_NE(setting.error.find("is not a device ordinal"), std::string::npos) << setting.error;
  }
  EXPECT_NE(overlap::parseDeviceList("0,2", 2).error.find("device 2 is not visible (2 devices)"),
            std::string::npos);
  EXPECT_NE(overlap::parseDeviceList("1,1", 2).error.find("listed twice"), std::string::npos);
}

TEST(DeviceChoice, MaskThenListThenAllVisible) {
  std::vector<int> devices;
  ASSERT_TRUE(overlap::chooseDevices(0, 0b1010, {0}, 4, &devices).ok());
  EXPECT_EQ(devices, (std::vector<int>{1, 3}));
  ASSERT_TRUE(overlap::chooseDevices(0, 0, {2, 0}, 4, &devices).ok());
  EXPECT_EQ(devices, (std::vector<int>{2, 0}));
  ASSERT_TRUE(overlap::chooseDevices(0, 0, {}, 3, &devices).ok());
  EXPECT_EQ(devices, (std::vector<int>{0, 1, 2}));
  ASSERT_TRUE(overlap::chooseDevices(2, 0, {}, 3, &devices).ok());
  EXPECT_EQ(devices, (std::vector<int>{0, 1}));
}

TEST(DeviceChoice, TooManyOrInvisibleDevicesAreErrors) {
  std::vector<int> devices{7};
  const overlap::Status tooMany = overlap::chooseDevices(2, 0, {}, 1, &devices);
  EXPECT_EQ(tooMany.code, cudaErrorInvalidDevice);
  EXPECT_NE(tooMany.message().find("StreamsConfig::devices = 2, but the visible devices give 1"),
            std::string::npos)
      << tooMany.message();
  EXPECT_EQ(devices, std::vector<int>{7}); // untouched
  const overlap::Status invisible = overlap::chooseDevices(0, 0b100, {}, 2, &devices);
  EXPECT_NE(invisible.message().find("names device 2, but 2 devices are visible"),
            std::string::npos)
      << invisible.message();
  EXPECT_FALSE(overlap::chooseDevices(-1, 0, {}, 2, &devices).ok());
  EXPECT_FALSE(overlap::chooseDevices(0, 0, {}, 0, &devices).ok());
}

TEST(CpuList, ParsesRangesAndSingles) {
  EXPECT_EQ(overlap::parseCpuList("0-3,8,10-11"), (std::vector<int>{0, 1, 2, 3, 8, 10, 11}));
  EXPECT_EQ(overlap::parseCpuList("5"), std::vector<int>{5});
  for (const char* bad : {"", "a", "3-1", "0-", ",1", "1,,2", "1,"})
    EXPECT_TRUE(overlap::parseCpuList(bad).empty()) << bad;
}

TEST(DeviceSplitWeight, LinkBandwidthOrEqualShares) {
  overlap::PcieLink gen5;
  gen5.maxGeneration = 5;
  gen5.maxWidth = 16;
  overlap::PcieLink gen4 = gen5;
  gen4.maxGeneration = 4;
  EXPECT_NEAR(overlap::linkWeight(gen5) / overlap::linkWeight(gen4), 2.0, 0.01);
  EXPECT_EQ(overlap::linkWeight(overlap::PcieLink{}), 1.0);
}

} // namespace
