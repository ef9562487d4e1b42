// What overlap-calibrate measures and how often: message sizes, piece counts, repeats. The
// standard plan finishes in well under 30 s on an H100 on PCIe Gen5 (about 55 GB/s one way); the
// quick plan is for tests and smoke runs and gives rougher numbers.
#pragma once

#include <cstddef>
#include <vector>

namespace overlap::calibration {

struct CalibrationPlan {
  int warmup = 1;
  int repeats = 7; // each point is measured this often; the profile reports the spread
  // The steps against a busy link (bidirectional G and g, simultaneous g) measure each point this
  // often instead: there single H100 host-to-device copies of one size ranged 36.6-51.2 GB/s, and
  // the fit on 7 repeats moved with them (docs/hardware-profiles.md, "Calibration: method").
  int busy_link_repeats = 31;

  int latency_repeats = 50;                     // 1-byte transfers for L+o
  std::vector<std::size_t> size_bytes;          // G: one message of each size
  std::vector<int> piece_counts;                // g: n pieces over n streams
  std::vector<std::size_t> piece_message_bytes; // g: the message sizes cut into pieces
  std::vector<std::size_t> pageable_bytes;      // pageable G
  std::vector<std::size_t> with_mapped_bytes;   // G while a mapped kernel runs the other way
  std::size_t with_mapped_kernel_factor = 4;    // the kernel moves this many times the copy
  std::vector<std::size_t> mapped_kernel_bytes; // mapped read/write bandwidth
  std::vector<int> mapped_element_bytes;        // widths of the per-width mapped kernels
  // The host's per-call costs (kernel launch, launch + synchronize, copy call) are timed in
  // many short bursts, each a sample, and estimated by the samples' lower quartile
  // (docs/hardware-profiles.md, steps 8 and 10): a slow phase of the host or a slow first burst
  // then moves no estimate unless it lasts for three quarters of the samples.
  int host_cost_samples = 64;            // bursts per host-cost step, after `warmup`
  int launch_burst = 32;                 // empty kernels per launch burst
  int launch_sync_count = 16;            // launch + synchronize pairs per sample
  int copy_call_streams = 16;            // a copy in and a copy out per stream per burst
  int stream_round_repeats = 21;         // t_sc: repeats of each round
  std::vector<int> stream_counts;        // t_sc: streams used by a minimal round
  std::size_t stream_round_bytes = 4096; // per stream and direction, rounds and bursts
  // The staging ring's host copies: pageable to pinned memory, these bytes shared by each count
  // of threads (counts beyond the host's hardware threads are skipped).
  std::size_t host_copy_bytes = 0;
  std::vector<int> host_copy_threads;

  std::size_t max_bytes() const;          // of one host or device buffer
  std::size_t max_pageable_bytes() const; // of the pageable buffer
  int max_pieces() const;                 // streams needed in one direction
  // What the busy-link steps repeat: busy_link_repeats, never fewer than `repeats` (which
  // --repeats may raise).
  int busy_link_repeat_count() const;

  static CalibrationPlan standard();
  static CalibrationPlan quick();
};

// How much the other direction copies while a transfer of `bytes` in `pieces` is measured
// against a busy link: twice the bytes plus room for the pieces' gaps, so it outlasts the
// measured transfer (LinkBench checks that it did).
std::size_t background_bytes_for(std::size_t bytes, int pieces);

// The accuracy check of issue 3 / paper 001 §V-A: L+o + k G + g (n-1) against measured times.
struct AccuracyPlan {
  int warmup = 1;
  int repeats = 5;
  // The bidirectional and simultaneous cases (gated) are measured this often, in further passes
  // over the grid after the one-way cases have their `repeats`: with 5 repeats the median of a
  // busy host-to-device point on the H100 moved by several percent from one check to the next.
  int busy_link_repeats = 15;
  std::vector<std::size_t> size_bytes; // 16 MB .. 1 GB
  std::vector<int> piece_counts;       // 1 .. 256
  bool bidirectional = true;           // this direction while the other is busy throughout
  bool simultaneous = true;            // both directions the same size at once
  // Also time each point without holding the device back until all pieces are issued, to show
  // what the host's issue rate adds (see docs/hardware-profiles.md, "Method").
  bool ungated = true;

  std::size_t max_bytes() const;
  int max_pieces() const;
  // busy_link_repeats, never fewer than `repeats`.
  int busy_link_repeat_count() const;

  static AccuracyPlan standard();
  static AccuracyPlan quick();
};

} // namespace overlap::calibration
