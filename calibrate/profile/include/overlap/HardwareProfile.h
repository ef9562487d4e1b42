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
  // g while the other direction is busy throughout (schema 2): on the H100 the gap per piece
  // more than doubles device to host, which the one-way g underestimates. 0: not known, the
  // one-way g stands in.
  double bidirectionalGapS = 0;
  // Domain of validity of g (schema 2): the smallest piece, in bytes, for which the measured
  // times follow one g within the fit requirement. Smaller pieces were measured to cost a
  // different, not size-determined gap. 0: valid for every piece size measured.
  double gapMinPieceBytes = 0;
  double bidirectionalGapMinPieceBytes = 0; // the same for bidirectional_gap_s (schema 2)
  // A link that switches between two rates while the other direction is busy (schema 3): on the
  // H100, host to device against a busy device-to-host direction ran at ~50 or ~25 GB/s from one
  // copy to the next. bidirectional_seconds_per_byte is then the fast rate; these say how slow
  // the other rate is and which share of the calibration's copies ran at it, so a user of the
  // model can bound the time. 0: one rate (or not known).
  double bidirectionalSlowSecondsPerByte = 0;
  double bidirectionalSlowShare = 0; // 0..1
  // g when both directions cut their copies into pieces at once (optional within schema 3): on
  // the H100 the pieces of the two directions go in lockstep, so both pay about the same gap per
  // piece (calibration run 8: 4.26 us host to device, 4.45 us device to host), where against one
  // long copy the other way they pay 3.6 and 4.7-5.0 us. 0: not known, bidirectional_gap_s
  // stands in.
  double simultaneousGapS = 0;
  double simultaneousGapMinPieceBytes = 0; // the domain of simultaneous_gap_s, as for g
  // A busy link whose G depends on the size of the pieces (schema 4): on the H100, host to
  // device against a busy device-to-host direction ran pieces of 128 MiB and more at 44-47 GB/s
  // and pieces of 64 MiB and less at 48-51, in every calibration and accuracy check of runs 6-11.
  // bidirectional_seconds_per_byte is then the G of the pieces below
  // bidirectional_large_piece_min_bytes, and this the G of the pieces from there up. 0: one G
  // for every piece size.
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

// One calibrated quantity with the spread of its repeats, so a reader can judge how far to trust
// it. For fitted quantities min/max span the fits of the individual repeats and the fit quality of
// the fit on the medians is kept; quantities that are not fits have r_squared < 0.
struct ProfileMeasurement {
  std::string quantity; // e.g. "host_to_device.seconds_per_byte"
  std::string unit;     // "s", "s/B"
  double value = 0;
  double min = 0;
  double max = 0;
  int repeats = 0;
  double rSquared = -1;
  double maxRelativeResidual = -1;
};

// The cost of mapped (zero-copy) access when each thread of a warp touches consecutive elements
// of one width (schema 3): narrow elements make a warp ask the link for 32- or 64-byte pieces
// instead of whole lines, which costs more per byte (1-byte pixels: 2.5-4x on the H200).
struct MappedWidthCost {
  int elementBytes = 0; // 1, 2, 4, 8, 16
  double readSecondsPerByte = 0;
  double writeSecondsPerByte = 0;
};

struct HardwareProfile {
  // Version 2 adds LinkDirection::bidirectional_gap_s and the gaps' domains of validity;
  // version 3 adds mapped_by_width and the bidirectional slow rate (and, optional within version
  // 3, mappedBothWaysSecondsPerByte, copy_call_s and the simultaneous gaps); version 4 the
  // busy link's G of large pieces. Older files are read with the new fields 0 / empty.
  static constexpr int kSchemaVersion = 4;

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
  // The same per element width (schema 3), widths ascending; empty when not measured, and then
  // the two values above (measured with 16-byte accesses) stand for every width.
  std::vector<MappedWidthCost> mappedByWidth;
  // Seconds per byte each way of a kernel that reads and writes as many bytes of mapped host
  // memory at once, 16-byte elements (`out[i] = f(in[i])`; schema 3, optional): mapped traffic
  // against mapped traffic the other way, which the H200 ran at ~42 GB/s each way where one way
  // alone ran at ~52. 0: not known (the copies' bidirectional slowdown stands in).
  double mappedBothWaysSecondsPerByte = 0;

  double kernelLaunchS = 0; // launch overhead of an empty kernel (paper 002 §4.1.3)
  // Per launch-and-synchronize beyond the launch itself, eq. 4.3 of paper 002 §4.1.1.
  double streamSyncS = 0;
  double streamOverheadS = 0; // t_sc of paper 000 §3.2: extra cost per stream used
  // Host time of one cudaMemcpyAsync call of pinned memory, the call alone (schema 3,
  // optional): what a pipeline's host spends per copy while the device works. 0: not known,
  // and the model derives it from t_sc, whose rounds also synchronize every stream.
  double copyCallS = 0;

  // The host's copies between pageable and pinned memory, which the staging ring's threads make
  // (PageableMode::Stage; optional within schema 4, added after its first files were written):
  // seconds per byte of one thread copying large blocks, and of `hostCopyThreads` threads
  // copying at once, which the memory system limits. 0: not known, and the model assumes
  // PipelineSimulator.h's defaults.
  double hostCopySecondsPerByte = 0;
  double hostCopyParallelSecondsPerByte = 0;
  int hostCopyThreads = 0;

  // How the measured parameters were obtained; empty for the papers' profiles.
  std::vector<ProfileMeasurement> measurements;
};

} // namespace overlap
