#include "overlap/PageRange.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace {

constexpr std::size_t kPage = 4096;

// Addresses only: grouping never touches the memory.
overlap::HostArrayUse useAt(std::uintptr_t address, std::size_t bytes, bool written = false,
                            bool mapped = false) {
  return {reinterpret_cast<const void*>(address), bytes, written, mapped};
}

TEST(PageRanges, ArraysSharingAPageAreRegisteredTogether) {
  // x ends in the page where y begins (two arrays carved from one allocation).
  const std::vector<overlap::HostArrayUse> uses = {useAt(0x10010, 5000), useAt(0x11398, 100, true)};
  const auto ranges = overlap::groupPageRanges(uses, {0, 1}, kPage);
  ASSERT_EQ(ranges.size(), 1u);
  EXPECT_EQ(ranges[0].begin, 0x10000u);
  EXPECT_EQ(ranges[0].end, 0x12000u);
  EXPECT_TRUE(ranges[0].written);
  EXPECT_FALSE(ranges[0].mapped);
  EXPECT_EQ(ranges[0].arrays, (std::vector<int>{0, 1}));
}

TEST(PageRanges, OverlappingArraysMergeInAnyOrder) {
  const std::vector<overlap::HostArrayUse> uses = {
      useAt(0x20000, 3 * kPage, false, true), useAt(0x10000, 2 * kPage), useAt(0x11000, kPage)};
  const auto ranges = overlap::groupPageRanges(uses, {0, 1, 2}, kPage);
  ASSERT_EQ(ranges.size(), 2u);
  EXPECT_EQ(ranges[0].begin, 0x10000u);
  EXPECT_EQ(ranges[0].end, 0x12000u);
  EXPECT_EQ(ranges[0].arrays, (std::vector<int>{1, 2}));
  EXPECT_FALSE(ranges[0].mapped);
  EXPECT_EQ(ranges[1].begin, 0x20000u);
  EXPECT_EQ(ranges[1].end, 0x23000u);
  EXPECT_TRUE(ranges[1].mapped);
}

TEST(PageRanges, TouchingPageRangesStaySeparate) {
  // They may be two allocations; one registration across the boundary could span unmapped pages.
  const std::vector<overlap::HostArrayUse> uses = {useAt(0x10000, kPage), useAt(0x11000, kPage)};
  const auto ranges = overlap::groupPageRanges(uses, {0, 1}, kPage);
  ASSERT_EQ(ranges.size(), 2u);
  EXPECT_EQ(ranges[0].end, ranges[1].begin);
}

TEST(PageRanges, OnlyNonEmptyCandidatesAreGrouped) {
  const std::vector<overlap::HostArrayUse> uses = {useAt(0x10000, 0), useAt(0x20000, 8),
                                                   useAt(0x30000, 8)};
  const auto ranges = overlap::groupPageRanges(uses, {0, 2}, kPage);
  ASSERT_EQ(ranges.size(), 1u);
  EXPECT_EQ(ranges[0].arrays, (std::vector<int>{2}));
  EXPECT_EQ(ranges[0].begin, 0x30000u);
  EXPECT_EQ(ranges[0].end, 0x31000u);
}

} // namespace
