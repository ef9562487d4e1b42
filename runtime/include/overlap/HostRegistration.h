// One cudaHostRegister'ed range, unregistered when the object ends. Pinning costs time
// proportional to the range (the OS locks every page); see HostArrayPinning.h for when the
// strategies pay it.
#pragma once

#include "overlap/Status.h"

#include <cstddef>

namespace overlap {

class HostRegistration {
public:
  HostRegistration() = default;
  HostRegistration(const HostRegistration&) = delete;
  HostRegistration& operator=(const HostRegistration&) = delete;
  HostRegistration(HostRegistration&& other) noexcept;
  HostRegistration& operator=(HostRegistration&& other) noexcept;
  // Unregisters, ignoring a failure: the paths that end this way already report an error. Call
  // release() to see the status.
  ~HostRegistration();

  // cudaHostRegister(begin, bytes, flags). On failure *out is left empty and the runtime's
  // last-error state is cleared (the returned status carries the error instead).
  static Status registerRange(void* begin, std::size_t bytes, unsigned flags,
                              HostRegistration* out);

  // Unregisters now; a second call, or a call on an empty object, does nothing. When
  // cudaHostUnregister fails the range stays held (and pinned), so that a later call, the
  // destructor's at the latest, tries again; the runtime's last-error state is cleared.
  Status release();

  void* begin() const { return begin_; }
  std::size_t bytes() const { return bytes_; }
  bool active() const { return begin_ != nullptr; }

private:
  void* begin_ = nullptr;
  std::size_t bytes_ = 0;
};

} // namespace overlap
