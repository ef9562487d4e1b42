#include "overlap/call_memory.h"

#include "overlap/host_range_kind.h"

#include <array>
#include <cstdint>

namespace overlap {
namespace {

// A direct-mapped memo of recent arrays' kinds, one per thread (no lock on the call's path).
struct RememberedKind {
  const void* pointer = nullptr;
  std::size_t bytes = 0;
  HostRangeKind kind = HostRangeKind::Pageable;
  unsigned uses = 0;
};

constexpr std::size_t kMemoSlots = 64;

HostRangeKind remembered_kind(const void* pointer, std::size_t bytes) {
  thread_local std::array<RememberedKind, kMemoSlots> memo;
  const auto address = reinterpret_cast<std::uintptr_t>(pointer);
  RememberedKind& slot = memo[(address >> 6 ^ address >> 16) % kMemoSlots];
  if (slot.pointer != pointer || slot.bytes != bytes || ++slot.uses >= kCallMemoryRecheckCalls)
    slot = {pointer, bytes, classify_host_range(pointer, bytes), 0};
  return slot.kind;
}

} // namespace

CallMemory classify_call_memory(const KernelDescriptor& kernel, ArgPointers args) {
  for (int a = 0; a < kernel.array_count; ++a) {
    const ArrayDescriptor& array = kernel.arrays[a];
    const void* const host = *static_cast<const void* const*>(args[array.param]);
    const long long extent = kernel.array_extent(args, a);
    if (host == nullptr || extent <= 0)
      continue;
    if (remembered_kind(host, static_cast<std::size_t>(extent) * array.element_size) ==
        HostRangeKind::Pageable)
      return CallMemory::Pageable;
  }
  return CallMemory::Pinned;
}

} // namespace overlap
