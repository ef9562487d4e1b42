// Byte sizes as people write and read them, for the environment variables (OVERLAP_PIN_CACHE,
// OVERLAP_DEVICE_MEMORY_BUDGET) and the messages that name sizes. CUDA-free, header-only, so that
// the model and the tests use the same functions.
#pragma once

#include <cctype>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>

namespace overlap {

// "268435456", "512M", "4G", "1.5GiB" -> bytes (K, M, G, T: powers of 1024; a trailing B or iB is
// accepted, in any case); false for anything else.
inline bool parseMemorySize(const std::string& text, std::size_t* bytes) {
  const char* const begin = text.c_str();
  char* end = nullptr;
  const double number = std::strtod(begin, &end);
  if (end == begin || !std::isfinite(number) || number < 0)
    return false;
  std::string suffix = end;
  for (char& c : suffix)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
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

// "1.50 GiB" style: "12 B", "512.0 MiB", "1.5 GiB" (binary units, one decimal).
inline std::string formatBytes(double bytes) {
  static const char* const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int unit = 0;
  double value = bytes;
  while (std::abs(value) >= 1024 && unit < 4) {
    value /= 1024;
    ++unit;
  }
  char text[64];
  if (unit == 0)
    std::snprintf(text, sizeof text, "%.0f B", value);
  else
    std::snprintf(text, sizeof text, "%.1f %s", value, units[unit]);
  return text;
}

} // namespace overlap
