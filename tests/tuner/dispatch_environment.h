// A ScopedEnvironment for the variables the dispatch reads once per process (OVERLAP_VARIANT,
// OVERLAP_DISPATCH_LOG): every change, and the restore at the end, is followed by
// overlap::reload_dispatch_settings(), so the dispatch sees what the test set and nothing leaks
// into the next test.
#pragma once

#include "overlap/dispatch.h"
#include "scoped_environment.h"

#include <optional>
#include <string>

namespace overlap::tune::testing {

class ScopedDispatchEnvironment {
public:
  ScopedDispatchEnvironment(std::string name, const std::optional<std::string>& value)
      : environment_(std::in_place, std::move(name), value) {
    overlap::reload_dispatch_settings();
  }
  ~ScopedDispatchEnvironment() {
    environment_.reset();
    overlap::reload_dispatch_settings();
  }
  ScopedDispatchEnvironment(const ScopedDispatchEnvironment&) = delete;
  ScopedDispatchEnvironment& operator=(const ScopedDispatchEnvironment&) = delete;

  void set(const std::optional<std::string>& value) const {
    environment_->set(value);
    overlap::reload_dispatch_settings();
  }

private:
  std::optional<ScopedEnvironment> environment_;
};

} // namespace overlap::tune::testing
