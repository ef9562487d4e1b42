#include "HostCopyBench.h"

#include "overlap/KernelTypes.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <limits>
#include <string>
#include <thread>

namespace overlap::calibration {

namespace {

// The ring's threads and slot for the largest calls.
StagingConfig largestRing(int hardwareThreads) {
  return resolvedStaging({}, std::numeric_limits<long long>::max(), hardwareThreads);
}

} // namespace

Status HostCopyBench::create(std::size_t maxBytes, int maxThreads,
                             std::unique_ptr<HostCopyBench>* out) {
  std::unique_ptr<HostCopyBench> bench(new HostCopyBench());
  bench->maxSlotBytes_ = largestRing(maxThreads + 1).slotBytes;
  bench->maxThreads_ = maxThreads;
  bench->pageable_.assign(maxBytes, 1);
  const std::size_t slotsBytes = 2 * static_cast<std::size_t>(maxThreads) * bench->maxSlotBytes_;
  OVERLAP_TRY(PinnedBuffer::allocate(slotsBytes, &bench->slots_));
  std::memset(bench->slots_.data(), 2, slotsBytes);
  HostCopyBench* self = bench.get();
  for (std::size_t t = 1; t < static_cast<std::size_t>(maxThreads); ++t)
    bench->workers_.emplace_back([self, t] { self->serve(t); });
  *out = std::move(bench);
  return Status::success();
}

HostCopyBench::~HostCopyBench() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (std::thread& worker : workers_)
    worker.join();
}

void HostCopyBench::serve(std::size_t thread) {
  unsigned long long seen = 0;
  for (;;) {
    std::unique_lock<std::mutex> lock(mutex_);
    wake_.wait(lock, [&] { return stop_ || sample_ != seen; });
    if (stop_)
      return;
    seen = sample_;
    if (thread >= active_)
      continue;
    lock.unlock();
    work_(thread);
    lock.lock();
    if (--pending_ == 0)
      done_.notify_one();
  }
}

Status HostCopyBench::copy(std::size_t bytes, int threads, double* seconds) {
  if (bytes == 0 || bytes > pageable_.size() || threads < 1 || threads > maxThreads_)
    return Status{cudaErrorInvalidValue,
                  persistentText("HostCopyBench::copy: " + std::to_string(bytes) + " bytes on " +
                                 std::to_string(threads) + " threads (1 to " +
                                 std::to_string(maxThreads_) + " threads, at most " +
                                 std::to_string(pageable_.size()) + " bytes)"),
                  __FILE__, __LINE__};
  // The ring's slot for a call of `bytes` on `threads` (smaller for small calls).
  const std::size_t slotBytes =
      resolvedStaging({threads, 0, 0}, static_cast<long long>(bytes), threads + 1).slotBytes;
  const std::size_t pieces = (bytes + slotBytes - 1) / slotBytes;
  const auto stride = static_cast<std::size_t>(threads);
  const auto work = [&](std::size_t t) {
    unsigned char* slot[] = {slots_.as<unsigned char>() + 2 * t * maxSlotBytes_,
                             slots_.as<unsigned char>() + (2 * t + 1) * maxSlotBytes_};
    for (std::size_t piece = t, k = 0; piece < pieces; piece += stride, ++k) {
      unsigned char* user = pageable_.data() + piece * slotBytes;
      const std::size_t length = std::min(slotBytes, bytes - piece * slotBytes);
      if (k % 2 == 0)
        std::memcpy(slot[0], user, length); // a fill
      else
        std::memcpy(user, slot[1], length); // a drain
    }
  };
  const auto start = std::chrono::steady_clock::now();
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    work_ = work;
    active_ = stride;
    pending_ = stride - 1;
    ++sample_;
  }
  wake_.notify_all();
  work(0);
  {
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [&] { return pending_ == 0; });
  }
  *seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return Status::success();
}

int HostCopyBench::parallelThreads(int hardwareThreads) {
  return largestRing(hardwareThreads).threads;
}

} // namespace overlap::calibration
