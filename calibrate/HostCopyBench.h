// The staging ring's host copies (overlap/StagingRing.h) measured: bytes from pageable memory
// into pinned memory, shared by several threads, host clock from the threads' common start to
// the last one's end. The profile's host_copy parameters come from it.
#pragma once

#include "overlap/PinnedBuffer.h"
#include "overlap/Status.h"

#include <cstddef>
#include <memory>

namespace overlap::calibration {

class HostCopyBench {
public:
  // A pageable source, touched so that no page fault is timed, and a pinned destination.
  static Status create(std::size_t bytes, HostCopyBench* out);

  // Seconds for `threads` threads to copy bytes() between them (equal shares).
  Status copy(int threads, double* seconds);
  std::size_t bytes() const { return bytes_; }

private:
  std::unique_ptr<unsigned char[]> pageable_;
  PinnedBuffer pinned_;
  std::size_t bytes_ = 0;
};

} // namespace overlap::calibration
