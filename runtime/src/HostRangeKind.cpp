#include "overlap/HostRangeKind.h"

#include "overlap/HostMemoryKind.h"
#include "overlap/PinCache.h"

namespace overlap {

HostRangeKind classifyHostRange(const void* pointer, std::size_t bytes) {
  if (pointer == nullptr || bytes == 0)
    return HostRangeKind::Pageable;
  RegistrationCache* const cache = processRegistrationCache();
  bool cached = false;
  const HostMemoryKind kind =
      cache != nullptr ? cache->classify(pointer, bytes, &cached) : classifyHostMemory(pointer);
  if (cached)
    return HostRangeKind::Cached;
  switch (kind) {
  case HostMemoryKind::Pinned:
    return HostRangeKind::Pinned;
  case HostMemoryKind::Device:
    return HostRangeKind::Device;
  case HostMemoryKind::Managed:
    return HostRangeKind::Managed;
  case HostMemoryKind::Pageable:
    break;
  }
  return HostRangeKind::Pageable;
}

const char* to_string(HostRangeKind kind) {
  switch (kind) {
  case HostRangeKind::Pageable:
    return "pageable";
  case HostRangeKind::Pinned:
    return "pinned";
  case HostRangeKind::Cached:
    return "cached registration";
  case HostRangeKind::Device:
    return "device";
  case HostRangeKind::Managed:
    return "managed";
  }
  return "?";
}

} // namespace overlap
