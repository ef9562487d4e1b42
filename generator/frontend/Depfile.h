// Make-syntax dependency files for the build system (CMake's DEPFILE): when the input or anything
// it includes changes, the generated files are regenerated.
#pragma once

#include <string>
#include <vector>

namespace overlap::frontend {

// "<target>: <dep> <dep> ...\n", one dependency per continued line, with spaces, '#' and '$'
// escaped the way Make and Ninja read them.
std::string formatDepfile(const std::string& target, const std::vector<std::string>& dependencies);

// Escapes one path for a Make rule.
std::string escapeForMake(const std::string& path);

} // namespace overlap::frontend
