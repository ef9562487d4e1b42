#include "tune/FileReplace.h"

#include <filesystem>
#include <fstream>
#include <system_error>

namespace overlap::tune {

bool replaceFile(const std::string& path, const std::string& text, std::string* error) {
  const std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary, std::ios::trunc);
    out << text;
    out.flush();
    if (!out) {
      *error = "cannot write " + temporary;
      std::error_code ignored;
      std::filesystem::remove(temporary, ignored);
      return false;
    }
  }
  std::error_code code;
  std::filesystem::rename(temporary, path, code);
  if (code) {
    *error = "cannot rename " + temporary + " to " + path + ": " + code.message();
    std::filesystem::remove(temporary, code);
    return false;
  }
  return true;
}

} // namespace overlap::tune
