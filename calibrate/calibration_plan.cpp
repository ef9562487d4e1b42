#include "calibration_plan.h"

#include <algorithm>

namespace overlap::calibration {

namespace {

constexpr std::size_t kMiB = std::size_t{1} << 20;

std::vector<std::size_t> doubling_bytes(std::size_t first, std::size_t last) {
  std::vector<std::size_t> sizes;
  for (std::size_t size = first; size <= last; size *= 2)
    sizes.push_back(size);
  return sizes;
}

std::vector<int> doubling_counts(int first, int last) {
  std::vector<int> counts;
  for (int count = first; count <= last; count *= 2)
    counts.push_back(count);
  return counts;
}

template <class T> T largest(const std::vector<T>& values) {
  return values.empty() ? T{0} : *std::max_element(values.begin(), values.end());
}

} // namespace

std::size_t background_bytes_for(std::size_t bytes, int pieces) {
  return 2 * bytes + static_cast<std::size_t>(pieces) * (kMiB / 2) + 16 * kMiB;
}

std::size_t CalibrationPlan::max_bytes() const {
  std::size_t most =
      std::max({largest(size_bytes), largest(piece_message_bytes), largest(mapped_kernel_bytes),
                largest(with_mapped_bytes) * with_mapped_kernel_factor});
  const std::size_t round =
      stream_round_bytes *
      static_cast<std::size_t>(std::max(largest(stream_counts), copy_call_streams));
  return std::max({most, round, std::size_t{1}});
}

std::size_t CalibrationPlan::max_pageable_bytes() const {
  return largest(pageable_bytes);
}

int CalibrationPlan::max_pieces() const {
  return std::max({largest(piece_counts), largest(stream_counts), copy_call_streams, 2});
}

int CalibrationPlan::busy_link_repeat_count() const {
  return std::max(repeats, busy_link_repeats);
}

CalibrationPlan CalibrationPlan::standard() {
  CalibrationPlan plan;
  // 16 MiB .. 512 MiB: most of the sizes the model is checked on (paper 001 §V-A used 16 MB ..
  // 1 GB). On the H100, copies of 8 MiB and more start about 7 us slower than a 1-byte copy, so
  // smaller sizes would bend the line that L+o fixes. 512 MiB gives the busy link's G of large
  // pieces (from ~128 MiB up on the H100) three single copies, not two, for ~1.7 s more.
  plan.size_bytes = doubling_bytes(16 * kMiB, 512 * kMiB);
  plan.piece_counts = doubling_counts(1, 256);
  // The smallest and a large size of the accuracy range: g is shared by both.
  plan.piece_message_bytes = {16 * kMiB, 128 * kMiB};
  plan.pageable_bytes = doubling_bytes(16 * kMiB, 128 * kMiB);
  plan.with_mapped_bytes = doubling_bytes(16 * kMiB, 64 * kMiB);
  plan.mapped_kernel_bytes = doubling_bytes(16 * kMiB, 256 * kMiB);
  plan.mapped_element_bytes = doubling_counts(1, 16);
  plan.stream_counts = doubling_counts(1, 64);
  // 256 MiB: well beyond the last-level caches, so the copies run at the memory system's speed,
  // as the staging of a large call does; 7 repeats at 1..8 threads take about 1 s.
  plan.host_copy_bytes = 256 * kMiB;
  plan.host_copy_threads = doubling_counts(1, 8);
  // busy_link_repeats stays at its default, 31: on an H100 the five busy-link steps took 1.76 s
  // at 7 repeats (run 8), so 1 + 31 passes take about 7 s and the whole calibration about 11 s
  // (11.5 s in run 11, before the 512 MiB size).
  return plan;
}

CalibrationPlan CalibrationPlan::quick() {
  CalibrationPlan plan;
  plan.repeats = 3;
  plan.busy_link_repeats = 3;
  plan.latency_repeats = 10;
  plan.size_bytes = doubling_bytes(1 * kMiB, 8 * kMiB);
  plan.piece_counts = doubling_counts(1, 16);
  plan.piece_message_bytes = {4 * kMiB};
  plan.pageable_bytes = doubling_bytes(1 * kMiB, 4 * kMiB);
  plan.with_mapped_bytes = doubling_bytes(1 * kMiB, 4 * kMiB);
  plan.mapped_kernel_bytes = doubling_bytes(1 * kMiB, 8 * kMiB);
  plan.mapped_element_bytes = doubling_counts(1, 16);
  plan.host_cost_samples = 16;
  plan.launch_sync_count = 8;
  plan.copy_call_streams = 8;
  plan.stream_round_repeats = 5;
  plan.stream_counts = doubling_counts(1, 8);
  plan.host_copy_bytes = 16 * kMiB;
  plan.host_copy_threads = doubling_counts(1, 2);
  return plan;
}

std::size_t AccuracyPlan::max_bytes() const {
  return std::max(largest(size_bytes), std::size_t{1});
}

int AccuracyPlan::max_pieces() const {
  return std::max(largest(piece_counts), 1);
}

int AccuracyPlan::busy_link_repeat_count() const {
  return std::max(repeats, busy_link_repeats);
}

AccuracyPlan AccuracyPlan::standard() {
  AccuracyPlan plan;
  plan.size_bytes = doubling_bytes(16 * kMiB, 1024 * kMiB);
  plan.piece_counts = doubling_counts(1, 256);
  // busy_link_repeats stays at its default, 15: on an H100 a pass over the busy-link and gated
  // simultaneous cases takes about 2 s of the 3.9 s of a whole pass (run 8), so the check takes
  // about 44 s instead of 23 s.
  return plan;
}

AccuracyPlan AccuracyPlan::quick() {
  AccuracyPlan plan;
  plan.repeats = 3;
  plan.busy_link_repeats = 3;
  plan.size_bytes = doubling_bytes(2 * kMiB, 8 * kMiB);
  plan.piece_counts = doubling_counts(1, 8);
  return plan;
}

} // namespace overlap::calibration
