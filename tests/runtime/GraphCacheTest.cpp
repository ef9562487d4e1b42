// Where a captured graph goes (GraphCache.h): a new entry while there is room; where full, the
// least recently used entry, updated where it has the graph's shape, else evicted; and the
// statistics' arithmetic. The cache's CUDA side is tested on the GPU
// (tests/gpu/GraphExamplesTest.cpp).
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

TEST(GraphSlot, WhenFullUpdatesTheLeastRecentEntryWhereItHasTheShape) {
  const std::vector<GraphCacheEntry> entries = {entry("a", 5), entry("b", 4), entry("a", 3)};
  const GraphSlot slot = chooseGraphSlot(entries, "a", 3);
  EXPECT_EQ(slot.action, GraphSlotAction::Update);
  EXPECT_EQ(slot.entry, 2u);
}

TEST(GraphSlot, WhenFullEvictsTheLeastRecentEntryEvenBesideOneOfTheShape) {
  // A shape that came late to a full cache (the frame loop's larger frames): the stale "b" goes,
  // not the "a" entry the call could update; else "a" would keep one entry, updated every call.
  const std::vector<GraphCacheEntry> entries = {entry("a", 5), entry("b", 1), entry("a", 3)};
  for (const char* shape : {"a", "c"}) {
    const GraphSlot slot = chooseGraphSlot(entries, shape, 3);
    EXPECT_EQ(slot.action, GraphSlotAction::Replace) << shape;
    EXPECT_EQ(slot.entry, 1u) << shape;
  }
  // Over capacity (the capacity was lowered): still one entry in place of another, none added.
  EXPECT_EQ(chooseGraphSlot(entries, "c", 1).action, GraphSlotAction::Replace);
}

TEST(GraphCacheStatsArithmetic, SumsAndDifferencesEveryCount) {
  const auto counts = [](const GraphCacheStats& s) {
    return std::vector<long long>{s.replays, s.captures,  s.instantiations,
                                  s.updates, s.evictions, s.uncaptured};
  };
  const GraphCacheStats one{1, 2, 3, 4, 5, 6};
  GraphCacheStats sum = one;
  sum += one;
  EXPECT_EQ(counts(sum), (std::vector<long long>{2, 4, 6, 8, 10, 12}));
  EXPECT_EQ(counts(sum - one), counts(one));
}

} // namespace
} // namespace overlap
