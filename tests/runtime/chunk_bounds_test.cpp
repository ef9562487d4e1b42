#include "overlap/kernel_types.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace {

struct Chunk {
  long long lo;
  long long hi;
};

std::vector<Chunk> chunks_of(long long extent, long long count) {
  std::vector<Chunk> chunks;
  for (long long c = 0; c < count; ++c) {
    Chunk chunk{};
    overlap::chunk_bounds(extent, count, c, chunk.lo, chunk.hi);
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
      const std::vector<Chunk> chunks = chunks_of(extent, count);
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
      for (const Chunk& chunk : chunks_of(extent, count))
        EXPECT_LT(chunk.lo, chunk.hi);
    }
}

TEST(ChunkBounds, SizesDifferByAtMostOne) {
  for (long long extent : kExtents)
    for (long long count : kCounts) {
      SCOPED_TRACE(testing::Message() << "extent " << extent << ", count " << count);
      const std::vector<Chunk> chunks = chunks_of(extent, count);
      const auto size = [](const Chunk& c) { return c.hi - c.lo; };
      const auto [smallest, largest] =
          std::minmax_element(chunks.begin(), chunks.end(),
                              [&](const Chunk& a, const Chunk& b) { return size(a) < size(b); });
      EXPECT_LE(size(*largest) - size(*smallest), 1);
    }
}

} // namespace
