// Synthetic measurements for the CUDA-free calibration tests: exact model times with bounded
// noise, so every tolerance below follows from the noise bound instead of from luck.
#pragma once

#include "calibration_measurements.h"

#include "overlap/hardware_profile.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace overlap::calibration::test {

// Multiplicative noise uniform in [1 - bound, 1 + bound]; the seed comes from random_device and
// is part of trace(), which tests pass to SCOPED_TRACE so a failure can be replayed.
class BoundedNoise {
public:
  explicit BoundedNoise(double bound) : BoundedNoise(bound, std::random_device{}()) {}
  BoundedNoise(double bound, std::uint32_t seed) : bound_(bound), seed_(seed), engine_(seed) {}

  double operator()(double value) {
    std::uniform_real_distribution<double> factor(1 - bound_, 1 + bound_);
    return value * factor(engine_);
  }
  double bound() const { return bound_; }
  std::string trace() const { return "noise seed " + std::to_string(seed_); }

private:
  double bound_;
  std::uint32_t seed_;
  std::mt19937 engine_;
};

// `repeats` noisy samples of `value`.
inline std::vector<double> samples(double value, int repeats, BoundedNoise& noise) {
  std::vector<double> out;
  for (int r = 0; r < repeats; ++r)
    out.push_back(noise(value));
  return out;
}

constexpr double kMiB = 1024.0 * 1024.0;

// A link with the parameters of paper 001 Table I (GTX Titan, PCIe 3.0), host to device.
inline LinkDirection titan_host_to_device() {
  LinkDirection link;
  link.latency_s = 9.420e-6;
  link.seconds_per_byte = 8.318392e-11;
  link.gap_s = 2.503e-6;
  link.bidirectional_seconds_per_byte = 1.2e-10;
  link.pageable_seconds_per_byte = 2.0e-10;
  link.with_mapped_seconds_per_byte = 1.193386e-10;
  link.bidirectional_gap_s = 3.2e-6; // not in Table I: chosen to differ from g
  link.simultaneous_gap_s = 3.7e-6;  // nor this: above the busy-link g, as on the H100
  return link;
}

// Device to host, Table I.
inline LinkDirection titan_device_to_host() {
  LinkDirection link;
  link.latency_s = 9.023e-6;
  link.seconds_per_byte = 7.924734e-11;
  link.gap_s = 2.674e-6;
  link.bidirectional_seconds_per_byte = 1.1e-10;
  link.pageable_seconds_per_byte = 2.5e-10;
  link.with_mapped_seconds_per_byte = 1.480396e-10;
  link.bidirectional_gap_s = 5.1e-6; // not in Table I: chosen to differ from g
  link.simultaneous_gap_s = 4.1e-6;  // nor this: between g and the busy-link g, as on the H100
  return link;
}

// What overlap-calibrate would record on a device whose link follows the LogGP model exactly
// with the given parameters, each sample perturbed by `noise`.
inline DirectionMeasurements synthetic_direction(const LinkDirection& link, int repeats,
                                                 BoundedNoise& noise) {
  DirectionMeasurements d;
  d.one_byte_seconds = samples(link.latency_s + link.seconds_per_byte, 50, noise);
  for (double mib = 8; mib <= 256; mib *= 2) {
    const double k = mib * kMiB;
    d.sizes.add(k, samples(link.latency_s + k * link.seconds_per_byte, repeats, noise));
    d.bidirectional_sizes.add(
        k, samples(link.latency_s + k * link.bidirectional_seconds_per_byte, repeats, noise));
    d.with_mapped_sizes.add(
        k, samples(link.latency_s + k * link.with_mapped_seconds_per_byte, repeats, noise));
    // Pageable copies pay a staging start-up that is not L+o.
    d.pageable_sizes.add(k, samples(30e-6 + k * link.pageable_seconds_per_byte, repeats, noise));
  }
  // k bytes in n = 1 .. 256 pieces, each piece after the first paying `gap`.
  auto piece_series = [&](double k, double seconds_per_byte, double gap) {
    Series series;
    for (int n = 1; n <= 256; n *= 2)
      series.add(n, samples(link.latency_s + k * seconds_per_byte + gap * (n - 1), repeats, noise));
    return series;
  };
  for (double mib : {16.0, 128.0}) {
    const double k = mib * kMiB;
    d.pieces.push_back(piece_series(k, link.seconds_per_byte, link.gap_s));
    d.piece_message_bytes.push_back(k);
    d.bidirectional_pieces.push_back(
        piece_series(k, link.bidirectional_seconds_per_byte, link.bidirectional_gap_s));
    d.bidirectional_piece_message_bytes.push_back(k);
    d.simultaneous_pieces.push_back(
        piece_series(k, link.bidirectional_seconds_per_byte, link.simultaneous_gap_s));
    d.simultaneous_piece_message_bytes.push_back(k);
  }
  return d;
}

