#include "overlap/DeviceContext.h"

#include "overlap/PagedArrays.h"

#include <cuda_runtime_api.h>

#include <map>
#include <memory>
#include <vector>

namespace overlap {
namespace {

// Never destroyed, for the reason DeviceMemoryCache gives: the contexts' CUDA objects are left
// to the end of the process.
struct ContextTable {
  std::mutex mutex;
  std::map<int, std::unique_ptr<DeviceContext>> contexts;
};

ContextTable& contextTable() {
  static ContextTable* const table = new ContextTable;
  return *table;
}

DeviceContext& contextOf(int device) {
  ContextTable& table = contextTable();
  const std::lock_guard<std::mutex> lock(table.mutex);
  std::unique_ptr<DeviceContext>& slot = table.contexts[device];
  if (!slot)
    slot = std::make_unique<DeviceContext>(device);
  return *slot;
}

// Restores the caller's current device, whatever happens in between.
class CurrentDeviceGuard {
public:
  Status save() {
    OVERLAP_CUDA_TRY(cudaGetDevice(&saved_));
    valid_ = true;
    return Status::success();
  }
  Status restore() {
    if (!valid_)
      return Status::success();
    valid_ = false;
    OVERLAP_CUDA_TRY(cudaSetDevice(saved_));
    return Status::success();
  }
  ~CurrentDeviceGuard() { (void)restore(); }

private:
  int saved_ = 0;
  bool valid_ = false;
};

} // namespace

Status DeviceContext::readOnlyRegistrationSupported(bool* supported) {
  if (readOnlySupported_ < 0) {
    int value = 0;
    OVERLAP_CUDA_TRY(
        cudaDeviceGetAttribute(&value, cudaDevAttrHostRegisterReadOnlySupported, device_));
    readOnlySupported_ = value != 0 ? 1 : 0;
  }
  *supported = readOnlySupported_ == 1;
  return Status::success();
}

Status DeviceContext::pageBytes(std::size_t* bytes) {
  if (!pageBytesAsked_) {
    OVERLAP_TRY(devicePageBytes(device_, &pageBytes_));
    pageBytesAsked_ = true;
  }
  *bytes = pageBytes_;
  return Status::success();
}

Status DeviceContext::releaseMemoryWhenIdle() {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (memory_.capacity() == 0 && staging_.bytes() == 0 && asyncMemory_.heldBytes() == 0 &&
      graphs_.empty())
    return Status::success();
  OVERLAP_CUDA_TRY(cudaSetDevice(device_));
  Status first = memory_.capacity() > 0 ? memory_.release() : Status::success();
  keepFirst(first, staging_.release());
  keepFirst(first, asyncMemory_.trim());
  if (!graphs_.empty())
    keepFirst(first, graphs_.release(device_));
  return first;
}

std::size_t DeviceContext::cachedBytesWhenIdle() {
  const std::lock_guard<std::mutex> lock(mutex_);
  return memory_.capacity();
}

GraphCacheStats DeviceContext::graphStatsWhenIdle() {
  const std::lock_guard<std::mutex> lock(mutex_);
  return graphs_.stats();
}

Status DeviceContext::scribbleMemoryWhenIdle(unsigned char value) {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (memory_.capacity() == 0)
    return Status::success();
  OVERLAP_CUDA_TRY(cudaMemset(memory_.block(), value, memory_.capacity()));
  OVERLAP_CUDA_TRY(cudaDeviceSynchronize());
  return Status::success();
}

Status DeviceContextLease::acquire() {
  int device = 0;
  OVERLAP_CUDA_TRY(cudaGetDevice(&device));
  DeviceContext& context = contextOf(device);
  lock_ = std::unique_lock<std::mutex>(context.mutex_);
  context_ = &context;
  return Status::success();
}

namespace {

// Contexts are never destroyed, so their addresses outlive the table lock; waiting for calls in
// flight without holding it lets other threads start calls on other devices meanwhile.
std::vector<DeviceContext*> allContexts() {
  std::vector<DeviceContext*> contexts;
  ContextTable& table = contextTable();
  const std::lock_guard<std::mutex> tableLock(table.mutex);
  for (auto& entry : table.contexts)
    contexts.push_back(entry.second.get());
  return contexts;
}

} // namespace

GraphCacheStats graphCacheStats() {
  GraphCacheStats sum;
  for (DeviceContext* context : allContexts())
    sum += context->graphStatsWhenIdle();
  return sum;
}

Status releaseCachedDeviceMemory() {
  const std::vector<DeviceContext*> contexts = allContexts();
  if (contexts.empty())
    return Status::success(); // a program that never ran a strategy makes no CUDA call here
  CurrentDeviceGuard guard;
  OVERLAP_TRY(guard.save());
  Status first;
  for (DeviceContext* context : contexts)
    keepFirst(first, context->releaseMemoryWhenIdle());
  keepFirst(first, guard.restore());
  return first;
}

namespace {

// The current device's context if a strategy ever ran there, else nullptr.
DeviceContext* existingContextOfCurrentDevice() {
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess) {
    (void)cudaGetLastError();
    return nullptr;
  }
  ContextTable& table = contextTable();
  const std::lock_guard<std::mutex> tableLock(table.mutex);
  const auto found = table.contexts.find(device);
  return found == table.contexts.end() ? nullptr : found->second.get();
}

} // namespace

std::size_t cachedDeviceMemoryBytes() {
  DeviceContext* const context = existingContextOfCurrentDevice();
  return context == nullptr ? 0 : context->cachedBytesWhenIdle();
}

Status scribbleCachedDeviceMemory(unsigned char value) {
  DeviceContext* const context = existingContextOfCurrentDevice();
  return context == nullptr ? Status::success() : context->scribbleMemoryWhenIdle(value);
}

} // namespace overlap
