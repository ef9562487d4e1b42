// The graph forms of Streams and Hybrid (StreamsConfig::graph, overlap/GraphCache.h) through the
// generated examples: every call of a sequence that runs uncaptured, is captured, replays, is
// captured for other arrays and replays again equals Explicit on fresh random data, synchronous and
// asynchronous, at odd sizes and both issue orders; and the device's cache replays, instantiates,
// updates in place and evicts as GraphCache.h says.
#include "ExampleCases.h"
#include "GpuTestSupport.h"
#include "buoydiff.overlap.h"
#include "saxpy.overlap.h"

#include "overlap/DeviceContext.h"
#include "overlap/GraphCache.h"

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace {

using overlap::GraphCacheStats;
using overlap::IssueOrder;
using overlap::StreamsConfig;
using overlap::Variant;
using overlap::test::bitwiseEqual;
using overlap::test::HostBuffer;
using overlap::test::HostMemory;

struct GraphCase {
  overlap::test::ExampleCase variant;
  bool async = false;
};

std::string graphCaseName(const testing::TestParamInfo<GraphCase>& info) {
  return describe(info.param.variant) + (info.param.async ? "Async" : "Sync");
}

std::vector<GraphCase> graphCases() {
  std::vector<GraphCase> cases;
  for (Variant variant : {Variant::Streams, Variant::Hybrid})
    for (IssueOrder order : {IssueOrder::DepthFirst, IssueOrder::BreadthFirst})
      for (bool async : {false, true}) {
        for (int streams : {1, 3, 16})
          cases.push_back({{variant, streams, order, 0, false, true}, async});
        cases.push_back({{variant, 3, order, 10, false, true}, async});
      }
  return cases;
}

// What the cache did between two snapshots.
GraphCacheStats since(const GraphCacheStats& before) {
  return overlap::graphCacheStats() - before;
}

std::string describe(const GraphCacheStats& s) {
  return "replays " + std::to_string(s.replays) + ", captures " + std::to_string(s.captures) +
         ", instantiations " + std::to_string(s.instantiations) + ", updates " +
         std::to_string(s.updates) + ", evictions " + std::to_string(s.evictions) +
         ", uncaptured " + std::to_string(s.uncaptured);
}

// Pinned host arrays of one call, filled with fresh random data for each call.
struct Arrays {
  HostBuffer<float> in;
  HostBuffer<float> out;
};

class GraphFormTest : public testing::TestWithParam<GraphCase> {
protected:
  void SetUp() override {
    OVERLAP_SKIP_WITHOUT_GPU();
    OVERLAP_ASSERT_OK(overlap::releaseCachedDeviceMemory()); // no graphs of other tests
  }

  // The case's call on `stream` (asynchronous) or synchronously, waited for either way.
  template <class Sync, class Async> overlap::Status call(Sync&& sync, Async&& async) {
    const StreamsConfig config = overlap::test::configOf(GetParam().variant);
    if (!GetParam().async)
      return sync(config);
    const overlap::Status status = async(config);
    const cudaError_t synced = cudaStreamSynchronize(nullptr);
    if (!status.ok())
      return status;
    return {synced, "cudaStreamSynchronize", __FILE__, __LINE__};
  }

  overlap::test::Random random_;
};

// Arrays A, A, A, B, A: uncaptured, captured, replayed, captured for B, A replayed.
constexpr int kSequence[] = {0, 0, 0, 1, 0};

TEST_P(GraphFormTest, SaxpyEveryCallOfASequenceEqualsExplicit) {
  SCOPED_TRACE(random_.trace());
  const bool streams = GetParam().variant.variant == Variant::Streams;
  for (const int n : {1, 2, 1009, (1 << 20) + 3}) {
    if (n > overlap::test::maxTestExtent())
      continue;
    SCOPED_TRACE("n = " + std::to_string(n));
    const std::size_t count = static_cast<std::size_t>(n);
    Arrays arrays[2];
    for (Arrays& a : arrays) {
      OVERLAP_ASSERT_OK(HostBuffer<float>::allocate(count, HostMemory::Pinned, &a.in));
      OVERLAP_ASSERT_OK(HostBuffer<float>::allocate(count, HostMemory::Pinned, &a.out));
    }
    const GraphCacheStats before = overlap::graphCacheStats();
    int step = 0;
    for (const int which : kSequence) {
      SCOPED_TRACE("call " + std::to_string(step++));
      Arrays& a = arrays[which];
      random_.fill(a.in.data(), count);
      random_.fill(a.out.data(), count);
      std::vector<float> want(a.out.data(), a.out.data() + count);
      OVERLAP_ASSERT_OK(saxpy_explicit(n, 0.75f, a.in.data(), want.data()));
      OVERLAP_ASSERT_OK(call(
          [&](const StreamsConfig& config) {
            return streams ? saxpy_streams(n, 0.75f, a.in.data(), a.out.data(), config)
                           : saxpy_hybrid(n, 0.75f, a.in.data(), a.out.data(), config);
          },
          [&](const StreamsConfig& config) {
            return streams ? saxpy_streams_async(n, 0.75f, a.in.data(), a.out.data(), config, 0)
                           : saxpy_hybrid_async(n, 0.75f, a.in.data(), a.out.data(), config, 0);
          }));
      EXPECT_TRUE(bitwiseEqual(want.data(), a.out.data(), count));
    }
    const GraphCacheStats did = since(before);
    SCOPED_TRACE(describe(did));
    EXPECT_EQ(did.uncaptured, 1);
    EXPECT_EQ(did.captures, 2);
    EXPECT_EQ(did.instantiations, 2);
    EXPECT_EQ(did.replays, 2);
  }
}

// buoydiff: a broadcast level, a halo, and a pure output that Hybrid maps.
TEST_P(GraphFormTest, BuoydiffEveryCallOfASequenceEqualsExplicit) {
  SCOPED_TRACE(random_.trace());
  const bool streams = GetParam().variant.variant == Variant::Streams;
  const long long plane = 1031;
  for (const int levels : {1, 2, 13}) {
    SCOPED_TRACE("levels = " + std::to_string(levels));
    const std::size_t count = static_cast<std::size_t>(levels * plane);
    Arrays arrays[2];
    for (Arrays& a : arrays) {
      OVERLAP_ASSERT_OK(HostBuffer<float>::allocate(count, HostMemory::Pinned, &a.in));
      OVERLAP_ASSERT_OK(HostBuffer<float>::allocate(count, HostMemory::Pinned, &a.out));
    }
    int step = 0;
    for (const int which : kSequence) {
      SCOPED_TRACE("call " + std::to_string(step++));
      Arrays& a = arrays[which];
      random_.fill(a.in.data(), count);
      std::fill(a.out.data(), a.out.data() + count, 7.0f);
      std::vector<float> want(count, 7.0f);
      OVERLAP_ASSERT_OK(buoydiff_explicit(levels, plane, a.in.data(), want.data()));
      OVERLAP_ASSERT_OK(call(
          [&](const StreamsConfig& config) {
            return streams ? buoydiff_streams(levels, plane, a.in.data(), a.out.data(), config)
                           : buoydiff_hybrid(levels, plane, a.in.data(), a.out.data(), config);
          },
          [&](const StreamsConfig& config) {
            return streams
                       ? buoydiff_streams_async(levels, plane, a.in.data(), a.out.data(), config, 0)
                       : buoydiff_hybrid_async(levels, plane, a.in.data(), a.out.data(), config, 0);
          }));
      EXPECT_TRUE(bitwiseEqual(want.data(), a.out.data(), count));
    }
  }
}

INSTANTIATE_TEST_SUITE_P(GraphVariants, GraphFormTest, testing::ValuesIn(graphCases()),
                         graphCaseName);

class GraphCacheTest : public testing::Test {
protected:
  void SetUp() override {
    OVERLAP_SKIP_WITHOUT_GPU();
    OVERLAP_ASSERT_OK(overlap::releaseCachedDeviceMemory());
  }
  void TearDown() override {
    overlap::setGraphCacheCapacity(overlap::GraphCache::kDefaultCapacity);
  }

  // One synchronous Graph-Streams(3) saxpy over `a` of n elements, checked against Explicit.
  void run(Arrays& a, int n, float scalar) {
    const std::size_t count = static_cast<std::size_t>(n);
    random_.fill(a.in.data(), count);
    random_.fill(a.out.data(), count);
    std::vector<float> want(a.out.data(), a.out.data() + count);
    OVERLAP_ASSERT_OK(saxpy_explicit(n, scalar, a.in.data(), want.data()));
    StreamsConfig config{3, IssueOrder::DepthFirst};
    config.graph = true;
    OVERLAP_ASSERT_OK(saxpy_streams(n, scalar, a.in.data(), a.out.data(), config));
    EXPECT_TRUE(bitwiseEqual(want.data(), a.out.data(), count));
  }

  overlap::test::Random random_;
};

// Capacity 2. Each step's expected counts in the comment.
TEST_F(GraphCacheTest, ReplaysInstantiatesUpdatesAndEvictsAsDesigned) {
  SCOPED_TRACE(random_.trace());
  overlap::setGraphCacheCapacity(2);
  const int n = 4099;
  const int other = 4111; // another shape
  Arrays a, b, c, d;
  for (Arrays* arrays : {&a, &b, &c, &d}) {
    OVERLAP_ASSERT_OK(HostBuffer<float>::allocate(other, HostMemory::Pinned, &arrays->in));
    OVERLAP_ASSERT_OK(HostBuffer<float>::allocate(other, HostMemory::Pinned, &arrays->out));
  }
  const auto expect = [](const GraphCacheStats& before, long long replays, long long captures,
                         long long instantiations, long long updates, long long evictions,
                         long long uncaptured) {
    const GraphCacheStats did = since(before);
    EXPECT_EQ(did.replays, replays) << describe(did);
    EXPECT_EQ(did.captures, captures) << describe(did);
    EXPECT_EQ(did.instantiations, instantiations) << describe(did);
    EXPECT_EQ(did.updates, updates) << describe(did);
    EXPECT_EQ(did.evictions, evictions) << describe(did);
    EXPECT_EQ(did.uncaptured, uncaptured) << describe(did);
  };
  const GraphCacheStats start = overlap::graphCacheStats();
  run(a, n, 1.5f); // the shape's first call: uncaptured
  expect(start, 0, 0, 0, 0, 0, 1);
  run(a, n, 1.5f); // captured, a new entry [a]
  run(a, n, 1.5f); // replayed
  expect(start, 1, 1, 1, 0, 0, 1);
  run(b, n, 1.5f); // other pointers, room left: a new entry [a, b]
  run(a, n, 1.5f); // replayed; b is now the least recently used
  expect(start, 2, 2, 2, 0, 0, 1);
  run(c, n, 1.5f); // full: b's entry updated in place to c [a, c]
  run(c, n, 1.5f); // replayed
  run(a, n, 1.5f); // replayed
  expect(start, 4, 3, 2, 1, 0, 1);
  run(a, n, -2.0f); // another scalar: c's entry (least recent) updated [a(1.5), a(-2)]
  run(a, n, -2.0f);
  run(a, n, 1.5f);
  expect(start, 6, 4, 2, 2, 0, 1);
  run(d, other, 1.5f); // another shape: its first call uncaptured
  run(d, other, 1.5f); // captured; full, none of its shape: the least recent, a(-2), evicted
  run(d, other, 1.5f); // replayed
  run(a, n, 1.5f);     // still there
  expect(start, 8, 5, 3, 2, 1, 2);
  // Evicted before: captured anew. The least recently used entry is d's, of another shape: evicted,
  // although a(1.5) has the call's shape (pure LRU) [a(1.5), a(-2)].
  run(a, n, -2.0f);
  run(a, n, 1.5f); // replayed
  expect(start, 9, 6, 4, 2, 2, 2);
}

// Calls whose arguments keep missing (two arrays in turn, one entry): once the shape has missed
// more than 2 x capacity times and at least twice as often as it replayed, its calls that miss run
// plain, still equal to Explicit; a call that hits still replays.
TEST_F(GraphCacheTest, AShapeWhoseCallsKeepMissingRunsPlain) {
  SCOPED_TRACE(random_.trace());
  overlap::setGraphCacheCapacity(1);
  const int n = 1009;
  Arrays a, b;
  for (Arrays* arrays : {&a, &b}) {
    OVERLAP_ASSERT_OK(HostBuffer<float>::allocate(n, HostMemory::Pinned, &arrays->in));
    OVERLAP_ASSERT_OK(HostBuffer<float>::allocate(n, HostMemory::Pinned, &arrays->out));
  }
  const GraphCacheStats before = overlap::graphCacheStats();
  run(a, n, 1.0f); // the shape's first call (miss 1): uncaptured
  run(b, n, 1.0f); // miss 2: captured, the entry holds b
  run(a, n, 1.0f); // miss 3, no replay: plain
  run(b, n, 1.0f); // replayed
  run(a, n, 1.0f); // miss 4, 1 replay: plain
  run(b, n, 1.0f); // replayed
  run(a, n, 1.0f); // miss 5, 2 replays: plain
  const GraphCacheStats did = since(before);
  EXPECT_EQ(did.captures, 1) << describe(did);
  EXPECT_EQ(did.uncaptured, 4) << describe(did);
  EXPECT_EQ(did.replays, 2) << describe(did);
}

// releaseCachedDeviceMemory drops the graphs and what the cache knew: a shape's next call runs
// uncaptured again.
TEST_F(GraphCacheTest, ReleaseDropsTheGraphs) {
  SCOPED_TRACE(random_.trace());
  const int n = 1009;
  Arrays a;
  OVERLAP_ASSERT_OK(HostBuffer<float>::allocate(n, HostMemory::Pinned, &a.in));
  OVERLAP_ASSERT_OK(HostBuffer<float>::allocate(n, HostMemory::Pinned, &a.out));
  run(a, n, 0.5f);
  run(a, n, 0.5f);
  const GraphCacheStats before = overlap::graphCacheStats();
  OVERLAP_ASSERT_OK(overlap::releaseCachedDeviceMemory());
  run(a, n, 0.5f);
  const GraphCacheStats did = since(before);
  EXPECT_EQ(did.uncaptured, 1) << describe(did);
  EXPECT_EQ(did.replays, 0) << describe(did);
}

// Each entry owns its device block, so the cache's graphs allocate no graph memory (memory nodes
// share it between graphs, and graphs in flight on several streams waited for one another); an
// in-place update and an eviction keep every call equal to Explicit.
TEST_F(GraphCacheTest, EntriesOwnTheirBlocksAndHoldNoGraphMemory) {
  SCOPED_TRACE(random_.trace());
  overlap::setGraphCacheCapacity(1);
  const int n = 1 << 20;
  const int other = (1 << 20) + 7;
  Arrays a, b;
  for (Arrays* arrays : {&a, &b}) {
    OVERLAP_ASSERT_OK(HostBuffer<float>::allocate(other, HostMemory::Pinned, &arrays->in));
    OVERLAP_ASSERT_OK(HostBuffer<float>::allocate(other, HostMemory::Pinned, &arrays->out));
  }
  int device = 0;
  ASSERT_EQ(cudaGetDevice(&device), cudaSuccess);
  const GraphCacheStats before = overlap::graphCacheStats();
  run(a, n, 1.5f); // uncaptured
  run(a, n, 1.5f); // captured: the entry's block
  for (int i = 0; i < 3; ++i)
    run(a, n, 1.5f);   // replayed (enough that the next miss is captured, not run plain)
  run(b, n, 1.5f);     // captured with the entry's block, updated in place
  run(b, n, 1.5f);     // replayed
  run(a, other, 1.5f); // another shape: uncaptured
  run(a, other, 1.5f); // captured: the old entry evicted, its block freed
  run(a, other, 1.5f); // replayed
  const GraphCacheStats did = since(before);
  EXPECT_EQ(did.captures, 3) << describe(did);
  EXPECT_EQ(did.updates, 1) << describe(did);
  EXPECT_EQ(did.evictions, 1) << describe(did);
  EXPECT_EQ(did.replays, 5) << describe(did);
  unsigned long long graphMemory = 1;
  ASSERT_EQ(
      cudaDeviceGetGraphMemAttribute(device, cudaGraphMemAttrReservedMemCurrent, &graphMemory),
      cudaSuccess);
  EXPECT_EQ(graphMemory, 0u);
}

// A pageable array makes the graph form's call the plain synchronous one: nothing is captured.
TEST_F(GraphCacheTest, PageableArraysAreNeverCaptured) {
  SCOPED_TRACE(random_.trace());
  const int n = 1009;
  std::vector<float> x(n);
  random_.fill(x.data(), x.size());
  const GraphCacheStats before = overlap::graphCacheStats();
  for (int call = 0; call < 3; ++call) {
    std::vector<float> y(n);
    random_.fill(y.data(), y.size());
    std::vector<float> want = y;
    OVERLAP_ASSERT_OK(saxpy_explicit(n, 3.0f, x.data(), want.data()));
    StreamsConfig config{3, IssueOrder::BreadthFirst};
    config.graph = true;
    OVERLAP_ASSERT_OK(saxpy_hybrid(n, 3.0f, x.data(), y.data(), config));
    EXPECT_TRUE(bitwiseEqual(want.data(), y.data(), y.size()));
  }
  const GraphCacheStats did = since(before);
  EXPECT_EQ(did.captures + did.uncaptured + did.replays, 0) << describe(did);
}

} // namespace
