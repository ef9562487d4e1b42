// The host copying between pageable and pinned memory as the staging ring's threads do
// (StagingRing.h): HardwareProfile::hostCopySecondsPerByte on one thread and
// hostCopyParallelSecondsPerByte on the runtime's largest ring. A sample moves `bytes` of a
// pageable buffer in pieces of the ring's slot for that many bytes (resolvedStaging), thread t
// taking pieces t, t + threads, ..., every other one of its pieces copied into a pinned slot of
// its own (a fill) and the rest out of another (a drain); the host's wall time from waking the
// threads to the last one's end. The threads are the ring's kind (HostCopyWorkers), kept across
// samples: a thread started per sample cost more than a 2 MB call's copies take. Pieces, not one
// memcpy of the whole: glibc copies large blocks with non-temporal stores, at another rate (on an
// H200 host one thread copied 64-256 MiB blocks at 6-8 GB/s, 32 and 512 MiB ones at 11-12).
#pragma once

#include "overlap/HostCopyWorkers.h"
#include "overlap/PinnedBuffer.h"
#include "overlap/Status.h"

#include <cstddef>
#include <memory>
#include <vector>

namespace overlap::calibration {

class HostCopyBench {
public:
  // A pageable buffer of `maxBytes`, written once so that its pages exist (a user's array has
  // been written before it is copied), and two pinned slots for each of up to `maxThreads`.
  static Status create(std::size_t maxBytes, int maxThreads, std::unique_ptr<HostCopyBench>* out);

  // 0 < bytes <= maxBytes, 1 <= threads <= maxThreads.
  Status copy(std::size_t bytes, int threads, double* seconds);

  // The threads of the parallel rate: the runtime's ring for the largest calls on a host of
  // `hardwareThreads` (resolvedStaging, KernelTypes.h).
  static int parallelThreads(int hardwareThreads);

private:
  explicit HostCopyBench(int device) : workers_(device) {}

  std::size_t maxSlotBytes_ = 0;
  int maxThreads_ = 0;
  std::vector<unsigned char> pageable_;
  PinnedBuffer slots_;
  HostCopyWorkers workers_;
};

} // namespace overlap::calibration
