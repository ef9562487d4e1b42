#include "CalibrationPlan.h"

#include <algorithm>

namespace overlap::calibration {

namespace {

constexpr std::size_t kMiB = std::size_t{1} << 20;

template <class T> std::vector<T> doubling(T first, T last) {
  std::vector<T> values;
  for (T value = first; value <= last; value *= 2)
    values.push_back(value);
  return values;
}

} // namespace

std::size_t backgroundBytesFor(std::size_t bytes, int pieces) {
  return 2 * bytes + static_cast<std::size_t>(pieces) * (kMiB / 2) + 16 * kMiB;
}

std::size_t CalibrationPlan::maxBytes() const {
  const std::size_t round =
      streamRoundBytes *
      static_cast<std::size_t>(
          std::max(largest(streamCounts), copyCallStreams * std::max(1, copyBatchCopies)));
  return std::max({largest(sizeBytes), largest(pieceMessageBytes), largest(mappedKernelBytes),
                   round, std::size_t{1}});
}

int CalibrationPlan::maxPieces() const {
  return std::max({largest(pieceCounts), largest(streamCounts), copyCallStreams, 2});
}

void CalibrationPlan::setRepeats(int n) {
  repeats = accuracy.repeats = n;
  busyLinkRepeats = std::max(busyLinkRepeats, n);
  accuracy.busyLinkRepeats = std::max(accuracy.busyLinkRepeats, n);
}

CalibrationPlan CalibrationPlan::standard() {
  CalibrationPlan plan;
  // 16 MiB .. 512 MiB: most of the sizes the model is checked on (paper 001 §V-A used 16 MB ..
  // 1 GB). Copies of 8 MiB and more start slower than a 1-byte copy, so smaller sizes would bend
  // the line that L+o fixes (bench/README.md, "Calibration").
  plan.sizeBytes = doubling(16 * kMiB, 512 * kMiB);
  plan.pieceCounts = doubling(1, 256);
  // The smallest and a large size of the accuracy range: g is shared by both.
  plan.pieceMessageBytes = {16 * kMiB, 128 * kMiB};
  plan.pageableBytes = doubling(16 * kMiB, 128 * kMiB);
  plan.mappedKernelBytes = doubling(16 * kMiB, 256 * kMiB);
  plan.mappedElementBytes = doubling(1, 16);
  plan.streamCounts = doubling(1, 64);
  // Larger than the host's last-level cache, which the smallest sample must not fit in.
  plan.hostCopyBytes = doubling(128 * kMiB, 512 * kMiB);
  plan.accuracy.sizeBytes = doubling(16 * kMiB, 1024 * kMiB);
  plan.accuracy.pieceCounts = doubling(1, 256);
  return plan;
}

CalibrationPlan CalibrationPlan::quick() {
  CalibrationPlan plan = standard();
  plan.repeats = 3;
  plan.busyLinkRepeats = 3;
  plan.latencyRepeats = 10;
  plan.sizeBytes = doubling(1 * kMiB, 8 * kMiB);
  plan.pieceCounts = doubling(1, 16);
  plan.pieceMessageBytes = {4 * kMiB};
  plan.pageableBytes = doubling(1 * kMiB, 4 * kMiB);
  plan.mappedKernelBytes = doubling(1 * kMiB, 8 * kMiB);
  plan.hostCostSamples = 16;
  plan.launchSyncCount = 8;
  plan.copyCallStreams = 8;
  plan.streamRoundRepeats = 5;
  plan.streamCounts = doubling(1, 8);
  plan.hostCopyBytes = doubling(16 * kMiB, 64 * kMiB);
  plan.accuracy.repeats = 3;
  plan.accuracy.busyLinkRepeats = 3;
  plan.accuracy.sizeBytes = doubling(2 * kMiB, 8 * kMiB);
  plan.accuracy.pieceCounts = doubling(1, 8);
  return plan;
}

} // namespace overlap::calibration
