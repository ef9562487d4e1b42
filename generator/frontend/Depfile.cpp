#include "frontend/Depfile.h"

namespace overlap::frontend {

std::string escapeForMake(const std::string& path) {
  std::string escaped;
  escaped.reserve(path.size());
  for (std::size_t i = 0; i < path.size(); ++i) {
    const char c = path[i];
    if (c == ' ' || c == '\t') {
      // Backslashes right before a blank are doubled so that they stay part of the name.
      for (std::size_t j = i; j > 0 && path[j - 1] == '\\'; --j)
        escaped += '\\';
      escaped += '\\';
    } else if (c == '#') {
      escaped += '\\';
    } else if (c == '$') {
      escaped += '$';
    }
    escaped += c;
  }
  return escaped;
}

std::string formatDepfile(const std::string& target, const std::vector<std::string>& dependencies) {
  std::string text = escapeForMake(target) + ":";
  for (const std::string& dependency : dependencies)
    text += " \\\n  " + escapeForMake(dependency);
  text += "\n";
  return text;
}

} // namespace overlap::frontend
