#include "CalibrationPlan.h"

#include <algorithm>

namespace overlap::calibration {

namespace {

constexpr std::size_t kMiB = std::size_t{1} << 20;

std::vector<std::size_t> doublingBytes(std::size_t first, std::size_t last) {
  std::vector<std::size_t> sizes;
  for (std::size_t size = first; size <= last; size *= 2)
    sizes.push_back(size);
  return sizes;
}

std::vector<int> doublingCounts(int first, int last) {
  std::vector<int> counts;
  for (int count = first; count <= last; count *= 2)
    counts.push_back(count);
  return counts;
}

template <class T> T largest(const std::vector<T>& values) {
  return values.empty() ? T{0} : *std::max_element(values.begin(), values.end());
}

} // namespace

std::size_t backgroundBytesFor(std::size_t bytes, int pieces) {
  return 2 * bytes + static_cast<std::size_t>(pieces) * (kMiB / 2) + 16 * kMiB;
}

std::size_t CalibrationPlan::maxBytes() const {
  std::size_t most =
      std::max({largest(sizeBytes), largest(pieceMessageBytes), largest(mappedKernelBytes),
                largest(withMappedBytes) * withMappedKernelFactor});
  const std::size_t round =
      streamRoundBytes * static_cast<std::size_t>(std::max(largest(streamCounts), copyCallStreams));
  return std::max({most, round, std::size_t{1}});
}

std::size_t CalibrationPlan::maxPageableBytes() const {
  return largest(pageableBytes);
}

int CalibrationPlan::maxPieces() const {
  return std::max({largest(pieceCounts), largest(streamCounts), copyCallStreams, 2});
}

int CalibrationPlan::busyLinkRepeatCount() const {
  return std::max(repeats, busyLinkRepeats);
}

CalibrationPlan CalibrationPlan::standard() {
  CalibrationPlan plan;
  // 16 MiB .. 512 MiB: most of the sizes the model is checked on (paper 001 §V-A used 16 MB ..
  // 1 GB). On the H100, copies of 8 MiB and more start about 7 us slower than a 1-byte copy, so
  // smaller sizes would bend the line that L+o fixes. 512 MiB gives the busy link's G of large
  // pieces (from ~128 MiB up on the H100) three single copies, not two, for ~1.7 s more.
  plan.sizeBytes = doublingBytes(16 * kMiB, 512 * kMiB);
  plan.pieceCounts = doublingCounts(1, 256);
  // The smallest and a large size of the accuracy range: g is shared by both.
  plan.pieceMessageBytes = {16 * kMiB, 128 * kMiB};
  plan.pageableBytes = doublingBytes(16 * kMiB, 128 * kMiB);
  plan.withMappedBytes = doublingBytes(16 * kMiB, 64 * kMiB);
  plan.mappedKernelBytes = doublingBytes(16 * kMiB, 256 * kMiB);
  plan.mappedElementBytes = doublingCounts(1, 16);
  plan.streamCounts = doublingCounts(1, 64);
  // 256 MiB: well beyond the last-level caches, so the copies run at the memory system's speed,
  // as the staging of a large call does; 7 repeats at 1..8 threads take about 1 s.
  plan.hostCopyBytes = 256 * kMiB;
  plan.hostCopyThreads = doublingCounts(1, 8);
  // busyLinkRepeats stays at its default, 31: on an H100 the five busy-link steps took 1.76 s
  // at 7 repeats (run 8), so 1 + 31 passes take about 7 s and the whole calibration about 11 s
  // (11.5 s in run 11, before the 512 MiB size).
  return plan;
}

CalibrationPlan CalibrationPlan::quick() {
  CalibrationPlan plan;
  plan.repeats = 3;
  plan.busyLinkRepeats = 3;
  plan.latencyRepeats = 10;
  plan.sizeBytes = doublingBytes(1 * kMiB, 8 * kMiB);
  plan.pieceCounts = doublingCounts(1, 16);
  plan.pieceMessageBytes = {4 * kMiB};
  plan.pageableBytes = doublingBytes(1 * kMiB, 4 * kMiB);
  plan.withMappedBytes = doublingBytes(1 * kMiB, 4 * kMiB);
  plan.mappedKernelBytes = doublingBytes(1 * kMiB, 8 * kMiB);
  plan.mappedElementBytes = doublingCounts(1, 16);
  plan.hostCostSamples = 16;
  plan.launchSyncCount = 8;
  plan.copyCallStreams = 8;
  plan.streamRoundRepeats = 5;
  plan.streamCounts = doublingCounts(1, 8);
  plan.hostCopyBytes = 16 * kMiB;
  plan.hostCopyThreads = doublingCounts(1, 2);
  return plan;
}

std::size_t AccuracyPlan::maxBytes() const {
  return std::max(largest(sizeBytes), std::size_t{1});
}

int AccuracyPlan::maxPieces() const {
  return std::max(largest(pieceCounts), 1);
}

int AccuracyPlan::busyLinkRepeatCount() const {
  return std::max(repeats, busyLinkRepeats);
}

AccuracyPlan AccuracyPlan::standard() {
  AccuracyPlan plan;
  plan.sizeBytes = doublingBytes(16 * kMiB, 1024 * kMiB);
  plan.pieceCounts = doublingCounts(1, 256);
  // busyLinkRepeats stays at its default, 15: on an H100 a pass over the busy-link and gated
  // simultaneous cases takes about 2 s of the 3.9 s of a whole pass (run 8), so the check takes
  // about 44 s instead of 23 s.
  return plan;
}

AccuracyPlan AccuracyPlan::quick() {
  AccuracyPlan plan;
  plan.repeats = 3;
  plan.busyLinkRepeats = 3;
  plan.sizeBytes = doublingBytes(2 * kMiB, 8 * kMiB);
  plan.pieceCounts = doublingCounts(1, 8);
  return plan;
}

} // namespace overlap::calibration
