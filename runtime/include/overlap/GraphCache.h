// Executable CUDA graphs of earlier calls' pipelines, per device (StreamsConfig::graph;
// detail/GraphCall.cuh). A pipeline issues tens of copies, launches and event operations; replayed
// as one graph, the host issues it with one cudaGraphLaunch. An entry is keyed on the call's shape
// (the kernel, its configuration, sizes and memory kinds: what fixes the graph's nodes and edges)
// and its arguments (pointers and scalars: what only the nodes' parameters hold). A call whose
// shape and arguments match an entry replays it. Otherwise the call is captured, and the graph
// becomes executable: a new entry while the cache has room; where it is full, the least recently
// used entry goes, updated in place where it has the call's shape (cudaGraphExecUpdate, no new
// instantiation), else evicted. Pure LRU: a full cache that preferred its own shape's entries would
// keep a new shape in one entry, updated on every call, while other shapes' stale graphs stayed
// (bench/README.md, "Graph forms": the frame loop). A shape's first call runs uncaptured: it grows
// the pools of streams, events and memory (which a capture may not), and a call made once never
// pays for an instantiation. So does a later call of a shape whose calls keep bringing arguments
// the cache does not hold (more than 2 x capacity misses, at least twice as many misses as
// replays, among its latest 8 x capacity calls or so): capturing each costs more than the plain
// call (bench/README.md, "Graph forms": the frame loop cycles 120 argument sets through 8
// entries). Its calls that hit still replay.
#pragma once

#include "overlap/Status.h"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>
#include <vector>

namespace overlap {

// What a cache did since the process started (all devices' caches for graphCacheStats()).
struct GraphCacheStats {
  long long replays = 0;        // calls that launched an entry as it was
  long long captures = 0;       // calls captured into a graph
  long long instantiations = 0; // captured graphs made executable as new entries
  long long updates = 0;        // entries updated in place to a call's arguments
  long long evictions = 0;      // entries destroyed to make room
  long long uncaptured = 0;     // calls run without a graph: a shape's first, and those above
};
// Sums (every device's caches) and differences (what a stretch of calls did).
GraphCacheStats& operator+=(GraphCacheStats& sum, const GraphCacheStats& more);
GraphCacheStats operator-(GraphCacheStats after, const GraphCacheStats& before);

struct GraphCacheEntry {
  std::string shape;
  std::string arguments;
  cudaGraphExec_t exec = nullptr;
  unsigned long long lastUse = 0;
};

// Where a captured graph goes: a new entry while there is room, else in the least recently used
// entries[entry]: updated where it has the graph's shape, else evicted and replaced.
enum class GraphSlotAction { Append, Update, Replace };
struct GraphSlot {
  GraphSlotAction action = GraphSlotAction::Append;
  std::size_t entry = 0;
};
GraphSlot chooseGraphSlot(const std::vector<GraphCacheEntry>& entries, const std::string& shape,
                          std::size_t capacity);

class GraphCache {
public:
  static constexpr std::size_t kDefaultCapacity = 8;

  GraphCache() = default;
  GraphCache(const GraphCache&) = delete;
  GraphCache& operator=(const GraphCache&) = delete;
  // Keeps its graphs and stream, for the reason DeviceMemoryCache keeps its memory.
  ~GraphCache() = default;

  // The entry of this shape and these arguments, or null; a hit counts as a replay.
  cudaGraphExec_t find(const std::string& shape, const std::string& arguments);
  // Whether a call of this shape, which no entry holds, runs without a graph: the shape's first
  // call, or its calls keep missing. Counts the miss, and the uncaptured call where true.
  bool runsUncaptured(const std::string& shape);
  // Streams of the cache's own (non-blocking, created on first use): one to capture calls on, one
  // for synchronous calls to launch their graphs on (never a capturing one, which they could not
  // wait for).
  Status captureStream(cudaStream_t* stream) { return ownStream(&captureStream_, stream); }
  Status callStream(cudaStream_t* stream) { return ownStream(&callStream_, stream); }
  // Counts a captured call and makes its `graph` (of `shape` with `arguments`; the cache does not
  // take it) executable in the slot chooseGraphSlot picks. On failure the slot's old entry is gone.
  Status install(const std::string& shape, const std::string& arguments, cudaGraph_t graph,
                 cudaGraphExec_t* exec);

  // Destroys every entry (waiting for nothing: a launched graph runs to its end after
  // cudaGraphExecDestroy) and returns the graphs' memory to the device.
  Status release(int device);
  bool empty() const { return entries_.empty(); }
  const GraphCacheStats& stats() const { return stats_; }

private:
  static Status ownStream(cudaStream_t* slot, cudaStream_t* stream);

  std::vector<GraphCacheEntry> entries_;
  // Per shape seen lately (bounded): its latest calls' misses and replays, halved as they grow.
  struct ShapeRecord {
    std::string shape;
    long long misses = 0;
    long long replays = 0;
  };
  ShapeRecord* record(const std::string& shape);

  std::vector<ShapeRecord> shapes_;
  unsigned long long clock_ = 0;
  cudaStream_t captureStream_ = nullptr;
  cudaStream_t callStream_ = nullptr;
  GraphCacheStats stats_;
};

// The sum of every device's cache statistics.
GraphCacheStats graphCacheStats();
// Entries per device's cache from now on (at least 1; kDefaultCapacity unless set). Entries beyond
// a smaller capacity go as new graphs need their slots.
void setGraphCacheCapacity(std::size_t capacity);

} // namespace overlap
