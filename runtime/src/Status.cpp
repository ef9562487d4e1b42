#include "overlap/Status.h"

#include <mutex>
#include <set>
#include <string>

namespace overlap {

std::string Status::message() const {
  if (ok())
    return "success";
  std::string text = call != nullptr ? call : "CUDA call";
  text += " failed";
  if (file != nullptr) {
    text += " at ";
    text += file;
    text += ':';
    text += std::to_string(line);
  }
  // Both lookups are tables inside cudart; they need neither a device nor a driver.
  const char* description = cudaGetErrorString(code);
  const char* name = cudaGetErrorName(code);
  text += ": ";
  text += description != nullptr ? description : "unknown error";
  text += " (";
  text += name != nullptr ? name : "cudaError " + std::to_string(static_cast<int>(code));
  text += ')';
  return text;
}

const char* persistentText(const std::string& text) {
  static std::mutex mutex;
  static std::set<std::string>* const texts =
      new std::set<std::string>; // never destroyed: statuses may outlive static destruction
  const std::lock_guard<std::mutex> lock(mutex);
  return texts->insert(text).first->c_str();
}

} // namespace overlap
