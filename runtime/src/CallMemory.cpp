#include "overlap/CallMemory.h"

#include "overlap/HostRangeKind.h"
#include "overlap/PinCache.h"

#include <array>
#include <cstdint>

namespace overlap {
namespace {

// A direct-mapped memo of recent arrays' kinds, one per thread (no lock on the call's path).
struct RememberedKind {
  const void* pointer = nullptr;
  std::size_t bytes = 0;
  std::uint64_t cacheGeneration = 0; // of the registration cache when it was asked
  HostRangeKind kind = HostRangeKind::Pageable;
  unsigned uses = 0;
};

constexpr std::size_t kMemoSlots = 64;

HostRangeKind rememberedKind(const void* pointer, std::size_t bytes,
                             std::uint64_t cacheGeneration) {
  thread_local std::array<RememberedKind, kMemoSlots> memo;
  const auto address = reinterpret_cast<std::uintptr_t>(pointer);
  RememberedKind& slot = memo[(address >> 6 ^ address >> 16) % kMemoSlots];
  if (slot.pointer != pointer || slot.bytes != bytes || slot.cacheGeneration != cacheGeneration ||
      ++slot.uses >= kCallMemoryRecheckCalls)
    slot = {pointer, bytes, cacheGeneration, classifyHostRange(pointer, bytes), 0};
  return slot.kind;
}

bool onHostLine(const void* host) {
  return reinterpret_cast<std::uintptr_t>(host) % kHostLineBytes == 0;
}

} // namespace

CallMemory classifyCallMemory(const KernelDescriptor& kernel, ArgPointers args) {
  // A range the cache registers or unpins changes kind: every remembered kind is asked again.
  const RegistrationCache* const cache = processRegistrationCache();
  const std::uint64_t cacheGeneration = cache ? cache->generation() : 0;
  CallMemory memory = CallMemory::Pinned;
  for (int a = 0; a < kernel.arrayCount; ++a) {
    const ArrayDescriptor& array = kernel.arrays[a];
    const void* const host = *static_cast<const void* const*>(args[array.param]);
    const long long extent = kernel.arrayExtent(args, a);
    if (host == nullptr || extent <= 0)
      continue;
    const HostRangeKind kind =
        rememberedKind(host, static_cast<std::size_t>(extent) * array.elementSize, cacheGeneration);
    if (kind == HostRangeKind::Pageable)
      return CallMemory::Pageable;
    if (kind == HostRangeKind::Managed)
      memory = CallMemory::Managed;
    else if ((kind == HostRangeKind::Cached || kind == HostRangeKind::Pinned) &&
             memory == CallMemory::Pinned && !onHostLine(host))
      memory = CallMemory::Registered;
  }
  return memory;
}

bool arraysStartOnHostLines(const KernelDescriptor& kernel, ArgPointers args) {
  for (int a = 0; a < kernel.arrayCount; ++a) {
    const void* const host = *static_cast<const void* const*>(args[kernel.arrays[a].param]);
    if (host != nullptr && kernel.arrayExtent(args, a) > 0 && !onHostLine(host))
      return false;
  }
  return true;
}

} // namespace overlap
