// Sets or clears an environment variable for one test and puts the previous value back after it,
// so a test of OVERLAP_VARIANT cannot leak its override into the next test.
#pragma once

#include <cstdlib>
#include <optional>
#include <string>

namespace overlap::tune::testing {

class ScopedEnvironment {
public:
  // nullopt clears the variable.
  ScopedEnvironment(std::string name, const std::optional<std::string>& value)
      : name_(std::move(name)) {
    if (const char* old = std::getenv(name_.c_str()))
      previous_ = old;
    set(value);
  }
  ~ScopedEnvironment() { set(previous_); }
  ScopedEnvironment(const ScopedEnvironment&) = delete;
  ScopedEnvironment& operator=(const ScopedEnvironment&) = delete;

  void set(const std::optional<std::string>& value) const {
    if (value)
      setenv(name_.c_str(), value->c_str(), 1);
    else
      unsetenv(name_.c_str());
  }

private:
  std::string name_;
  std::optional<std::string> previous_;
};

} // namespace overlap::tune::testing
