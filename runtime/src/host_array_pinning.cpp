#include "overlap/host_array_pinning.h"

#include <cuda_runtime_api.h>

namespace overlap {

Status HostArrayPinning::register_range(const PageRange& range, bool read_only_supported,
                                        bool* locked) {
  void* const begin = reinterpret_cast<void*>(range.begin);
  const std::size_t bytes = range.end - range.begin;
  const unsigned base_flags = cudaHostRegisterMapped | cudaHostRegisterPortable;
  const bool read_only = !range.written && read_only_supported;

  HostRegistration registration;
  Status status = HostRegistration::register_range(
      begin, bytes, base_flags | (read_only ? cudaHostRegisterReadOnly : 0u), &registration);
  if (!status.ok() && !range.written && !read_only)
    status = HostRegistration::register_range(begin, bytes, base_flags | cudaHostRegisterReadOnly,
                                              &registration);
  if (status.ok()) {
    registrations_.push_back(std::move(registration));
    *locked = true;
    return status;
  }
  if (status.code == cudaErrorHostMemoryAlreadyRegistered) {
    *locked = true; // registered by someone else; they unregister it
    return Status::success();
  }
  *locked = false;
  return range.mapped ? status : Status::success();
}

Status HostArrayPinning::pin_through_cache(RegistrationCache& cache,
                                           const std::vector<PageRange>& ranges) {
  std::vector<RangePin> pins;
  cache.acquire(ranges, &pins, &cached_);
  for (std::size_t r = 0; r < ranges.size(); ++r) {
    if (!pins[r].locked && ranges[r].mapped)
      return pins[r].status;
    for (int i : ranges[r].arrays)
      page_locked_[static_cast<std::size_t>(i)] = pins[r].locked;
  }
  return Status::success();
}

Status HostArrayPinning::pin(const std::vector<HostArrayUse>& uses, bool read_only_supported,
                             const PinningPolicy& policy) {
  OVERLAP_TRY(release());
  device_pointers_.assign(uses.size(), nullptr);
  page_locked_.assign(uses.size(), false);
  staged_.assign(uses.size(), false);

  std::vector<int> pageable;
  std::vector<bool> cached(uses.size(), false);      // its pages overlap a cached registration
  std::vector<bool> addressable(uses.size(), false); // kernels can use the pointer itself
  for (std::size_t i = 0; i < uses.size(); ++i) {
    if (uses[i].bytes == 0) {
      page_locked_[i] = true;
      addressable[i] = true;
      continue;
    }
    bool in_cache = false;
    const HostMemoryKind kind = policy.cache != nullptr
                                    ? policy.cache->classify(uses[i].host, uses[i].bytes, &in_cache)
                                    : classify_host_memory(uses[i].host);
    switch (kind) {
    case HostMemoryKind::Pageable:
      cached[i] = in_cache;
      if (policy.stage_copied && !uses[i].mapped && !in_cache)
        staged_[i] = true;
      else
        pageable.push_back(static_cast<int>(i));
      break;
    case HostMemoryKind::Pinned:
      page_locked_[i] = true;
      break;
    case HostMemoryKind::Device:
    case HostMemoryKind::Managed:
      page_locked_[i] = true;
      addressable[i] = true;
      break;
    }
  }

  // A range goes through the cache when the policy says so or when the cache holds part of it
  // already; the others are registered for the call.
  std::vector<PageRange> through_cache;
  for (PageRange& range : group_page_ranges(uses, pageable, host_page_size())) {
    bool use_cache = policy.cache != nullptr && policy.cache_every_array;
    for (int i : range.arrays)
      use_cache = use_cache || cached[static_cast<std::size_t>(i)];
    if (use_cache) {
      through_cache.push_back(std::move(range));
      continue;
    }
    bool locked = false;
    OVERLAP_TRY(register_range(range, read_only_supported, &locked));
    for (int i : range.arrays)
      page_locked_[static_cast<std::size_t>(i)] = locked;
  }
  if (!through_cache.empty())
    OVERLAP_TRY(pin_through_cache(*policy.cache, through_cache));

  for (std::size_t i = 0; i < uses.size(); ++i) {
    if (!uses[i].mapped)
      continue;
    void* const host = const_cast<void*>(uses[i].host);
    if (addressable[i]) {
      device_pointers_[i] = host;
      continue;
    }
    void* device = nullptr;
    const cudaError_t error = OVERLAP_CUDA_CALL(cudaHostGetDevicePointer(&device, host, 0));
    if (error != cudaSuccess) {
      (void)cudaGetLastError();
      return OVERLAP_STATUS_OF(cudaHostGetDevicePointer(&device, host, 0), error);
    }
    device_pointers_[i] = device;
  }
  return Status::success();
}

Status HostArrayPinning::release() {
  Status first;
  for (HostRegistration& registration : registrations_)
    keep_first(first, registration.release());
  // A registration whose cudaHostUnregister failed still holds its range; clearing destroys it,
  // and its destructor tries once more, so a passing failure leaves nothing pinned.
  registrations_.clear();
  cached_.release();
  return first;
}

} // namespace overlap
