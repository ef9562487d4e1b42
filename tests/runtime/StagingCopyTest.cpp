// The staging ring's copies (overlap/StagingCopy.h): a drain's non-temporal stores move exactly
// the bytes asked, whatever the alignment of either side and the length, and touch nothing
// around them.
#include "overlap/StagingCopy.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace {

std::vector<unsigned char> pattern(std::size_t bytes, unsigned seed) {
  std::vector<unsigned char> data(bytes);
  std::uint32_t state = seed * 2654435761u + 1;
  for (unsigned char& byte : data) {
    state = state * 1664525u + 1013904223u;
    byte = static_cast<unsigned char>(state >> 24);
  }
  return data;
}

TEST(StagingCopy, ADrainMovesExactlyItsBytesAtAnyAlignment) {
  constexpr std::size_t kGuard = 64;
  for (const std::size_t bytes :
       {std::size_t{0}, std::size_t{1}, std::size_t{15}, std::size_t{16}, std::size_t{63},
        std::size_t{64}, std::size_t{65}, std::size_t{1000}, std::size_t{65537}})
    for (std::size_t userOffset = 0; userOffset < 17; ++userOffset)
      for (const std::size_t slotOffset : {std::size_t{0}, std::size_t{3}, std::size_t{16}}) {
        SCOPED_TRACE(::testing::Message()
                     << bytes << " bytes, user +" << userOffset << ", slot +" << slotOffset);
        // One byte more than read: an empty vector's null data() is no slot.
        const std::vector<unsigned char> slot = pattern(bytes + slotOffset + 1, 1);
        std::vector<unsigned char> user = pattern(bytes + userOffset + 2 * kGuard, 2);
        std::vector<unsigned char> expected = user;
        for (std::size_t i = 0; i < bytes; ++i)
          expected[kGuard + userOffset + i] = slot[slotOffset + i];
        overlap::drainSlot(user.data() + kGuard + userOffset, slot.data() + slotOffset, bytes);
        ASSERT_EQ(user, expected);
      }
}

TEST(StagingCopy, AFillMovesExactlyItsBytes) {
  const std::vector<unsigned char> user = pattern(1001, 3);
  std::vector<unsigned char> slot(1003, 0xee);
  overlap::fillSlot(slot.data() + 1, user.data(), user.size());
  EXPECT_EQ(slot.front(), 0xee);
  EXPECT_EQ(slot.back(), 0xee);
  EXPECT_TRUE(std::equal(user.begin(), user.end(), slot.begin() + 1));
}

} // namespace
