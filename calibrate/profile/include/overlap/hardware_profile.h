// What the model needs to know about one GPU and its host link, measured by overlap-calibrate
// (paper 001 §V) or taken from a paper's published parameters. No CUDA dependency: the model and
// its tests use profiles on machines without a GPU. The JSON form is documented in
// docs/hardware-profiles.md; read and write it with overlap/profile_io.h.
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
  double latency_s = 0;                      // L + o: a 1-byte transfer
  double seconds_per_byte = 0;               // G: large messages, this direction alone
  double gap_s = 0;                          // g: per additional transfer when a message is cut up
  double bidirectional_seconds_per_byte = 0; // G while the other direction is busy too (Table II)
  double pageable_seconds_per_byte = 0;      // G from/to pageable (unpinned) host memory
  // G while a kernel moves mapped host memory the other way (Table II "explicit-mapped"), the
  // situation of the Hybrid variant: copies in while kernels write results to mapped memory.
  double with_mapped_seconds_per_byte = 0;
  // g while the other direction is busy throughout (schema 2): on the H100 the gap per piece
  // more than doubles device to host, which the one-way g underestimates. 0: not known, the
  // one-way g stands in.
  double bidirectional_gap_s = 0;
  // Domain of validity of g (schema 2): the smallest piece, in bytes, for which the measured
  // times follow one g within the fit requirement. Smaller pieces were measured to cost a
  // different, not size-determined gap. 0: valid for every piece size measured.
  double gap_min_piece_bytes = 0;
  double bidirectional_gap_min_piece_bytes = 0; // the same for bidirectional_gap_s (schema 2)
  // A link that switches between two rates while the other direction is busy (schema 3): on the
  // H100, host to device against a busy device-to-host direction ran at ~50 or ~25 GB/s from one
  // copy to the next. bidirectional_seconds_per_byte is then the fast rate; these say how slow
  // the other rate is and which share of the calibration's copies ran at it, so a user of the
  // model can bound the time. 0: one rate (or not known).
  double bidirectional_slow_seconds_per_byte = 0;
  double bidirectional_slow_share = 0; // 0..1
  // g when both directions cut their copies into pieces at once (optional within schema 3): on
  // the H100 the pieces of the two directions go in lockstep, so both pay about the same gap per
  // piece (calibration run 8: 4.26 us host to device, 4.45 us device to host), where against one
  // long copy the other way they pay 3.6 and 4.7-5.0 us. 0: not known, bidirectional_gap_s
  // stands in.
  double simultaneous_gap_s = 0;
  double simultaneous_gap_min_piece_bytes = 0; // the domain of simultaneous_gap_s, as for g
  // A busy link whose G depends on the size of the pieces (schema 4): on the H100, host to
  // device against a busy device-to-host direction ran pieces of 128 MiB and more at 44-47 GB/s
  // and pieces of 64 MiB and less at 48-51, in every calibration and accuracy check of runs 6-11.
  // bidirectional_seconds_per_byte is then the G of the pieces below
  // bidirectional_large_piece_min_bytes, and this the G of the pieces from there up. 0: one G
  // for every piece size.
  double bidirectional_large_piece_seconds_per_byte = 0;
  double bidirectional_large_piece_min_bytes = 0;

  // G of one piece of `piece_bytes` while the other direction is busy (0 when not known).
  double bidirectional_seconds_per_byte_for(double piece_bytes) const {
    const bool large = bidirectional_large_piece_seconds_per_byte > 0 &&
                       bidirectional_large_piece_min_bytes > 0 &&
                       piece_bytes >= bidirectional_large_piece_min_bytes;
    return large ? bidirectional_large_piece_seconds_per_byte : bidirectional_seconds_per_byte;
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
  double r_squared = -1;
  double max_relative_residual = -1;
};

// The cost of mapped (zero-copy) access when each thread of a warp touches consecutive elements
// of one width (schema 3): narrow elements make a warp ask the link for 32- or 64-byte pieces
// instead of whole lines, which costs more per byte (1-byte pixels: 2.5-4x on the H200).
struct MappedWidthCost {
  int element_bytes = 0; // 1, 2, 4, 8, 16
  double read_seconds_per_byte = 0;
  double write_seconds_per_byte = 0;
};

struct HardwareProfile {
  // Version 2 adds LinkDirection::bidirectional_gap_s and the gaps' domains of validity;
  // version 3 adds mapped_by_width and the bidirectional slow rate (and, optional within version
  // 3, mapped_both_ways_seconds_per_byte, copy_call_s and the simultaneous gaps); version 4 the
  // busy link's G of large pieces. Older files are read with the new fields 0 / empty.
  static constexpr int kSchemaVersion = 4;

  std::string name;        // key users pick it by, e.g. "h100-pcie5" or "gtx-titan-pcie3"
  std::string source;      // "measured by overlap-calibrate", "paper 001 Table I", ...
  std::string device_name; // e.g. "NVIDIA H100 80GB HBM3"
  std::string pcie;        // e.g. "Gen5 x16"
  std::string driver;      // e.g. "580.159.04"
  std::string date;        // ISO date of the measurement
  std::string notes;       // where each parameter came from, what is not known and why
  int compute_capability_major = 0;
  int compute_capability_minor = 0;
  int multiprocessors = 0;

  // Device category of paper 001 §IV.
  int copy_engines = 1;                  // asyncEngineCount
  bool implicit_synchronization = false; // compute capability < 3.5

  LinkDirection host_to_device;
  LinkDirection device_to_host;

  // Kernels reading/writing mapped (zero-copy) host memory, seconds per byte.
  double mapped_read_seconds_per_byte = 0;
  double mapped_write_seconds_per_byte = 0;
  // The same per element width (schema 3), widths ascending; empty when not measured, and then
  // the two values above (measured with 16-byte accesses) stand for every width.
  std::vector<MappedWidthCost> mapped_by_width;
  // Seconds per byte each way of a kernel that reads and writes as many bytes of mapped host
  // memory at once, 16-byte elements (`out[i] = f(in[i])`; schema 3, optional): mapped traffic
  // against mapped traffic the other way, which the H200 ran at ~42 GB/s each way where one way
  // alone ran at ~52. 0: not known (the copies' bidirectional slowdown stands in).
  double mapped_both_ways_seconds_per_byte = 0;

  double kernel_launch_s = 0; // launch overhead of an empty kernel (paper 002 §4.1.3)
  // Per launch-and-synchronize beyond the launch itself, eq. 4.3 of paper 002 §4.1.1.
  double stream_sync_s = 0;
  double stream_overhead_s = 0; // t_sc of paper 000 §3.2: extra cost per stream used
  // Host time of one cudaMemcpyAsync call of pinned memory, the call alone (schema 3,
  // optional): what a pipeline's host spends per copy while the device works. 0: not known,
  // and the model derives it from t_sc, whose rounds also synchronize every stream.
  double copy_call_s = 0;

  // The host's copies between pageable and pinned memory, which the staging ring's threads make
  // (PageableMode::Stage; optional within schema 4, added after its first files were written):
  // seconds per byte of one thread copying large blocks, and of `host_copy_threads` threads
  // copying at once, which the memory system limits. 0: not known, and the model assumes
  // pipeline_simulator.h's defaults.
  double host_copy_seconds_per_byte = 0;
  double host_copy_parallel_seconds_per_byte = 0;
  int host_copy_threads = 0;

  // How the measured parameters were obtained; empty for the papers' profiles.
  std::vector<ProfileMeasurement> measurements;
};

} // namespace overlap
