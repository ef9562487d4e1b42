// The host copying between pageable and pinned memory as the staging ring's threads do
// (StagingRing.h): HardwareProfile::hostCopySecondsPerByte on one thread and
// hostCopyParallelSecondsPerByte on the runtime's largest ring. A sample moves `bytes` of a
// pageable buffer in pieces of the ring's slot for that many bytes (resolvedStaging), thread t
// taking pieces t, t + threads, ..., every other one of its pieces copied into a pinned slot of
// its own (a fill) and the rest out of another (a drain); the host's wall time from waking the
// threads to the last one's end. The threads persist across samples, as the ring's do: a thread
// started per sample cost more than a 2 MB call's copies take. Pieces, not one memcpy of the whole:
// glibc copies large blocks with non-temporal stores, at another rate (on an H200 host one thread
// copied 64-256 MiB blocks at 6-8 GB/s, 32 and 512 MiB ones at 11-12).
#pragma once

#include "overlap/PinnedBuffer.h"
#include "overlap/Status.h"

#include <condition_variable>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace overlap::calibration {

class HostCopyBench {
public:
  // A pageable buffer of `maxBytes`, written once so that its pages exist (a user's array has
  // been written before it is copied), and two pinned slots for each of up to `maxThreads`.
  static Status create(std::size_t maxBytes, int maxThreads, std::unique_ptr<HostCopyBench>* out);

  HostCopyBench(const HostCopyBench&) = delete;
  HostCopyBench& operator=(const HostCopyBench&) = delete;
  ~HostCopyBench();

  // 0 < bytes <= maxBytes, 1 <= threads <= maxThreads.
  Status copy(std::size_t bytes, int threads, double* seconds);

  // The threads of the parallel rate: the runtime's ring for the largest calls on a host of
  // `hardwareThreads` (resolvedStaging, KernelTypes.h).
  static int parallelThreads(int hardwareThreads);

private:
  HostCopyBench() = default;
  void serve(std::size_t thread); // a worker: runs `work_` for each sample it takes part in

  std::size_t maxSlotBytes_ = 0;
  int maxThreads_ = 0;
  std::vector<unsigned char> pageable_;
  PinnedBuffer slots_;
  // Workers 1 .. maxThreads - 1; the caller of copy() is thread 0.
  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  std::function<void(std::size_t)> work_;
  unsigned long long sample_ = 0; // counts the samples, so a worker runs each once
  std::size_t active_ = 0;        // threads of the current sample
  std::size_t pending_ = 0;       // workers of the current sample not finished
  bool stop_ = false;
};

} // namespace overlap::calibration
