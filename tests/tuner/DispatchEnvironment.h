// A ScopedEnvironment for the variables the dispatch reads once per process (OVERLAP_VARIANT,
// OVERLAP_DISPATCH_LOG): every change, and the restore at the end, is followed by
// overlap::reloadDispatchSettings(), so the dispatch sees what the test set and nothing leaks
// into the next test.
#pragma once

#include "ScopedEnvironment.h"
#include "overlap/Dispatch.h"

#include <optional>
#include <string>

namespace overlap::tune::testing {

class ScopedDispatchEnvironment {
public:
  ScopedDispatchEnvironment(std::string name, const std::optional<std::string>& value)
      : environment_(std::in_place, std::move(name), value) {
    overlap::reloadDispatchSettings();
  }
  ~ScopedDispatchEnvironment() {
    environment_.reset();
    overlap::reloadDispatchSettings();
  }
  ScopedDispatchEnvironment(const ScopedDispatchEnvironment&) = delete;
  ScopedDispatchEnvironment& operator=(const ScopedDispatchEnvironment&) = delete;

  void set(const std::optional<std::string>& value) const {
    environment_->set(value);
    overlap::reloadDispatchSettings();
  }

private:
  std::optional<ScopedEnvironment> environment_;
};

} // namespace overlap::tune::testing
