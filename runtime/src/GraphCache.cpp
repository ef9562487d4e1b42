#include "overlap/GraphCache.h"

#include <atomic>

namespace overlap {
namespace {

std::atomic<std::size_t> graphCapacity{GraphCache::kDefaultCapacity};
// Shapes remembered; a shape forgotten since runs uncaptured once more, which costs little.
constexpr std::size_t kSeenShapes = 64;

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

cudaGraphExec_t GraphCache::find(const std::string& shape, const std::string& arguments) {
  for (GraphCacheEntry& entry : entries_)
    if (entry.shape == shape && entry.arguments == arguments) {
      entry.lastUse = ++clock_;
      ++stats_.replays;
      if (ShapeRecord* seen = record(shape))
        ++seen->replays;
      return entry.exec;
    }
  return nullptr;
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

Status GraphCache::install(const std::string& shape, const std::string& arguments,
                           cudaGraph_t graph, cudaGraphExec_t* exec) {
  ++stats_.captures;
  const GraphSlot slot = chooseGraphSlot(entries_, shape, graphCapacity.load());
  if (slot.action == GraphSlotAction::Update) {
    GraphCacheEntry& entry = entries_[slot.entry];
    cudaGraphExecUpdateResultInfo info = {};
    // A refused update (the graph differs in more than parameters) is no error: the entry is
    // instantiated anew below. The call is not checked through OVERLAP_CUDA_CALL for that reason.
    if (cudaGraphExecUpdate(entry.exec, graph, &info) == cudaSuccess) {
      entry.arguments = arguments;
      entry.lastUse = ++clock_;
      ++stats_.updates;
      *exec = entry.exec;
      return Status::success();
    }
    (void)cudaGetLastError();
  }
  if (slot.action != GraphSlotAction::Append) {
    const cudaGraphExec_t old = entries_[slot.entry].exec;
    entries_.erase(entries_.begin() + static_cast<std::ptrdiff_t>(slot.entry));
    ++stats_.evictions;
    OVERLAP_CUDA_TRY(cudaGraphExecDestroy(old));
  }
  cudaGraphExec_t made = nullptr;
  OVERLAP_CUDA_TRY(cudaGraphInstantiate(&made, graph, 0));
  entries_.push_back({shape, arguments, made, ++clock_});
  ++stats_.instantiations;
  *exec = made;
  return Status::success();
}

Status GraphCache::release(int device) {
  Status first;
  for (const GraphCacheEntry& entry : entries_) {
    const cudaError_t error = OVERLAP_CUDA_CALL(cudaGraphExecDestroy(entry.exec));
    if (error != cudaSuccess)
      keepFirst(first, OVERLAP_STATUS_OF(cudaGraphExecDestroy(entry.exec), error));
  }
  entries_.clear();
  shapes_.clear();
  // Graph allocations stay mapped for the next launch until trimmed.
  const cudaError_t trimmed = OVERLAP_CUDA_CALL(cudaDeviceGraphMemTrim(device));
  if (trimmed != cudaSuccess)
    keepFirst(first, OVERLAP_STATUS_OF(cudaDeviceGraphMemTrim(device), trimmed));
  return first;
}

} // namespace overlap
