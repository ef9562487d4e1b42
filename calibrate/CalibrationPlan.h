// What overlap-calibrate measures and how often: message sizes, piece counts, repeats. The
// quick plan is for tests and smoke runs and gives rougher numbers.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace overlap::calibration {

// The largest of `values`; 0 when there are none.
template <class T> T largest(const std::vector<T>& values) {
  return values.empty() ? T{0} : *std::max_element(values.begin(), values.end());
}

// What the accuracy check (AccuracyTable.h) measures.
struct AccuracyPlan {
  int repeats = 5;
  int busyLinkRepeats = 15;           // the bidirectional cases, in passes after the one-way ones
  std::vector<std::size_t> sizeBytes; // 16 MiB .. 1 GiB
  std::vector<int> pieceCounts;       // 1 .. 256
};

struct CalibrationPlan {
  int warmup = 1;
  int repeats = 7; // each point is measured this often; the profile reports the spread
  // The steps against a busy link (bidirectional G and g) measure each point this often instead:
  // its rate varies far more from one copy to the next (bench/README.md, "Calibration").
  int busyLinkRepeats = 31;

  int latencyRepeats = 50;                    // 1-byte transfers for L+o
  std::vector<std::size_t> sizeBytes;         // G: one message of each size
  std::vector<int> pieceCounts;               // g: n pieces over n streams
  std::vector<std::size_t> pieceMessageBytes; // g: the message sizes cut into pieces
  std::vector<std::size_t> pageableBytes;     // pageable G
  std::vector<std::size_t> mappedKernelBytes; // mapped kernels per element width
  std::vector<int> mappedElementBytes;        // widths; the 16-byte one gives mapped read/write
  // The host's per-call costs (kernel launch, launch + synchronize, copy call) are timed in
  // many short bursts, each a sample, and estimated by the samples' lower quartile.
  int hostCostSamples = 64;            // bursts per host-cost step, after `warmup`
  int launchBurst = 32;                // empty kernels per launch burst
  int launchSyncCount = 16;            // launch + synchronize pairs per sample
  int copyCallStreams = 16;            // a copy in and a copy out per stream per burst
  int copyBatchCopies = 8;             // copies per batch, one batch per copy-call stream
  int streamRoundRepeats = 21;         // t_sc: repeats of each round
  std::vector<int> streamCounts;       // t_sc: streams used by a minimal round
  std::size_t streamRoundBytes = 4096; // per stream and direction, rounds and copy calls
  // Host copies between pageable and pinned memory (HostCopyBench.h), bytes moved in all.
  std::vector<std::size_t> hostCopyBytes;
  // host_copy.thread_piece_s: a staged call of this many bytes (half each way) in this many
  // copies each way, as a pipeline's chunks, over ring thread counts. 0 bytes: not measured.
  std::size_t stagedCallBytes = std::size_t{2} << 20;
  int stagedCallCopies = 16;
  AccuracyPlan accuracy; // after the warm-up of `warmup` passes

  std::size_t maxBytes() const; // of one host or device buffer for the calibration
  int maxPieces() const;        // streams needed in one direction
  // --repeats: `repeats` everywhere, the busy link's never fewer.
  void setRepeats(int repeats);

  static CalibrationPlan standard();
  static CalibrationPlan quick();
};

// What the other direction copies while `bytes` in `pieces` are measured against a busy link:
// twice the bytes plus room for the pieces' gaps, to outlast the transfer (the calibrator checks).
std::size_t backgroundBytesFor(std::size_t bytes, int pieces);

} // namespace overlap::calibration
