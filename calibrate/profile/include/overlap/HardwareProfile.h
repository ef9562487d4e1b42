// What the model needs to know about one GPU and its host link, measured by overlap-calibrate
// (paper 001 §V) or taken from a paper's published parameters. No CUDA dependency: the model and
// its tests use profiles on machines without a GPU. The JSON form is documented in
// docs/hardware-profiles.md; read and write it with overlap/ProfileIo.h.
//
// A parameter of 0 is "not known": the papers publish only some of them (Table II of paper 001
// gives the Tesla K20 bidirectional G but not its one-way G), and the JSON form writes it as null.
#pragma once

#include <string>
#include <vector>

namespace overlap {

// The LogGP-style parameters of one transfer direction (paper 001 §V): a transfer of k bytes cut
// into n pieces over n streams takes  L+o + k*G + g*(n-1).
struct LinkDirection {
  double latencyS = 0;                    // L + o: a 1-byte transfer
  double secondsPerByte = 0;              // G: large messages, this direction alone
  double gapS = 0;                        // g: per additional transfer when a message is cut up
  double bidirectionalSecondsPerByte = 0; // G while the other direction is busy too (Table II)
  double pageableSecondsPerByte = 0;      // G from/to pageable (unpinned) host memory
  // G while a kernel moves mapped host memory the other way (Table II "explicit-mapped"), the
  // situation of the Hybrid variant: copies in while kernels write results to mapped memory.
  double withMappedSecondsPerByte = 0;
  // g while the other direction is busy throughout: on the H100 the gap per piece more than
  // doubles device to host, which the one-way g underestimates. 0: not known, g stands in.
  double bidirectionalGapS = 0;
  // A busy link whose G depends on the size of the pieces: bidirectional_seconds_per_byte is
  // then the G of the pieces below bidirectional_large_piece_min_bytes, and this the G of the
  // pieces from there up. overlap-calibrate does not measure it (it writes 0: one G for every
  // piece size); a profile may set it by hand.
  double bidirectionalLargePieceSecondsPerByte = 0;
  double bidirectionalLargePieceMinBytes = 0;

  // G of one piece of `pieceBytes` while the other direction is busy (0 when not known).
  double bidirectionalSecondsPerByteFor(double pieceBytes) const {
    const bool large = bidirectionalLargePieceSecondsPerByte > 0 &&
                       bidirectionalLargePieceMinBytes > 0 &&
                       pieceBytes >= bidirectionalLargePieceMinBytes;
    return large ? bidirectionalLargePieceSecondsPerByte : bidirectionalSecondsPerByte;
  }
};

// The cost of mapped (zero-copy) access when each thread of a warp touches consecutive elements
// of one width: narrow elements make a warp ask the link for 32- or 64-byte pieces
// instead of whole lines, which costs more per byte (1-byte pixels: 2.5-4x on the H200).
struct MappedWidthCost {
  int elementBytes = 0; // 1, 2, 4, 8, 16
  double readSecondsPerByte = 0;
  double writeSecondsPerByte = 0;
};

struct HardwareProfile {
  // The one schema read and written; files of older versions are refused (re-run
  // overlap-calibrate). 5: the fields no prediction read are gone.
  static constexpr int kSchemaVersion = 5;

  std::string name;       // key users pick it by, e.g. "h100-pcie5" or "gtx-titan-pcie3"
  std::string source;     // "measured by overlap-calibrate", "paper 001 Table I", ...
  std::string deviceName; // e.g. "NVIDIA H100 80GB HBM3"
  std::string pcie;       // e.g. "Gen5 x16"
  std::string driver;     // e.g. "580.159.04"
  std::string date;       // ISO date of the measurement
  std::string notes;      // where each parameter came from, what is not known and why
  int computeCapabilityMajor = 0;
  int computeCapabilityMinor = 0;
  int multiprocessors = 0;

  // Device category of paper 001 §IV.
  int copyEngines = 1;                  // asyncEngineCount
  bool implicitSynchronization = false; // compute capability < 3.5

  LinkDirection hostToDevice;
  LinkDirection deviceToHost;

