#include "overlap/pin_cache.h"

#include "overlap/cuda_page_registrar.h"
#include "overlap/page_range.h"

#include <cstdio>
#include <cstdlib>

namespace overlap {

const PinCacheSettings& pin_cache_settings() {
  static const PinCacheSettings settings = [] {
    PinCacheSettings read =
        parse_pin_cache_setting(std::getenv("OVERLAP_PIN_CACHE"), physical_memory_bytes());
    if (!read.error.empty())
      std::fprintf(stderr, "overlap: %s\n", read.error.c_str());
    return read;
  }();
  return settings;
}

RegistrationCache* process_registration_cache() {
  static RegistrationCache* const cache = []() -> RegistrationCache* {
    const PinCacheSettings& settings = pin_cache_settings();
    if (!settings.enabled)
      return nullptr;
    static CudaPageRegistrar* const registrar = new CudaPageRegistrar;
    return new RegistrationCache(registrar, settings.budget_bytes, host_page_size());
  }();
  return cache;
}

PageableMode resolve_pageable_mode(PageableMode asked) {
  const PinCacheSettings& settings = pin_cache_settings();
  switch (asked) {
  case PageableMode::Default:
    return settings.enabled && settings.every_call ? PageableMode::CachedRegister
                                                   : PageableMode::Register;
  case PageableMode::CachedRegister:
    return settings.enabled ? PageableMode::CachedRegister : PageableMode::Register;
  case PageableMode::Register:
  case PageableMode::Stage:
    break;
  }
  return asked;
}

PinningPolicy pinning_policy(PageableMode mode) {
  PinningPolicy policy;
  policy.cache = process_registration_cache();
  policy.stage_copied = mode == PageableMode::Stage;
  const PageableMode registration =
      mode == PageableMode::Stage ? resolve_pageable_mode(PageableMode::Default) : mode;
  policy.cache_every_array = registration == PageableMode::CachedRegister;
  return policy;
}

Status unpin(const void* pointer, std::size_t bytes) {
  RegistrationCache* const cache = process_registration_cache();
  if (cache == nullptr || pointer == nullptr)
    return Status::success();
  const PageRange pages = pages_of(pointer, bytes > 0 ? bytes : 1, host_page_size());
  return cache->unpin(pages.begin, pages.end);
}

Status unpin_all() {
  RegistrationCache* const cache = process_registration_cache();
  return cache == nullptr ? Status::success() : cache->clear();
}

RegistrationCacheStats registration_cache_stats() {
  RegistrationCache* const cache = process_registration_cache();
  return cache == nullptr ? RegistrationCacheStats{} : cache->stats();
}

} // namespace overlap
