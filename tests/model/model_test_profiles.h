// Hardware profiles the model tests use: the papers' published parameters, idealized devices of
// each category for schedules that can be worked out by hand, and the lent H100 as the issue
// describes its link.
#pragma once

#include "overlap/hardware_profile.h"

namespace overlap::model::testing {

// Paper 001 Table I (GTX Titan, PCIe 3.0; converted from ms to s), one copy engine, compute
// capability 3.5 (Table III).
inline HardwareProfile table1_gtx_titan() {
  HardwareProfile profile;
  profile.name = "table1-gtx-titan";
  profile.compute_capability_major = 3;
  profile.compute_capability_minor = 5;
  profile.multiprocessors = 14;
  profile.copy_engines = 1;
  profile.implicit_synchronization = false;
  profile.host_to_device.latency_s = 0.009420e-3;
  profile.host_to_device.seconds_per_byte = 8.318392e-8 * 1e-3;
  profile.host_to_device.gap_s = 0.002503e-3;
  profile.device_to_host.latency_s = 0.009023e-3;
  profile.device_to_host.seconds_per_byte = 7.924734e-8 * 1e-3;
  profile.device_to_host.gap_s = 0.002674e-3;
  return profile;
}

// A device whose copies cost exactly one second per byte in each direction, with no latency,
// gap or overhead, so that schedules come out in whole seconds. `cc` is the compute capability
// times ten (13 for a C1060, 20 for a C2050, 35 for a K20).
inline HardwareProfile ideal_device(int copy_engines, bool implicit_synchronization, int cc) {
  HardwareProfile profile;
  profile.name = "ideal";
  profile.compute_capability_major = cc / 10;
  profile.compute_capability_minor = cc % 10;
  profile.copy_engines = copy_engines;
  profile.implicit_synchronization = implicit_synchronization;
  profile.host_to_device.seconds_per_byte = 1;
  profile.device_to_host.seconds_per_byte = 1;
  return profile;
}

// The H100 on PCIe Gen5 as issue 4 describes it: 55 GB/s one way, 93 GB/s both ways together
// (46.5 GB/s each), 3 copy engines, 132 multiprocessors. Latencies, gaps, overheads, the mapped
// G and the G against mapped traffic are of the order paper 001 and paper 002 report; they are
// test inputs, not measurements.
inline HardwareProfile h100_like() {
  HardwareProfile profile;
  profile.name = "h100-like";
  profile.compute_capability_major = 9;
  profile.compute_capability_minor = 0;
  profile.multiprocessors = 132;
  profile.copy_engines = 3;
  profile.implicit_synchronization = false;
  for (LinkDirection* link : {&profile.host_to_device, &profile.device_to_host}) {
    link->latency_s = 10e-6;
    link->seconds_per_byte = 1 / 55e9;
    link->gap_s = 2e-6;
    link->bidirectional_seconds_per_byte = 1 / 46.5e9;
    link->with_mapped_seconds_per_byte = 1 / 46.5e9;
  }
  profile.mapped_read_seconds_per_byte = 1 / 50e9;
  profile.mapped_write_seconds_per_byte = 1 / 50e9;
  profile.kernel_launch_s = 3e-6;
  profile.stream_overhead_s = 1e-6;
  return profile;
}

constexpr double kMiB = 1024.0 * 1024.0;

// h100_like with the host-to-device G against a busy link split by piece size, as the lent H100
// measured it (calibration runs 6-11): pieces from 96 MiB up at 44 GB/s, smaller ones at 50.
inline HardwareProfile h100_busy_link_by_piece_size() {
  HardwareProfile profile = h100_like();
  profile.host_to_device.bidirectional_seconds_per_byte = 1 / 50e9;
  profile.host_to_device.bidirectional_large_piece_seconds_per_byte = 1 / 44e9;
  profile.host_to_device.bidirectional_large_piece_min_bytes = 96 * kMiB;
  return profile;
}

// The same profile with one busy-link G for every piece size (the small pieces').
inline HardwareProfile without_large_piece_g(HardwareProfile profile) {
  for (LinkDirection* link : {&profile.host_to_device, &profile.device_to_host}) {
    link->bidirectional_large_piece_seconds_per_byte = 0;
    link->bidirectional_large_piece_min_bytes = 0;
  }
  return profile;
}

} // namespace overlap::model::testing