// Narrow elements cost more per byte (fewer bytes per request on the link); 16-byte accesses are
// the mapped read/write kernels' own 4e-11 / 3e-11 s/B.
inline std::vector<MappedWidthCost> synthetic_mapped_by_width() {
  return {{1, 4e-11 * 3.0, 3e-11 * 3.5},
          {2, 4e-11 * 2.0, 3e-11 * 2.2},
          {4, 4e-11 * 1.3, 3e-11 * 1.4},
          {8, 4e-11 * 1.1, 3e-11 * 1.05},
          {16, 4e-11, 3e-11}};
}

// Per byte each way of the synthetic kernel that reads and writes as many mapped bytes.
constexpr double kSyntheticBothWaysSecondsPerByte = 5e-11;

inline CalibrationMeasurements synthetic_measurements(int repeats, BoundedNoise& noise) {
  CalibrationMeasurements m;
  m.device.name = "Synthetic GPU";
  m.device.pcie = "Gen3 x16";
  m.device.driver = "1.2.3";
  m.device.date = "2026-01-02";
  m.device.compute_capability_major = 9;
  m.device.multiprocessors = 132;
  m.device.copy_engines = 3;
  m.host_to_device = synthetic_direction(titan_host_to_device(), repeats, noise);
  m.device_to_host = synthetic_direction(titan_device_to_host(), repeats, noise);
  for (double mib = 16; mib <= 256; mib *= 2) {
    const double k = mib * kMiB;
    m.mapped_read_sizes.add(k, samples(5e-6 + k * 4e-11, repeats, noise));
    m.mapped_write_sizes.add(k, samples(5e-6 + k * 3e-11, repeats, noise));
  }
  for (const MappedWidthCost& cost : synthetic_mapped_by_width()) {
    MappedWidthSeries width;
    width.element_bytes = cost.element_bytes;
    for (double mib = 16; mib <= 256; mib *= 2) {
      const double k = mib * kMiB;
      width.read_sizes.add(k, samples(5e-6 + k * cost.read_seconds_per_byte, repeats, noise));
      width.write_sizes.add(k, samples(5e-6 + k * cost.write_seconds_per_byte, repeats, noise));
    }
    m.mapped_by_width.push_back(std::move(width));
  }
  // Both ways at once: slower per byte each way than either direction alone.
  for (double mib = 16; mib <= 256; mib *= 2) {
    const double k = mib * kMiB;
    m.mapped_both_ways_sizes.add(
        k, samples(5e-6 + k * kSyntheticBothWaysSecondsPerByte, repeats, noise));
  }
  m.kernel_launch_seconds = samples(2.5e-6, repeats, noise);
  m.launch_sync_seconds = samples(9.5e-6, repeats, noise);
  for (int n = 1; n <= 64; n *= 2)
    m.stream_rounds.add(n, samples(20e-6 + n * 12e-6, repeats, noise));
  m.copy_call_seconds = samples(2.8e-6, repeats, noise);
  // Host copies: 12 GB/s on one thread, 40 GB/s on four, no better on eight.
  m.host_copy_bytes = 256 * kMiB;
  const std::pair<int, double> host_copy_rates[] = {{1, 12e9}, {2, 23e9}, {4, 40e9}, {8, 38e9}};
  for (const auto& [threads, rate] : host_copy_rates)
    m.host_copy.add(threads, samples(m.host_copy_bytes / rate, repeats, noise));
  return m;
}

} // namespace overlap::calibration::test
