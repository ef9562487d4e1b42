#include "HostCopyBench.h"

#include <chrono>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <new>
#include <thread>
#include <vector>

namespace overlap::calibration {

Status HostCopyBench::create(std::size_t bytes, HostCopyBench* out) {
  out->pageable_.reset(new (std::nothrow) unsigned char[bytes]);
  if (!out->pageable_)
    return Status{cudaErrorMemoryAllocation, "HostCopyBench: the pageable buffer", __FILE__,
                  __LINE__};
  std::memset(out->pageable_.get(), 0x5a, bytes);
  OVERLAP_TRY(PinnedBuffer::allocate(bytes, &out->pinned_, cudaHostAllocPortable));
  std::memset(out->pinned_.data(), 0, bytes);
  out->bytes_ = bytes;
  return Status::success();
}

Status HostCopyBench::copy(int threads, double* seconds) {
  if (threads < 1)
    return Status{cudaErrorInvalidValue, "HostCopyBench::copy: threads < 1", __FILE__, __LINE__};
  // The threads exist before the clock starts; they copy once released together.
  std::mutex mutex;
  std::condition_variable go;
  bool started = false;
  const std::size_t share = bytes_ / static_cast<std::size_t>(threads);
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t)
    workers.emplace_back([&, t] {
      {
        std::unique_lock<std::mutex> lock(mutex);
        go.wait(lock, [&] { return started; });
      }
      const std::size_t begin = share * static_cast<std::size_t>(t);
      const std::size_t length = t + 1 == threads ? bytes_ - begin : share;
      std::memcpy(pinned_.as<unsigned char>() + begin, pageable_.get() + begin, length);
    });
  const auto start = std::chrono::steady_clock::now();
  {
    const std::lock_guard<std::mutex> lock(mutex);
    started = true;
  }
  go.notify_all();
  for (std::thread& worker : workers)
    worker.join();
  *seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return Status::success();
}

} // namespace overlap::calibration
