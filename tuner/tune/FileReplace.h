// Writes a whole file through a temporary one and a rename, so a reader (a build, a resumed
// tuning) never sees half of it.
#pragma once

#include <string>

namespace overlap::tune {

// False with `error` set when the temporary cannot be written or renamed; the temporary is then
// removed and `path` left as it was.
bool replaceFile(const std::string& path, const std::string& text, std::string* error);

} // namespace overlap::tune
