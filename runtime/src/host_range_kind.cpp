#include "overlap/host_range_kind.h"

#include "overlap/host_memory_kind.h"
#include "overlap/pin_cache.h"

namespace overlap {

HostRangeKind classify_host_range(const void* pointer, std::size_t bytes) {
  if (pointer == nullptr || bytes == 0)
    return HostRangeKind::Pageable;
  RegistrationCache* const cache = process_registration_cache();
  bool cached = false;
  const HostMemoryKind kind =
      cache != nullptr ? cache->classify(pointer, bytes, &cached) : classify_host_memory(pointer);
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
