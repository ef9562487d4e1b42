#include "overlap/GraphCache.h"

#include <atomic>
#include <cassert>

namespace overlap {
namespace {

std::atomic<std::size_t> graphCapacity{GraphCache::kDefaultCapacity};
// Shapes remembered; a shape forgotten since runs uncaptured once more, which costs little.
constexpr std::size_t kSeenShapes = 64;

// The block of the call this thread captures for the cache (CapturedGraphBlockScope).
thread_local GraphBlock* capturing = nullptr;

constexpr long long GraphCacheStats::*kCounts[] = {
    &GraphCacheStats::replays, &GraphCacheStats::captures,  &GraphCacheStats::instantiations,
    &GraphCacheStats::updates, &GraphCacheStats::evictions, &GraphCacheStats::uncaptured};

} // namespace

GraphCacheStats& operator+=(GraphCacheStats& sum, const GraphCacheStats& more) {
  for (long long GraphCacheStats::*count : kCounts)
    sum.*count += more.*count;
  return sum;
}

GraphCacheStats operator-(GraphCacheStats after, const GraphCacheStats& before) {
  for (long long GraphCacheStats::*count : kCounts)
    after.*count -= before.*count;
  return after;
}

GraphBlock* capturedGraphBlock() {
  return capturing;
}

CapturedGraphBlockScope::CapturedGraphBlockScope(GraphBlock* block) : previous_(capturing) {
  capturing = block;
}

CapturedGraphBlockScope::~CapturedGraphBlockScope() {
  capturing = previous_;
}

Status GraphBlock::take(std::size_t bytes, void** block) {
  // One block per captured call: a second would mean a pipeline the cache does not know.
  assert(!taken_ && "a captured call takes one device block");
  taken_ = true;
  if (bytes > bytes_) {
    // The capture records no cudaMalloc; a thread-local capture refuses the call, a relaxed one
    // lets it through. The reused block (too small) stays its entry's.
    cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
    OVERLAP_CUDA_TRY(cudaThreadExchangeStreamCaptureMode(&mode));
    void* made = nullptr;
    const cudaError_t error = OVERLAP_CUDA_CALL(cudaMalloc(&made, bytes));
    (void)cudaThreadExchangeStreamCaptureMode(&mode);
    if (error != cudaSuccess) {
      failed_ = true;
      return OVERLAP_STATUS_OF(cudaMalloc(&made, bytes), error);
    }
    block_ = made;
    bytes_ = bytes;
    fresh_ = true;
  }
  *block = block_;
  return Status::success();
}

void GraphBlock::discard() {
  if (fresh_)
    (void)cudaFree(block_);
  *this = GraphBlock();
}

void setGraphCacheCapacity(std::size_t capacity) {
  graphCapacity.store(capacity < 1 ? 1 : capacity);
}

GraphSlot chooseGraphSlot(const std::vector<GraphCacheEntry>& entries, const std::string& shape,
                          std::size_t capacity) {
  if (entries.size() < capacity)
    return {GraphSlotAction::Append, entries.size()};
  std::size_t oldest = 0;
  for (std::size_t i = 1; i < entries.size(); ++i)
    if (entries[i].lastUse < entries[oldest].lastUse)
      oldest = i;
  return {entries[oldest].shape == shape ? GraphSlotAction::Update : GraphSlotAction::Replace,
          oldest};
}

GraphCache::ShapeRecord* GraphCache::record(const std::string& shape) {
  for (ShapeRecord& record : shapes_)
    if (record.shape == shape)
      return &record;
  return nullptr;
}

GraphCacheEntry* GraphCache::find(const std::string& shape, const std::string& arguments) {
  for (GraphCacheEntry& entry : entries_)
    if (entry.shape == shape && entry.arguments == arguments) {
      entry.lastUse = ++clock_;
      ++stats_.replays;
      if (ShapeRecord* seen = record(shape))
        ++seen->replays;
      return &entry;
    }
  return nullptr;
}

Status GraphCache::launch(GraphCacheEntry& entry, cudaStream_t stream) {
  OVERLAP_CUDA_TRY(cudaGraphLaunch(entry.exec, stream));
  OVERLAP_CUDA_TRY(cudaEventRecord(entry.launched, stream));
  return Status::success();
}

GraphSlot GraphCache::slotFor(const std::string& shape) const {
  return chooseGraphSlot(entries_, shape, graphCapacity.load());
}

GraphBlock GraphCache::blockFor(const GraphSlot& slot) const {
  if (slot.action != GraphSlotAction::Update)
    return {};
  const GraphCacheEntry& entry = entries_[slot.entry];
  return {entry.block, entry.blockBytes};
}

Status GraphCache::freeAfterLaunch(cudaEvent_t launched, void* block) {
  // The block may be freed, or given to another graph, only once the last launch is done; where
  // that wait fails, the block is left allocated rather than freed under a launch still using it.
  if (launched != nullptr)
    OVERLAP_CUDA_TRY(cudaEventSynchronize(launched));
  if (block != nullptr)
    OVERLAP_CUDA_TRY(cudaFree(block));
  return Status::success();
}

Status GraphCache::makeExecutable(cudaGraph_t graph, GraphCacheEntry& entry) {
  OVERLAP_CUDA_TRY(cudaGraphInstantiate(&entry.exec, graph, 0));
  OVERLAP_CUDA_TRY(cudaEventCreateWithFlags(&entry.launched, cudaEventDisableTiming));
  return Status::success();
}

Status GraphCache::retire(GraphCacheEntry& entry, bool keepBlock) {
  Status first = freeAfterLaunch(entry.launched, keepBlock ? nullptr : entry.block);
  const auto keep = [&first](cudaError_t error, const char* call) {
    if (error != cudaSuccess)
      keepFirst(first, Status{error, call, __FILE__, __LINE__});
  };
  if (entry.launched != nullptr)
    keep(OVERLAP_CUDA_CALL(cudaEventDestroy(entry.launched)), "cudaEventDestroy");
  if (entry.exec != nullptr)
    keep(OVERLAP_CUDA_CALL(cudaGraphExecDestroy(entry.exec)), "cudaGraphExecDestroy");
  entry = GraphCacheEntry();
  return first;
}

bool GraphCache::runsUncaptured(const std::string& shape) {
  ShapeRecord* seen = record(shape);
  if (seen == nullptr) {
    if (shapes_.size() == kSeenShapes)
      shapes_.erase(shapes_.begin());
    shapes_.push_back({shape, 1, 0});
    ++stats_.uncaptured;
    return true;
  }
  ++seen->misses;
  // A window over the shape's latest calls: a loop that settles into replays after misses (or
  // starts missing after replays) is judged by what it does now.
  const long long capacity = static_cast<long long>(graphCapacity.load());
  if (seen->misses + seen->replays > 8 * capacity) {
    seen->misses = (seen->misses + 1) / 2;
    seen->replays /= 2;
  }
  if (seen->misses <= 2 * capacity || seen->misses < 2 * seen->replays)
    return false;
  ++stats_.uncaptured;
  return true;
}

Status GraphCache::ownStream(cudaStream_t* slot, cudaStream_t* stream) {
  if (*slot == nullptr)
    OVERLAP_CUDA_TRY(cudaStreamCreateWithFlags(slot, cudaStreamNonBlocking));
  *stream = *slot;
  return Status::success();
}

Status GraphCache::install(const GraphSlot& slot, const std::string& shape,
                           const std::string& arguments, cudaGraph_t graph, GraphBlock& block,
                           GraphCacheEntry** installed) {
  ++stats_.captures;
  // The slot of the call's shape, chosen before the capture, which changed no entry.
  assert(slot.entry <= entries_.size() &&
         (slot.action == GraphSlotAction::Append) == (slot.entry == entries_.size()));
  if (slot.action == GraphSlotAction::Update) {
    GraphCacheEntry& entry = entries_[slot.entry];
    cudaGraphExecUpdateResultInfo info = {};
    // A refused update (the graph differs in more than parameters) is no error: the entry is
    // instantiated anew below. The call is not checked through OVERLAP_CUDA_CALL for that reason.
    if (cudaGraphExecUpdate(entry.exec, graph, &info) == cudaSuccess) {
      if (block.fresh()) { // the entry's block was too small for this call: it takes the new one
        void* const old = entry.block;
        entry.block = block.block();
        entry.blockBytes = block.bytes();
        block = GraphBlock();
        OVERLAP_TRY(freeAfterLaunch(entry.launched, old));
      }
      entry.arguments = arguments;
      entry.lastUse = ++clock_;
      ++stats_.updates;
      *installed = &entry;
      return Status::success();
    }
    (void)cudaGetLastError();
  }
  GraphCacheEntry entry;
  entry.shape = shape;
  entry.arguments = arguments;
  entry.block = block.block();
  entry.blockBytes = block.bytes();
  bool kept = block.fresh();
  if (slot.action != GraphSlotAction::Append) {
    GraphCacheEntry old = entries_[slot.entry];
    entries_.erase(entries_.begin() + static_cast<std::ptrdiff_t>(slot.entry));
    ++stats_.evictions;
    // The graph was captured with the old entry's block (an update the driver refused): the new
    // entry keeps it, used once the old graph's last launch is done.
    const bool reused = !block.fresh() && block.block() != nullptr && block.block() == old.block;
    kept = kept || reused;
    const Status retired = retire(old, reused);
    if (!retired.ok()) {
      if (kept)
        (void)cudaFree(entry.block);
      block = GraphBlock();
      return retired;
    }
  }
  if (!kept) { // captured without a block of its own: the call needs no device memory
    entry.block = nullptr;
    entry.blockBytes = 0;
  }
  block = GraphBlock(); // the entry owns it now
  const Status made = makeExecutable(graph, entry);
  if (!made.ok()) {
    (void)retire(entry, false);
    return made;
  }
  entry.lastUse = ++clock_;
  entries_.push_back(entry);
  ++stats_.instantiations;
  *installed = &entries_.back();
  return Status::success();
}

Status GraphCache::release(int device) {
  Status first;
  for (GraphCacheEntry& entry : entries_)
    keepFirst(first, retire(entry, false));
  entries_.clear();
  shapes_.clear();
  // Graph allocations (of the program's own graphs) stay mapped for their next launch until
  // trimmed.
  const cudaError_t trimmed = OVERLAP_CUDA_CALL(cudaDeviceGraphMemTrim(device));
  if (trimmed != cudaSuccess)
    keepFirst(first, OVERLAP_STATUS_OF(cudaDeviceGraphMemTrim(device), trimmed));
  return first;
}

} // namespace overlap
