#include "overlap/call_memory.h"

#include "overlap/host_range_kind.h"
#include "overlap/pin_cache.h"

#include <array>
#include <cstdint>

namespace overlap {
namespace {

// A direct-mapped memo of recent arrays' kinds, one per thread (no lock on the call's path).
struct RememberedKind {
  const void* pointer = nullptr;
  std::size_t bytes = 0;
  std::uint64_t cache_generation = 0; // of the registration cache when it was asked
  HostRangeKind kind = HostRangeKind::Pageable;
  unsigned uses = 0;
};

constexpr std::size_t kMemoSlots = 64;

HostRangeKind remembered_kind(const void* pointer, std::size_t bytes,
                              std::uint64_t cache_generation) {
  thread_local std::array<RememberedKind, kMemoSlots> memo;
  const auto address = reinterpret_cast<std::uintptr_t>(pointer);
  RememberedKind& slot = memo[(address >> 6 ^ address >> 16) % kMemoSlots];
  if (slot.pointer != pointer || slot.bytes != bytes || slot.cache_generation != cache_generation ||
      ++slot.uses >= kCallMemoryRecheckCalls)
    slot = {pointer, bytes, cache_generation, classify_host_range(pointer, bytes), 0};
  return slot.kind;
}

} // namespace

CallMemory classify_call_memory(const KernelDescriptor& kernel, ArgPointers args) {
  // A range the cache registers or unpins changes kind: every remembered kind is asked again.
  const RegistrationCache* const cache = process_registration_cache();
  const std::uint64_t cache_generation = cache ? cache->generation() : 0;
  for (int a = 0; a < kernel.array_count; ++a) {
    const ArrayDescriptor& array = kernel.arrays[a];
    const void* const host = *static_cast<const void* const*>(args[array.param]);
    const long long extent = kernel.array_extent(args, a);
    if (host == nullptr || extent <= 0)
      continue;
    if (remembered_kind(host, static_cast<std::size_t>(extent) * array.element_size,
                        cache_generation) == HostRangeKind::Pageable)
      return CallMemory::Pageable;
  }
  return CallMemory::Pinned;
}

} // namespace overlap
