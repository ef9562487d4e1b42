#include "overlap/HostArrayPinning.h"

#include <cuda_runtime_api.h>

namespace overlap {

Status HostArrayPinning::registerRange(const PageRange& range, bool readOnlySupported,
                                       bool* locked) {
  void* const begin = reinterpret_cast<void*>(range.begin);
  const std::size_t bytes = range.end - range.begin;
  const unsigned baseFlags = cudaHostRegisterMapped | cudaHostRegisterPortable;
  const bool readOnly = !range.written && readOnlySupported;

  HostRegistration registration;
  Status status = HostRegistration::registerRange(
      begin, bytes, baseFlags | (readOnly ? cudaHostRegisterReadOnly : 0u), &registration);
  if (!status.ok() && !range.written && !readOnly)
    status = HostRegistration::registerRange(begin, bytes, baseFlags | cudaHostRegisterReadOnly,
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

Status HostArrayPinning::pinThroughCache(RegistrationCache& cache,
                                         const std::vector<PageRange>& ranges) {
  std::vector<RangePin> pins;
  cache.acquire(ranges, &pins, &cached_);
  for (std::size_t r = 0; r < ranges.size(); ++r) {
    if (!pins[r].locked && ranges[r].mapped)
      return pins[r].status;
    for (int i : ranges[r].arrays)
      pageLocked_[static_cast<std::size_t>(i)] = pins[r].locked;
  }
  return Status::success();
}

Status HostArrayPinning::pin(const std::vector<HostArrayUse>& uses, bool readOnlySupported,
                             const PinningPolicy& policy) {
  OVERLAP_TRY(release());
  devicePointers_.assign(uses.size(), nullptr);
  pageLocked_.assign(uses.size(), false);
  staged_.assign(uses.size(), false);

  std::vector<int> pageable;
  std::vector<bool> cached(uses.size(), false);      // its pages overlap a cached registration
  std::vector<bool> addressable(uses.size(), false); // kernels can use the pointer itself
  for (std::size_t i = 0; i < uses.size(); ++i) {
    if (uses[i].bytes == 0) {
      pageLocked_[i] = true;
      addressable[i] = true;
      continue;
    }
    bool inCache = false;
    const HostMemoryKind kind = policy.cache != nullptr
                                    ? policy.cache->classify(uses[i].host, uses[i].bytes, &inCache)
                                    : classifyHostMemory(uses[i].host);
    switch (kind) {
    case HostMemoryKind::Pageable:
      cached[i] = inCache;
      if (policy.stageCopied && !uses[i].mapped && !inCache)
        staged_[i] = true;
      else
        pageable.push_back(static_cast<int>(i));
      break;
    case HostMemoryKind::Pinned:
      pageLocked_[i] = true;
      break;
    case HostMemoryKind::Device:
    case HostMemoryKind::Managed:
      pageLocked_[i] = true;
      addressable[i] = true;
      break;
    }
  }

  // A range goes through the cache when the policy says so or when the cache holds part of it
  // already; the others are registered for the call.
  std::vector<PageRange> throughCache;
  for (PageRange& range : groupPageRanges(uses, pageable, hostPageSize())) {
    bool useCache = policy.cache != nullptr && policy.cacheEveryArray;
    for (int i : range.arrays)
      useCache = useCache || cached[static_cast<std::size_t>(i)];
    if (useCache) {
      throughCache.push_back(std::move(range));
      continue;
    }
    bool locked = false;
    OVERLAP_TRY(registerRange(range, readOnlySupported, &locked));
    for (int i : range.arrays)
      pageLocked_[static_cast<std::size_t>(i)] = locked;
  }
  if (!throughCache.empty())
    OVERLAP_TRY(pinThroughCache(*policy.cache, throughCache));

  for (std::size_t i = 0; i < uses.size(); ++i) {
    if (!uses[i].mapped)
      continue;
    void* const host = const_cast<void*>(uses[i].host);
    if (addressable[i]) {
      devicePointers_[i] = host;
      continue;
    }
    void* device = nullptr;
    const cudaError_t error = OVERLAP_CUDA_CALL(cudaHostGetDevicePointer(&device, host, 0));
    if (error != cudaSuccess) {
      (void)cudaGetLastError();
      return OVERLAP_STATUS_OF(cudaHostGetDevicePointer(&device, host, 0), error);
    }
    devicePointers_[i] = device;
  }
  return Status::success();
}

Status HostArrayPinning::release() {
  Status first;
  for (HostRegistration& registration : registrations_)
    keepFirst(first, registration.release());
  // A registration whose cudaHostUnregister failed still holds its range; clearing destroys it,
  // and its destructor tries once more, so a passing failure leaves nothing pinned.
  registrations_.clear();
  cached_.release();
  return first;
}

} // namespace overlap
