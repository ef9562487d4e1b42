#include "overlap/PinCacheSettings.h"

#include "overlap/ByteSize.h"

#include <unistd.h>

#include <cctype>

namespace overlap {
namespace {

std::string lower(std::string text) {
  for (char& c : text)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

} // namespace

std::size_t defaultPinCacheBudget(std::size_t physicalBytes) {
  // Where the size is unknown, 1 GiB: enough for a loop over a few arrays of 256 MiB.
  return physicalBytes > 0 ? physicalBytes / 4 : std::size_t{1} << 30;
}

PinCacheSettings parsePinCacheSetting(const char* value, std::size_t physicalBytes) {
  PinCacheSettings settings;
  settings.budgetBytes = defaultPinCacheBudget(physicalBytes);
  if (value == nullptr)
    return settings;
  const std::string text = lower(value);
  if (text == "off") {
    settings.enabled = false;
    return settings;
  }
  if (text == "on") {
    settings.everyCall = true;
    return settings;
  }
  std::size_t bytes = 0;
  if (!parseMemorySize(text, &bytes)) {
    settings.error = std::string("OVERLAP_PIN_CACHE='") + value +
                     "' is neither on, off nor a size such as 512M or 4G; ignored";
    return settings;
  }
  if (bytes == 0) {
    settings.enabled = false;
    return settings;
  }
  settings.everyCall = true;
  settings.budgetBytes = bytes;
  return settings;
}

std::size_t physicalMemoryBytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0)
    return 0;
  return static_cast<std::size_t>(pages) * static_cast<std::size_t>(page);
}

} // namespace overlap
