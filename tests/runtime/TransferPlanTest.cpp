#include "overlap/TransferPlan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <utility>
#include <vector>

namespace {

using overlap::ArrayCopy;
using overlap::ArrayTransferNeeds;
using overlap::Section;
using overlap::TransferPlan;

// Sections as pairs, which GoogleTest compares and prints.
using Ranges = std::vector<std::pair<long long, long long>>;

Ranges ranges(const std::vector<Section>& sections) {
  Ranges out;
  for (const Section& s : sections)
    out.emplace_back(s.begin, s.end);
  return out;
}

std::vector<Section> sectionsOf(const std::vector<ArrayCopy>& copies, int array) {
  std::vector<Section> sections;
  for (const ArrayCopy& copy : copies)
    if (copy.array == array)
      sections.push_back(copy.elements);
  return sections;
}

Ranges rangesOf(const std::vector<ArrayCopy>& copies, int array) {
  return ranges(sectionsOf(copies, array));
}

// The chunked needs of an input read like paper 001's buoydiff: level 0 of every column is
// broadcast, chunk [lo, hi) of levels needs levels lo-1 .. hi-1, all clipped to the array.
ArrayTransferNeeds verticalHaloInput(long long levels, long long plane, int chunks) {
  ArrayTransferNeeds needs;
  needs.copyIn = true;
  needs.broadcast = {{0, plane}};
  for (int c = 0; c < chunks; ++c) {
    long long lo = 0;
    long long hi = 0;
    overlap::chunkBounds(levels, chunks, c, lo, hi);
    needs.chunked.push_back({overlap::clip({(lo - 1) * plane, hi * plane}, levels * plane)});
  }
  return needs;
}

ArrayTransferNeeds tiled(long long extent, int chunks, bool in, bool out) {
  ArrayTransferNeeds needs;
  needs.copyIn = in;
  needs.copyOut = out;
  for (int c = 0; c < chunks; ++c) {
    long long lo = 0;
    long long hi = 0;
    overlap::chunkBounds(extent, chunks, c, lo, hi);
    needs.chunked.push_back({{lo, hi}});
  }
  return needs;
}

TEST(MergeSections, SortsMergesOverlappingAndTouchingDropsEmpty) {
  const std::vector<Section> merged =
      overlap::mergeSections({{20, 30}, {5, 5}, {0, 10}, {10, 12}, {25, 40}, {50, 49}, {41, 42}});
  EXPECT_EQ(ranges(merged), (Ranges{{0, 12}, {20, 40}, {41, 42}}));
  EXPECT_TRUE(overlap::mergeSections({}).empty());
}

TEST(TransferPlan, TiledArraysAreCopiedPerChunkWithoutWaits) {
  const TransferPlan plan = overlap::planTransfers(
      {tiled(100, 3, true, false), tiled(100, 3, true, true), tiled(100, 3, false, true)}, 3);
  EXPECT_TRUE(plan.broadcastIn.empty());
  EXPECT_TRUE(plan.broadcastOut.empty());
  ASSERT_EQ(plan.chunks.size(), 3u);
  const Section expected[] = {{0, 33}, {33, 66}, {66, 100}};
  for (int c = 0; c < 3; ++c) {
    SCOPED_TRACE(c);
    const auto& chunk = plan.chunks[static_cast<std::size_t>(c)];
    EXPECT_EQ(rangesOf(chunk.copyIn, 0), (Ranges{{expected[c].begin, expected[c].end}}));
    EXPECT_EQ(rangesOf(chunk.copyIn, 1), (Ranges{{expected[c].begin, expected[c].end}}));
    EXPECT_TRUE(sectionsOf(chunk.copyIn, 2).empty()) << "a pure output is never copied in";
    EXPECT_TRUE(sectionsOf(chunk.copyOut, 0).empty()) << "a pure input is never copied out";
    EXPECT_EQ(rangesOf(chunk.copyOut, 1), (Ranges{{expected[c].begin, expected[c].end}}));
    EXPECT_EQ(rangesOf(chunk.copyOut, 2), (Ranges{{expected[c].begin, expected[c].end}}));
    EXPECT_TRUE(chunk.waitsFor.empty());
    EXPECT_FALSE(chunk.awaited);
  }
}

TEST(TransferPlan, HaloLevelsAreCopiedOnceAndAwaitedByTheNextChunk) {
  const long long plane = 10;
  const TransferPlan plan = overlap::planTransfers({verticalHaloInput(8, plane, 4)}, 4);
  EXPECT_EQ(rangesOf(plan.broadcastIn, 0), (Ranges{{0, 10}}));
  ASSERT_EQ(plan.chunks.size(), 4u);
  // Chunk c holds levels 2c, 2c+1 and needs level 2c-1 too, which chunk c-1 copied.
  EXPECT_EQ(rangesOf(plan.chunks[0].copyIn, 0), (Ranges{{10, 20}}));
  EXPECT_TRUE(plan.chunks[0].waitsFor.empty()) << "level 0 is the broadcast's";
  for (int c = 1; c < 4; ++c) {
    SCOPED_TRACE(c);
    const auto& chunk = plan.chunks[static_cast<std::size_t>(c)];
    EXPECT_EQ(rangesOf(chunk.copyIn, 0), (Ranges{{2 * c * plane, (2 * c + 2) * plane}}));
    EXPECT_EQ(chunk.waitsFor, std::vector<int>{c - 1});
  }
  EXPECT_TRUE(plan.chunks[0].awaited);
  EXPECT_TRUE(plan.chunks[1].awaited);
  EXPECT_TRUE(plan.chunks[2].awaited);
  EXPECT_FALSE(plan.chunks[3].awaited);
}

TEST(TransferPlan, UnsharedEveryChunkCopiesItsWholeHaloAndWaitsForNone) {
  // The out-of-core ring: chunk c's slot holds nothing of chunk c-1's copies.
  const long long plane = 10;
  ArrayTransferNeeds halo = verticalHaloInput(8, plane, 4);
  halo.broadcast.clear(); // a ringed array has no broadcast sections
  const TransferPlan plan = overlap::planTransfers({halo, tiled(80, 4, false, true)}, 4, false);
  EXPECT_TRUE(plan.broadcastIn.empty());
  EXPECT_EQ(rangesOf(plan.chunks[0].copyIn, 0), (Ranges{{0, 20}}));
  for (int c = 0; c < 4; ++c) {
    SCOPED_TRACE(c);
    const auto& chunk = plan.chunks[static_cast<std::size_t>(c)];
    if (c > 0) {
      EXPECT_EQ(rangesOf(chunk.copyIn, 0), (Ranges{{(2 * c - 1) * plane, (2 * c + 2) * plane}}));
    }
    EXPECT_TRUE(chunk.waitsFor.empty());
    EXPECT_FALSE(chunk.awaited);
    EXPECT_EQ(rangesOf(chunk.copyOut, 1), (Ranges{{20 * c, 20 * c + 20}}));
  }
}

TEST(TransferPlan, SectionsInsideTheBroadcastNeedNeitherCopiesNorWaits) {
  ArrayTransferNeeds needs;
  needs.copyIn = true;
  needs.broadcast = {{0, 100}};
  needs.chunked = {{{0, 50}}, {{40, 100}}};
  const TransferPlan plan = overlap::planTransfers({needs}, 2);
  EXPECT_EQ(rangesOf(plan.broadcastIn, 0), (Ranges{{0, 100}}));
  for (const auto& chunk : plan.chunks) {
    EXPECT_TRUE(chunk.copyIn.empty());
    EXPECT_TRUE(chunk.waitsFor.empty());
    EXPECT_FALSE(chunk.awaited);
  }
}

TEST(TransferPlan, AChunksOwnOverlappingSectionsMergeAndNeverWaitOnItself) {
  ArrayTransferNeeds needs;
  needs.copyIn = true;
  needs.chunked = {{{0, 10}, {5, 20}, {20, 25}}, {{15, 30}, {28, 40}}};
  const TransferPlan plan = overlap::planTransfers({needs}, 2);
  EXPECT_EQ(rangesOf(plan.chunks[0].copyIn, 0), (Ranges{{0, 25}}));
  EXPECT_TRUE(plan.chunks[0].waitsFor.empty());
  EXPECT_EQ(rangesOf(plan.chunks[1].copyIn, 0), (Ranges{{25, 40}}));
  EXPECT_EQ(plan.chunks[1].waitsFor, std::vector<int>{0});
}

TEST(TransferPlan, BroadcastOutputsAreCopiedOutOnceAfterAllChunks) {
  ArrayTransferNeeds histogram; // InOut, whole array, written by every chunk
  histogram.copyIn = true;
  histogram.copyOut = true;
  histogram.broadcast = {{0, 256}};
  histogram.chunked = {{}, {}};
  const TransferPlan plan = overlap::planTransfers({histogram, tiled(64, 2, true, false)}, 2);
  EXPECT_EQ(rangesOf(plan.broadcastIn, 0), (Ranges{{0, 256}}));
  EXPECT_EQ(rangesOf(plan.broadcastOut, 0), (Ranges{{0, 256}}));
  EXPECT_TRUE(sectionsOf(plan.broadcastOut, 1).empty());
  for (const auto& chunk : plan.chunks)
    EXPECT_TRUE(sectionsOf(chunk.copyOut, 0).empty());
}

TEST(TransferPlan, ArraysThatAreNeitherCopiedInNorOutAreIgnored) {
  ArrayTransferNeeds mappedOutput; // Hybrid's mapped outputs come without chunked sections
  const TransferPlan plan = overlap::planTransfers({mappedOutput, tiled(10, 2, true, false)}, 2);
  EXPECT_TRUE(plan.broadcastIn.empty());
  for (const auto& chunk : plan.chunks) {
    EXPECT_TRUE(sectionsOf(chunk.copyIn, 0).empty());
    EXPECT_EQ(rangesOf(chunk.copyIn, 1).size(), 1u);
  }
}

// Random sections, random chunk counts: each element is copied in exactly once, by the broadcast
// or by the first chunk that needs it; every chunk finds each element it needs in its own copies,
// the broadcast, or a chunk it waits for; nothing unneeded is copied.
TEST(TransferPlan, RandomSectionsAreCopiedOnceAndAlwaysCovered) {
  const std::uint32_t seed = std::random_device{}();
  SCOPED_TRACE(testing::Message() << "seed " << seed);
  std::mt19937 random(seed);
  for (int round = 0; round < 200; ++round) {
    const long long extent = std::uniform_int_distribution<long long>(1, 300)(random);
    const int chunks = std::uniform_int_distribution<int>(1, 12)(random);
    const int arrays = std::uniform_int_distribution<int>(1, 3)(random);
    std::uniform_int_distribution<long long> position(-20, extent + 20);
    const auto randomSection = [&] {
      long long a = position(random);
      long long b = position(random);
      return overlap::clip({std::min(a, b), std::max(a, b)}, extent);
    };
    std::vector<ArrayTransferNeeds> needs(static_cast<std::size_t>(arrays));
    for (ArrayTransferNeeds& need : needs) {
      need.copyIn = true;
      for (int s = std::uniform_int_distribution<int>(0, 2)(random); s > 0; --s)
        need.broadcast.push_back(randomSection());
      need.chunked.resize(static_cast<std::size_t>(chunks));
      for (auto& sections : need.chunked)
        for (int s = std::uniform_int_distribution<int>(0, 3)(random); s > 0; --s)
          sections.push_back(randomSection());
    }
    const TransferPlan plan = overlap::planTransfers(needs, chunks);
    ASSERT_EQ(plan.chunks.size(), static_cast<std::size_t>(chunks));

    for (int a = 0; a < arrays; ++a) {
      SCOPED_TRACE(testing::Message() << "round " << round << ", array " << a);
      const ArrayTransferNeeds& need = needs[static_cast<std::size_t>(a)];
      // copier[e]: -1 broadcast, c chunk, -2 nobody. Copied twice is a failure right here.
      std::vector<int> copier(static_cast<std::size_t>(extent), -2);
      const auto mark = [&](const std::vector<ArrayCopy>& copies, int who) {
        for (const Section& s : sectionsOf(copies, a))
          for (long long e = s.begin; e < s.end; ++e) {
            ASSERT_EQ(copier[static_cast<std::size_t>(e)], -2) << "element " << e << " twice";
            copier[static_cast<std::size_t>(e)] = who;
          }
      };
      mark(plan.broadcastIn, -1);
      for (int c = 0; c < chunks; ++c)
        mark(plan.chunks[static_cast<std::size_t>(c)].copyIn, c);

      std::vector<bool> needed(static_cast<std::size_t>(extent), false);
      for (const Section& s : need.broadcast)
        for (long long e = s.begin; e < s.end; ++e)
          needed[static_cast<std::size_t>(e)] = true;
      for (int c = 0; c < chunks; ++c) {
        const auto& chunk = plan.chunks[static_cast<std::size_t>(c)];
        const std::set<int> waits(chunk.waitsFor.begin(), chunk.waitsFor.end());
        for (const Section& s : need.chunked[static_cast<std::size_t>(c)])
          for (long long e = s.begin; e < s.end; ++e) {
            needed[static_cast<std::size_t>(e)] = true;
            const int who = copier[static_cast<std::size_t>(e)];
            EXPECT_TRUE(who == -1 || who == c || (who >= 0 && who < c && waits.count(who) == 1))
                << "chunk " << c << " needs element " << e << " copied by " << who;
          }
      }
      for (long long e = 0; e < extent; ++e)
        EXPECT_EQ(needed[static_cast<std::size_t>(e)], copier[static_cast<std::size_t>(e)] != -2)
            << "element " << e;
    }
    for (int c = 0; c < chunks; ++c) {
      const auto& chunk = plan.chunks[static_cast<std::size_t>(c)];
      EXPECT_TRUE(std::is_sorted(chunk.waitsFor.begin(), chunk.waitsFor.end()));
      for (int earlier : chunk.waitsFor) {
        EXPECT_LT(earlier, c);
        EXPECT_GE(earlier, 0);
        EXPECT_TRUE(plan.chunks[static_cast<std::size_t>(earlier)].awaited);
      }
    }
    if (HasFailure())
      return;
  }
}

} // namespace
