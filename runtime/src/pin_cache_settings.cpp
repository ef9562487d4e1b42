#include "overlap/pin_cache_settings.h"

#include <unistd.h>

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace overlap {
namespace {

std::string lower(std::string text) {
  for (char& c : text)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// "512M", "1.5GiB", "268435456" -> bytes; false for anything else.
bool parse_bytes(const std::string& text, std::size_t* bytes) {
  const char* const begin = text.c_str();
  char* end = nullptr;
  const double number = std::strtod(begin, &end);
  if (end == begin || !std::isfinite(number) || number < 0)
    return false;
  std::string suffix = lower(end);
  double scale = 1;
  if (!suffix.empty()) {
    const std::string units = "kmgt";
    const std::size_t unit = units.find(suffix[0]);
    if (unit != std::string::npos) {
      scale = std::pow(1024.0, static_cast<double>(unit + 1));
      suffix.erase(0, 1);
    }
    if (suffix != "" && suffix != "b" && suffix != "ib")
      return false;
  }
  const double value = number * scale;
  if (value >= static_cast<double>(std::numeric_limits<std::size_t>::max()))
    return false;
  *bytes = static_cast<std::size_t>(value);
  return true;
}

} // namespace

std::size_t default_pin_cache_budget(std::size_t physical_bytes) {
  // Where the size is unknown, 1 GiB: enough for a loop over a few arrays of 256 MiB.
  return physical_bytes > 0 ? physical_bytes / 4 : std::size_t{1} << 30;
}

PinCacheSettings parse_pin_cache_setting(const char* value, std::size_t physical_bytes) {
  PinCacheSettings settings;
  settings.budget_bytes = default_pin_cache_budget(physical_bytes);
  if (value == nullptr)
    return settings;
  const std::string text = lower(value);
  if (text == "off") {
    settings.enabled = false;
    return settings;
  }
  if (text == "on") {
    settings.every_call = true;
    return settings;
  }
  std::size_t bytes = 0;
  if (!parse_bytes(text, &bytes)) {
    settings.error = std::string("OVERLAP_PIN_CACHE='") + value +
                     "' is neither on, off nor a size such as 512M or 4G; ignored";
    return settings;
  }
  if (bytes == 0) {
    settings.enabled = false;
    return settings;
  }
  settings.every_call = true;
  settings.budget_bytes = bytes;
  return settings;
}

std::size_t physical_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0)
    return 0;
  return static_cast<std::size_t>(pages) * static_cast<std::size_t>(page);
}

} // namespace overlap
