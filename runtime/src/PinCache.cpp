#include "overlap/PinCache.h"

#include "overlap/CudaPageRegistrar.h"
#include "overlap/PageRange.h"

#include <cstdio>
#include <cstdlib>

namespace overlap {

const PinCacheSettings& pinCacheSettings() {
  static const PinCacheSettings settings = [] {
    PinCacheSettings read =
        parsePinCacheSetting(std::getenv("OVERLAP_PIN_CACHE"), physicalMemoryBytes());
    if (!read.error.empty())
      std::fprintf(stderr, "overlap: %s\n", read.error.c_str());
    return read;
  }();
  return settings;
}

RegistrationCache* processRegistrationCache() {
  static RegistrationCache* const cache = []() -> RegistrationCache* {
    const PinCacheSettings& settings = pinCacheSettings();
    if (!settings.enabled)
      return nullptr;
    static CudaPageRegistrar* const registrar = new CudaPageRegistrar;
    return new RegistrationCache(registrar, settings.budgetBytes, hostPageSize());
  }();
  return cache;
}

PageableMode resolvePageableMode(PageableMode asked) {
  const PinCacheSettings& settings = pinCacheSettings();
  switch (asked) {
  case PageableMode::Default:
    return settings.enabled && settings.everyCall ? PageableMode::CachedRegister
                                                  : PageableMode::Register;
  case PageableMode::CachedRegister:
    return settings.enabled ? PageableMode::CachedRegister : PageableMode::Register;
  case PageableMode::Register:
  case PageableMode::Stage:
    break;
  }
  return asked;
}

PinningPolicy pinningPolicy(PageableMode mode) {
  PinningPolicy policy;
  policy.cache = processRegistrationCache();
  policy.stageCopied = mode == PageableMode::Stage;
  const PageableMode registration =
      mode == PageableMode::Stage ? resolvePageableMode(PageableMode::Default) : mode;
  policy.cacheEveryArray = registration == PageableMode::CachedRegister;
  return policy;
}

Status unpin(const void* pointer, std::size_t bytes) {
  RegistrationCache* const cache = processRegistrationCache();
  if (cache == nullptr || pointer == nullptr)
    return Status::success();
  const PageRange pages = pagesOf(pointer, bytes > 0 ? bytes : 1, hostPageSize());
  return cache->unpin(pages.begin, pages.end);
}

Status unpinAll() {
  RegistrationCache* const cache = processRegistrationCache();
  return cache == nullptr ? Status::success() : cache->clear();
}

RegistrationCacheStats registrationCacheStats() {
  RegistrationCache* const cache = processRegistrationCache();
  return cache == nullptr ? RegistrationCacheStats{} : cache->stats();
}

} // namespace overlap
