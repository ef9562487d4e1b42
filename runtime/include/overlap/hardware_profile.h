// What the model needs to know about one GPU and its host link, measured by overlap-calibrate
// (paper 001 §V) or taken from a paper's published parameters. No CUDA dependency: the model and
// its tests use profiles on machines without a GPU.
#pragma once

#include <string>

namespace overlap {

// The LogGP-style parameters of one transfer direction (paper 001 §V): a transfer of k bytes cut
// into n pieces over n streams takes  L+o + k*G + g*(n-1).
struct LinkDirection {
  double latency_s = 0;              // L + o: a 1-byte transfer
  double seconds_per_byte = 0;       // G: large messages, this direction alone
  double gap_s = 0;                  // g: per additional transfer when a message is cut up
  double bidirectional_seconds_per_byte = 0; // G while the other direction is busy too (Table II)
  double pageable_seconds_per_byte = 0;      // G from/to pageable (unpinned) host memory
};

struct HardwareProfile {
  static constexpr int kSchemaVersion = 1;

  std::string name;        // key users pick it by, e.g. "h100-pcie5" or "gtx-titan-pcie3"
  std::string source;      // "measured by overlap-calibrate", "paper 001 Table I", ...
  std::string device_name; // e.g. "NVIDIA H100 80GB HBM3"
  std::string pcie;        // e.g. "Gen5 x16"
  std::string driver;      // e.g. "580.159.04"
  std::string date;        // ISO date of the measurement
  int compute_capability_major = 0;
  int compute_capability_minor = 0;
  int multiprocessors = 0;

  // Device category of paper 001 §IV.
  int copy_engines = 1;          // asyncEngineCount
  bool implicit_synchronization = false; // compute capability < 3.5

  LinkDirection host_to_device;
  LinkDirection device_to_host;

  // Kernels reading/writing mapped (zero-copy) host memory, seconds per byte.
  double mapped_read_seconds_per_byte = 0;
  double mapped_write_seconds_per_byte = 0;

  double kernel_launch_s = 0;   // launch overhead of an empty kernel (paper 002 §4.1)
  double stream_sync_s = 0;     // cudaStreamSynchronize on an idle stream (paper 002 §4.1)
  double stream_overhead_s = 0; // t_sc of paper 000 §3.2: extra cost per stream used
};

} // namespace overlap
