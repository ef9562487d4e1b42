#include "overlap/KernelTypes.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace {

struct Chunk {
  long long lo;
  long long hi;
};

std::vector<Chunk> chunksOf(long long extent, long long count) {
  std::vector<Chunk> chunks;
  for (long long c = 0; c < count; ++c) {
    Chunk chunk{};
    overlap::chunkBounds(extent, count, c, chunk.lo, chunk.hi);
    chunks.push_back(chunk);
  }
  return chunks;
}

const long long kExtents[] = {1, 2, 3, 7, 63, 1009, (1LL << 24) + 3, (1LL << 40) + 7};
const long long kCounts[] = {1, 2, 3, 7, 16, 64, 1000};

TEST(ChunkBounds, ChunksTileTheExtentInOrder) {
  for (long long extent : kExtents)
    for (long long count : kCounts) {
      SCOPED_TRACE(testing::Message() << "extent " << extent << ", count " << count);
      const std::vector<Chunk> chunks = chunksOf(extent, count);
      EXPECT_EQ(chunks.front().lo, 0);
      EXPECT_EQ(chunks.back().hi, extent);
      for (std::size_t c = 0; c + 1 < chunks.size(); ++c)
        EXPECT_EQ(chunks[c].hi, chunks[c + 1].lo) << "chunk " << c;
      for (const Chunk& chunk : chunks)
        EXPECT_LE(chunk.lo, chunk.hi);
    }
}

TEST(ChunkBounds, EveryChunkHasWorkWhenThereAreEnoughElements) {
  for (long long extent : kExtents)
    for (long long count : kCounts) {
      if (count > extent)
        continue;
      SCOPED_TRACE(testing::Message() << "extent " << extent << ", count " << count);
      for (const Chunk& chunk : chunksOf(extent, count))
        EXPECT_LT(chunk.lo, chunk.hi);
    }
}

TEST(ChunkBounds, SizesDifferByAtMostOne) {
  for (long long extent : kExtents)
    for (long long count : kCounts) {
      SCOPED_TRACE(testing::Message() << "extent " << extent << ", count " << count);
      const std::vector<Chunk> chunks = chunksOf(extent, count);
      const auto size = [](const Chunk& c) { return c.hi - c.lo; };
      const auto [smallest, largest] =
          std::minmax_element(chunks.begin(), chunks.end(),
                              [&](const Chunk& a, const Chunk& b) { return size(a) < size(b); });
      EXPECT_LE(size(*largest) - size(*smallest), 1);
    }
}

// The partitions with an origin and a granule: P < G, P = 1, P prime, G not dividing P, B != 0
// (negative too, as a range [iy_start, iy_end) may start anywhere), and a large P.
const overlap::Partition kPartitions[] = {{0, 3, 4},
                                          {0, 1, 1},
                                          {0, 1, 4},
                                          {0, 1009, 1},
                                          {0, 1009, 4},
                                          {0, 1009, 2},
                                          {1, 98, 1},
                                          {1, 98, 4},
                                          {-5, 37, 3},
                                          {7, 4, 4},
                                          {7, 8, 4},
                                          {1000, 4097, 256},
                                          {0, 12, 4},
                                          {3, 12, 4},
                                          {0, 1LL << 40, 3},
                                          {0, 2, 1000000},
                                          {-(1LL << 50), (1LL << 50) + 9, 16}};
const long long kStreams[] = {1, 2, 3, 4, 7, 16, 64};

std::vector<Chunk> chunksOf(const overlap::Partition& partition, long long streams) {
  std::vector<Chunk> chunks;
  const long long count = overlap::chunkCount(partition, streams);
  for (long long c = 0; c < count; ++c) {
    Chunk chunk{};
    overlap::chunkBounds(partition, count, c, chunk.lo, chunk.hi);
    chunks.push_back(chunk);
  }
  return chunks;
}

std::string describe(const overlap::Partition& p, long long streams) {
  return "begin " + std::to_string(p.begin) + ", extent " + std::to_string(p.extent) +
         ", granule " + std::to_string(p.granule) + ", streams " + std::to_string(streams);
}

TEST(ChunkBoundsWithGranule, CountIsStreamsButNeverMoreThanTheGranules) {
  EXPECT_EQ(overlap::chunkCount({0, 3, 4}, 8), 1); // P < G: one chunk
  EXPECT_EQ(overlap::chunkCount({0, 1, 1}, 8), 1); // P = 1
  EXPECT_EQ(overlap::chunkCount({0, 9, 4}, 8), 3); // 4 + 4 + 1
  EXPECT_EQ(overlap::chunkCount({5, 9, 4}, 2), 2); // the origin does not matter
  EXPECT_EQ(overlap::chunkCount({0, 1009, 1}, 7), 7);
  EXPECT_EQ(overlap::chunkCount({0, 0, 4}, 7), 0); // nothing to chunk
  EXPECT_EQ(overlap::granuleCount({0, 1LL << 62, 1}), 1LL << 62);
  EXPECT_EQ(overlap::granuleCount({0, (1LL << 62) + 1, 1LL << 61}), 3);
}

TEST(ChunkBoundsWithGranule, ChunksTileThePartitionAtGranuleBoundaries) {
  for (const overlap::Partition& partition : kPartitions)
    for (long long streams : kStreams) {
      SCOPED_TRACE(describe(partition, streams));
      const std::vector<Chunk> chunks = chunksOf(partition, streams);
      ASSERT_FALSE(chunks.empty());
      EXPECT_EQ(chunks.front().lo, partition.begin);
      EXPECT_EQ(chunks.back().hi, partition.begin + partition.extent);
      for (std::size_t c = 0; c + 1 < chunks.size(); ++c) {
        EXPECT_EQ(chunks[c].hi, chunks[c + 1].lo) << "chunk " << c;
        EXPECT_EQ((chunks[c].hi - partition.begin) % partition.granule, 0) << "chunk " << c;
      }
      for (const Chunk& chunk : chunks)
        EXPECT_LT(chunk.lo, chunk.hi) << "every chunk has work";
    }
}

TEST(ChunkBoundsWithGranule, LengthsDifferByAtMostOneGranule) {
  for (const overlap::Partition& partition : kPartitions)
    for (long long streams : kStreams) {
      SCOPED_TRACE(describe(partition, streams));
      const std::vector<Chunk> chunks = chunksOf(partition, streams);
      const auto size = [](const Chunk& c) { return c.hi - c.lo; };
      const auto [smallest, largest] =
          std::minmax_element(chunks.begin(), chunks.end(),
                              [&](const Chunk& a, const Chunk& b) { return size(a) < size(b); });
      EXPECT_LE(size(*largest) - size(*smallest), partition.granule);
    }
}

TEST(ChunkBoundsWithGranule, ExamplesByHand) {
  long long lo = 0;
  long long hi = 0;
  // 10 elements from 1 in granules of 4: [1, 5) [5, 11) with two chunks (granules 1 and 2).
  overlap::chunkBounds({1, 10, 4}, 2, 0, lo, hi);
  EXPECT_EQ(lo, 1);
  EXPECT_EQ(hi, 5);
  overlap::chunkBounds({1, 10, 4}, 2, 1, lo, hi);
  EXPECT_EQ(lo, 5);
  EXPECT_EQ(hi, 11);
  // P < G: the whole partition.
  overlap::chunkBounds({-3, 3, 4}, 1, 0, lo, hi);
  EXPECT_EQ(lo, -3);
  EXPECT_EQ(hi, 0);
}

} // namespace
