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
// call. Its calls that hit still replay.
//
// Each entry owns the device block its pipeline uses (GraphBlock, allocated outside the stream-
// ordered pool while the call is captured), so its graph has no memory nodes: graphs with memory
// nodes share the device's graph memory, and eight of them in flight on eight streams ran the
// frame loop at half the plain form's rate (bench/README.md, "Graph forms"). An entry's block is
// reused by its in-place updates (launches of one executable graph run one after another) and
// freed when the entry goes, once its last launch is done.
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
  void* block = nullptr; // the device block the graph's nodes use
  std::size_t blockBytes = 0;
  cudaEvent_t launched = nullptr; // recorded after each launch
};

// The device block of a call being captured for the cache: an entry's own where the capture will
// update that entry in place, else one allocated for the capture ("fresh"), which the entry the
// graph goes to takes over.
class GraphBlock {
public:
  GraphBlock() = default;
  GraphBlock(void* reused, std::size_t bytes) : block_(reused), bytes_(bytes) {}

  // `bytes` of device memory for the captured call (once per capture): the reused block where it
  // is large enough, else a new one, allocated with cudaMalloc (the capture is relaxed for it: a
  // capture records no allocation of this kind).
  Status take(std::size_t bytes, void** block);
  void* block() const { return block_; }
  std::size_t bytes() const { return bytes_; }
  bool fresh() const { return fresh_; }
  // Whether take() failed: the device has no memory for an entry of its own.
  bool failed() const { return failed_; }
  // Frees a fresh block that no entry took.
  void discard();

private:
  void* block_ = nullptr;
  std::size_t bytes_ = 0;
  bool fresh_ = false;
  bool taken_ = false;
  bool failed_ = false;
};

// The block of the call this thread is capturing for the cache, or null; set by the scope below.
GraphBlock* capturedGraphBlock();
class CapturedGraphBlockScope {
public:
  explicit CapturedGraphBlockScope(GraphBlock* block);
  CapturedGraphBlockScope(const CapturedGraphBlockScope&) = delete;
  CapturedGraphBlockScope& operator=(const CapturedGraphBlockScope&) = delete;
  ~CapturedGraphBlockScope();

private:
  GraphBlock* previous_;
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
  GraphCacheEntry* find(const std::string& shape, const std::string& arguments);
  // Launches the entry's graph on `stream`.
  Status launch(GraphCacheEntry& entry, cudaStream_t stream);
  // Whether a call of this shape, which no entry holds, runs without a graph: the shape's first
  // call, or its calls keep missing. Counts the miss, and the uncaptured call where true.
  bool runsUncaptured(const std::string& shape);
  // Streams of the cache's own (non-blocking, created on first use): one to capture calls on, one
  // for synchronous calls to launch their graphs on (never a capturing one, which they could not
  // wait for).
  Status captureStream(cudaStream_t* stream) { return ownStream(&captureStream_, stream); }
  Status callStream(cudaStream_t* stream) { return ownStream(&callStream_, stream); }
  // Where a call of `shape`, which no entry holds, will go once captured (chooseGraphSlot).
  GraphSlot slotFor(const std::string& shape) const;
  // The block a call going to `slot` is captured with: the block of the entry it will update in
  // place, else none yet.
  GraphBlock blockFor(const GraphSlot& slot) const;
  // Counts a captured call and makes its `graph` (of `shape` with `arguments`, captured with
  // `block`; the cache does not take the graph) executable in `slot` (slotFor, before the
  // capture); the entry takes a fresh block. On failure the slot's old entry is gone, and the block
  // discarded.
  Status install(const GraphSlot& slot, const std::string& shape, const std::string& arguments,
                 cudaGraph_t graph, GraphBlock& block, GraphCacheEntry** entry);

  // Destroys every entry once its last launch is done, frees the entries' blocks, returns the
  // graphs' memory to the device and forgets the shapes seen: after a release, as after the pools'
  // (DeviceContext), a shape's first call runs uncaptured again.
  Status release(int device);
  // Whether the cache holds no graph and remembers no shape.
  bool empty() const { return entries_.empty() && shapes_.empty(); }
  const GraphCacheStats& stats() const { return stats_; }

private:
  static Status ownStream(cudaStream_t* slot, cudaStream_t* stream);
  // Waits for the entry's last launch and destroys it; its block too unless `keepBlock`.
  static Status retire(GraphCacheEntry& entry, bool keepBlock);
  // Frees `block` (may be null) once the launch `launched` marks (may be null) is done.
  static Status freeAfterLaunch(cudaEvent_t launched, void* block);
  // The entry's executable graph and its launch event.
  static Status makeExecutable(cudaGraph_t graph, GraphCacheEntry& entry);

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
