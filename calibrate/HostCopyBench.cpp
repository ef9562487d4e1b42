#include "HostCopyBench.h"

#include "overlap/KernelTypes.h"
#include "overlap/StagingCopy.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <limits>
#include <string>

namespace overlap::calibration {

namespace {

// The ring's threads and slot for the largest calls.
StagingConfig largestRing(int hardwareThreads) {
  return resolvedStaging({}, std::numeric_limits<long long>::max(), hardwareThreads);
}

} // namespace

Status HostCopyBench::create(std::size_t maxBytes, int maxThreads,
                             std::unique_ptr<HostCopyBench>* out) {
  int device = 0;
  OVERLAP_CUDA_TRY(cudaGetDevice(&device));
  std::unique_ptr<HostCopyBench> bench(new HostCopyBench(device));
  bench->maxSlotBytes_ = largestRing(maxThreads + 1).slotBytes;
  bench->maxThreads_ = maxThreads;
  bench->pageable_.assign(maxBytes, 1);
  const std::size_t slotsBytes = 2 * static_cast<std::size_t>(maxThreads) * bench->maxSlotBytes_;
  OVERLAP_TRY(PinnedBuffer::allocate(slotsBytes, &bench->slots_));
  std::memset(bench->slots_.data(), 2, slotsBytes);
  *out = std::move(bench);
  return Status::success();
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
  std::atomic<std::size_t> nextThread{0}; // each worker's index, taken as it starts
  const auto work = [&] {
    const std::size_t t = nextThread.fetch_add(1);
    unsigned char* slot[] = {slots_.as<unsigned char>() + 2 * t * maxSlotBytes_,
                             slots_.as<unsigned char>() + (2 * t + 1) * maxSlotBytes_};
    for (std::size_t piece = t, k = 0; piece < pieces; piece += stride, ++k) {
      unsigned char* user = pageable_.data() + piece * slotBytes;
      const std::size_t length = std::min(slotBytes, bytes - piece * slotBytes);
      if (k % 2 == 0)
        fillSlot(slot[0], user, length);
      else
        drainSlot(user, slot[1], length);
    }
  };
  const auto start = std::chrono::steady_clock::now();
  workers_.start(threads, work);
  workers_.wait();
  *seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return Status::success();
}

int HostCopyBench::parallelThreads(int hardwareThreads) {
  return largestRing(hardwareThreads).threads;
}

} // namespace overlap::calibration
