// printf-style formatting into a std::string, for the calibration's messages and tables.
#pragma once

#include <cstdio>
#include <string>

namespace overlap::calibration {

// Texts longer than 255 characters are cut short.
template <class... Args> std::string format(const char* pattern, Args... args) {
  char text[256];
  std::snprintf(text, sizeof(text), pattern, args...);
  return text;
}

} // namespace overlap::calibration
