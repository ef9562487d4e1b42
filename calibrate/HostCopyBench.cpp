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
  bench->slotBytes_ = largestRing(maxThreads + 1).slotBytes;
  bench->maxThreads_ = maxThreads;
  bench->pageable_.assign(maxBytes, 1);
  const std::size_t slotsBytes = 2 * static_cast<std::size_t>(maxThreads) * bench->slotBytes_;
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
  const std::size_t pieces = (bytes + slotBytes_ - 1) / slotBytes_;
  const auto stride = static_cast<std::size_t>(threads);
  const auto work = [&](std::size_t t) {
    unsigned char* slot[] = {slots_.as<unsigned char>() + 2 * t * slotBytes_,
                             slots_.as<unsigned char>() + (2 * t + 1) * slotBytes_};
    for (std::size_t piece = t, k = 0; piece < pieces; piece += stride, ++k) {
      unsigned char* user = pageable_.data() + piece * slotBytes_;
      const std::size_t length = std::min(slotBytes_, bytes - piece * slotBytes_);
      if (piece % 2 == 0)
        std::memcpy(slot[k % 2], user, length); // a fill
      else
        std::memcpy(user, slot[k % 2], length); // a drain
    }
  };
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::thread> others;
  for (std::size_t t = 1; t < stride; ++t)
    others.emplace_back(work, t);
  work(0);
  for (std::thread& other : others)
    other.join();
  *seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return Status::success();
}

int HostCopyBench::parallelThreads(int hardwareThreads) {
  return largestRing(hardwareThreads).threads;
}

} // namespace overlap::calibration
