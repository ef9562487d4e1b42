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
  int busyLinkRepeats = 31;

  int latencyRepeats = 50;                    // 1-byte transfers for L+o
  std::vector<std::size_t> sizeBytes;         // G: one message of each size
  std::vector<int> pieceCounts;               // g: n pieces over n streams
  std::vector<std::size_t> pieceMessageBytes; // g: the message sizes cut into pieces
  std::vector<std::size_t> pageableBytes;     // pageable G
  std::vector<std::size_t> withMappedBytes;   // G while a mapped kernel runs the other way
  std::size_t withMappedKernelFactor = 4;     // the kernel moves this many times the copy
  std::vector<std::size_t> mappedKernelBytes; // mapped read/write bandwidth
  std::vector<int> mappedElementBytes;        // widths of the per-width mapped kernels
  // The host's per-call costs (kernel launch, launch + synchronize, copy call) are timed in
  // many short bursts, each a sample, and estimated by the samples' lower quartile
  // (docs/hardware-profiles.md, steps 8 and 10): a slow phase of the host or a slow first burst
  // then moves no estimate unless it lasts for three quarters of the samples.
  int hostCostSamples = 64;            // bursts per host-cost step, after `warmup`
  int launchBurst = 32;                // empty kernels per launch burst
  int launchSyncCount = 16;            // launch + synchronize pairs per sample
  int copyCallStreams = 16;            // a copy in and a copy out per stream per burst
  int streamRoundRepeats = 21;         // t_sc: repeats of each round
  std::vector<int> streamCounts;       // t_sc: streams used by a minimal round
  std::size_t streamRoundBytes = 4096; // per stream and direction, rounds and bursts
  // The staging ring's host copies: pageable to pinned memory, these bytes shared by each count
  // of threads (counts beyond the host's hardware threads are skipped).
  std::size_t hostCopyBytes = 0;
  std::vector<int> hostCopyThreads;

  std::size_t maxBytes() const;         // of one host or device buffer
  std::size_t maxPageableBytes() const; // of the pageable buffer
  int maxPieces() const;                // streams needed in one direction
  // What the busy-link steps repeat: busyLinkRepeats, never fewer than `repeats` (which
  // --repeats may raise).
  int busyLinkRepeatCount() const;

  static CalibrationPlan standard();
  static CalibrationPlan quick();
};

// How much the other direction copies while a transfer of `bytes` in `pieces` is measured
// against a busy link: twice the bytes plus room for the pieces' gaps, so it outlasts the
// measured transfer (LinkBench checks that it did).
std::size_t backgroundBytesFor(std::size_t bytes, int pieces);

// The accuracy check of issue 3 / paper 001 §V-A: L+o + k G + g (n-1) against measured times.
struct AccuracyPlan {
  int warmup = 1;
  int repeats = 5;
  // The bidirectional and simultaneous cases (gated) are measured this often, in further passes
  // over the grid after the one-way cases have their `repeats`: with 5 repeats the median of a
  // busy host-to-device point on the H100 moved by several percent from one check to the next.
  int busyLinkRepeats = 15;
  std::vector<std::size_t> sizeBytes; // 16 MB .. 1 GB
  std::vector<int> pieceCounts;       // 1 .. 256
  bool bidirectional = true;          // this direction while the other is busy throughout
  bool simultaneous = true;           // both directions the same size at once
  // Also time each point without holding the device back until all pieces are issued, to show
  // what the host's issue rate adds (see docs/hardware-profiles.md, "Method").
  bool ungated = true;

  std::size_t maxBytes() const;
  int maxPieces() const;
  // busyLinkRepeats, never fewer than `repeats`.
  int busyLinkRepeatCount() const;

  static AccuracyPlan standard();
  static AccuracyPlan quick();
};

} // namespace overlap::calibration
