// Where a captured graph goes (GraphCache.h): a new entry while there is room; where full, an
// update of the least recently used entry of its shape, else the least recently used entry is
// evicted. The cache's CUDA side is tested on the GPU (tests/gpu/GraphExamplesTest.cpp).
#include "overlap/GraphCache.h"

#include <gtest/gtest.h>

#include <vector>

namespace overlap {
namespace {

GraphCacheEntry entry(const char* shape, unsigned long long lastUse) {
  GraphCacheEntry e;
  e.shape = shape;
  e.arguments = "args";
  e.lastUse = lastUse;
  return e;
}

TEST(GraphSlot, AppendsWhileThereIsRoom) {
  const std::vector<GraphCacheEntry> entries = {entry("a", 1), entry("b", 2)};
  const GraphSlot slot = chooseGraphSlot(entries, "a", 3);
  EXPECT_EQ(slot.action, GraphSlotAction::Append);
  EXPECT_EQ(slot.entry, 2u);
  EXPECT_EQ(chooseGraphSlot({}, "a", 1).action, GraphSlotAction::Append);
}

TEST(GraphSlot, WhenFullUpdatesTheLeastRecentEntryOfTheSameShape) {
  const std::vector<GraphCacheEntry> entries = {entry("a", 5), entry("b", 1), entry("a", 3)};
  const GraphSlot slot = chooseGraphSlot(entries, "a", 3);
  EXPECT_EQ(slot.action, GraphSlotAction::Update);
  EXPECT_EQ(slot.entry, 2u); // "a" used at 3, not the older "b"
}

TEST(GraphSlot, WhenFullWithoutItsShapeReplacesTheLeastRecentEntry) {
  const std::vector<GraphCacheEntry> entries = {entry("a", 5), entry("b", 1), entry("a", 3)};
  const GraphSlot slot = chooseGraphSlot(entries, "c", 3);
  EXPECT_EQ(slot.action, GraphSlotAction::Replace);
  EXPECT_EQ(slot.entry, 1u);
  // Over capacity (the capacity was lowered): still one entry in place of another, none added.
  EXPECT_EQ(chooseGraphSlot(entries, "c", 1).action, GraphSlotAction::Replace);
}

} // namespace
} // namespace overlap