  // Kernels reading/writing mapped (zero-copy) host memory, seconds per byte.
  double mappedReadSecondsPerByte = 0;
  double mappedWriteSecondsPerByte = 0;
  // The same per element width, widths ascending; empty when not measured, and then
  // the two values above (measured with 16-byte accesses) stand for every width.
  std::vector<MappedWidthCost> mappedByWidth;
  // Seconds per byte each way of a kernel that reads and writes as many bytes of mapped host
  // memory at once, 16-byte elements (`out[i] = f(in[i])`): mapped traffic
  // against mapped traffic the other way, which the H200 ran at ~42 GB/s each way where one way
  // alone ran at ~52. 0: not known (the copies' bidirectional slowdown stands in).
  double mappedBothWaysSecondsPerByte = 0;

  double kernelLaunchS = 0; // launch overhead of an empty kernel (paper 002 §4.1.3)
  // Per launch-and-synchronize beyond the launch itself, eq. 4.3 of paper 002 §4.1.1.
  double streamSyncS = 0;
  double streamOverheadS = 0; // t_sc of paper 000 §3.2: extra cost per stream used
  // Host time of one cudaMemcpyAsync call of pinned memory, the call alone: what a pipeline's host
  // spends per copy while the device works. 0: not known, and the model derives it from t_sc, whose
  // rounds also synchronize every stream.
  double copyCallS = 0;
  // Host time each copy adds to a batch of copies issued together on one stream (a chunk's
  // sections of several arrays, one cudaMemcpyBatchAsync: runtime/CopyBatch.h) beyond the first,
  // which costs copyCallS. 0: not known, and the model prices every copy of a batch at copyCallS.
  double copyBatchedS = 0;
  // Host time per operation of one cudaGraphLaunch of a pipeline's graph (a copy in, a kernel and
  // a copy out on each of 16 streams): what a graph-form call (StreamsConfig::graph) spends per
  // copy or launch in place of copyCallS and kernelLaunchS. The launch of a graph costs in
  // proportion to its nodes (H100: 2 us per node, 100 us for 48). 0: not known, and the model
  // prices graph forms as their plain forms.
  double graphOpLaunchS = 0;

  // The host's copies between pageable and pinned memory, which the staging ring's threads make
  // (PageableMode::Stage): seconds per byte of one thread copying large blocks, and of several
  // threads copying at once, which the memory system limits. 0: not known, and the model assumes
  // PipelineSimulator.h's defaults.
  double hostCopySecondsPerByte = 0;
  double hostCopyParallelSecondsPerByte = 0;
  // The same copies on several thread counts (host_copy.by_threads; ascending, one to the ring's
  // widest): seconds per byte of all of them together. The memory system does not scale with the
  // threads (H200 host: 22 GB/s on 4 threads, 38 on 8, 42 on 15, one thread 9-11), so the
  // model takes a ring's rate from here. Empty: not measured, and the rate of T threads is the
  // lower of T times one thread's and the parallel rate.
  struct HostCopyThreads {
    int threads = 0;
    double secondsPerByte = 0;
  };
  std::vector<HostCopyThreads> hostCopyByThreads;
  // Host time a staged call spends per piece it hands over and thread of its ring idle then,
  // beyond the copies: every hand-over wakes the ring's idle threads, which take the lock in turn.
  // Measured on small staged calls of many pieces (threads mostly idle) over the thread count: why
  // a small call is slower on more threads (H200 host: 1 MiB each way in 32 pieces took 0.39 ms on
  // 4 threads, 0.72 on 15). 0: not known, and the model charges nothing.
  double hostCopyThreadPieceS = 0;

  // The host side of several GPUs' links (calls split across GPUs, Candidate::devices): seconds
  // per byte of copies to and from `allLinksDevices` devices at once, every device's bytes of both
  // directions counted together. The host's memory and root complex give all the links together
  // less than their sum (2 x H100: 1.5-2x one link; 4 x H100: 2.3x). 0: not measured (a machine of
  // one GPU, or a profile from before), and a split's prediction is then a lower bound.
  int allLinksDevices = 0;
  double allLinksSecondsPerByte = 0;
  // The same links copying one way only (to the devices), seconds per byte: a call that moves
  // more bytes one way than the other has the links carry that rest alone (2 x H200: 106 GB/s one
  // way, 140 both ways together). 0: not measured, and every byte is taken at the rate both ways.
  double allLinksOneWaySecondsPerByte = 0;
};

} // namespace overlap
