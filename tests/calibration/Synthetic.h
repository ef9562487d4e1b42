// Synthetic measurements for the CUDA-free calibration tests: exact model times with bounded
// noise, so every tolerance below follows from the noise bound instead of from luck.
#pragma once

#include "ProfileEstimator.h"

#include "overlap/HardwareProfile.h"

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
inline LinkDirection titanHostToDevice() {
  LinkDirection link;
  link.latencyS = 9.420e-6;
  link.secondsPerByte = 8.318392e-11;
  link.gapS = 2.503e-6;
  link.bidirectionalSecondsPerByte = 1.2e-10;
  link.pageableSecondsPerByte = 2.0e-10;
  link.bidirectionalGapS = 3.2e-6; // not in Table I: chosen to differ from g
  return link;
}

// Device to host, Table I.
inline LinkDirection titanDeviceToHost() {
  LinkDirection link;
  link.latencyS = 9.023e-6;
  link.secondsPerByte = 7.924734e-11;
  link.gapS = 2.674e-6;
  link.bidirectionalSecondsPerByte = 1.1e-10;
  link.pageableSecondsPerByte = 2.5e-10;
  link.bidirectionalGapS = 5.1e-6; // not in Table I: chosen to differ from g
  return link;
}

// What overlap-calibrate would record on a device whose link follows the LogGP model exactly
// with the given parameters, each sample perturbed by `noise`.
inline DirectionMeasurements syntheticDirection(const LinkDirection& link, int repeats,
                                                BoundedNoise& noise) {
  DirectionMeasurements d;
  d.latency.add(1, samples(link.latencyS + link.secondsPerByte, 50, noise));
  for (double mib = 8; mib <= 256; mib *= 2) {
    const double k = mib * kMiB;
    d.sizes.add(k, samples(link.latencyS + k * link.secondsPerByte, repeats, noise));
    d.bidirectionalSizes.add(
        k, samples(link.latencyS + k * link.bidirectionalSecondsPerByte, repeats, noise));
    // Pageable copies pay a staging start-up that is not L+o.
    d.pageableSizes.add(k, samples(30e-6 + k * link.pageableSecondsPerByte, repeats, noise));
  }
  // k bytes in n = 1 .. 256 pieces, each piece after the first paying `gap`.
  auto pieceSeries = [&](double k, double secondsPerByte, double gap) {
    Series series;
    for (int n = 1; n <= 256; n *= 2)
      series.add(n, samples(link.latencyS + k * secondsPerByte + gap * (n - 1), repeats, noise));
    return series;
  };
  for (double mib : {16.0, 128.0}) {
    const double k = mib * kMiB;
    d.pieces.push_back(pieceSeries(k, link.secondsPerByte, link.gapS));
    d.bidirectionalPieces.push_back(
        pieceSeries(k, link.bidirectionalSecondsPerByte, link.bidirectionalGapS));
  }
  return d;
}

// Narrow elements cost more per byte (fewer bytes per request on the link); the 16-byte ones
// give the mapped read/write rates, 4e-11 / 3e-11 s/B.
inline std::vector<MappedWidthCost> syntheticMappedByWidth() {
  return {{1, 4e-11 * 3.0, 3e-11 * 3.5},
          {2, 4e-11 * 2.0, 3e-11 * 2.2},
          {4, 4e-11 * 1.3, 3e-11 * 1.4},
          {8, 4e-11 * 1.1, 3e-11 * 1.05},
          {16, 4e-11, 3e-11}};
}

inline CalibrationMeasurements syntheticMeasurements(int repeats, BoundedNoise& noise) {
  CalibrationMeasurements m;
  m.hostToDevice = syntheticDirection(titanHostToDevice(), repeats, noise);
  m.deviceToHost = syntheticDirection(titanDeviceToHost(), repeats, noise);
  for (const MappedWidthCost& cost : syntheticMappedByWidth()) {
    MappedWidthSeries width;
    width.elementBytes = cost.elementBytes;
    for (double mib = 16; mib <= 256; mib *= 2) {
      const double k = mib * kMiB;
      width.readSizes.add(k, samples(5e-6 + k * cost.readSecondsPerByte, repeats, noise));
      width.writeSizes.add(k, samples(5e-6 + k * cost.writeSecondsPerByte, repeats, noise));
    }
    m.mappedByWidth.push_back(std::move(width));
  }
  m.kernelLaunch.add(32, samples(2.5e-6, repeats, noise));
  m.launchSync.add(16, samples(9.5e-6, repeats, noise));
  m.copyCall.add(16, samples(2.8e-6, repeats, noise));
  m.copyBatch.add(8, samples(2.8e-6 + 7 * 1.2e-6, repeats, noise)); // 1.2 us a copy more
  for (int n = 1; n <= 64; n *= 2)
    m.streamRounds.add(n, samples(20e-6 + n * 12e-6, repeats, noise));
  // Host copies: 10 GB/s on one thread, 45 GB/s on 15, and a thread start each.
  m.hostCopyThreads = 15;
  for (double mib = 128; mib <= 512; mib *= 2) {
    const double k = mib * kMiB;
    m.hostCopy.add(k, samples(30e-6 + k * 1e-10, repeats, noise));
    m.hostCopyParallel.add(k, samples(200e-6 + k / 45e9, repeats, noise));
  }
  return m;
}

} // namespace overlap::calibration::test
