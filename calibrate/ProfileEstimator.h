// What one calibration run measured, every repeat of every point (Calibrator.h records it), and
// from it a hardware profile: one estimator per parameter the model reads, the fits' quality, and
// the reasons a profile must not be written. CUDA-free: tested on synthetic measurements.
#pragma once

#include "LinearFit.h"

#include "overlap/HardwareProfile.h"

#include <string>
#include <vector>

namespace overlap::calibration {

// Times measured at several values of x (bytes, piece counts, stream counts, threads); a
// quantity sampled at one x only (a 1-byte copy, a host cost) is a series of one point.
struct Series {
  std::vector<double> x;
  std::vector<std::vector<double>> seconds; // seconds[i]: the repeats measured at x[i]

  void add(double at, std::vector<double> repeats) {
    x.push_back(at);
    seconds.push_back(std::move(repeats));
  }
  bool empty() const { return x.empty(); }
};

struct DirectionMeasurements {
  Series latency;             // 1-byte copies: L+o
  Series sizes;               // one message per size: G
  std::vector<Series> pieces; // per message size, x = pieces: g
  // The same while the other direction copies more, started together: the bidirectional G, g.
  Series bidirectionalSizes;
  std::vector<Series> bidirectionalPieces;
  Series pageableSizes;
};

// The mapped read and write kernels (launchMappedTraffic) with elements of one width.
struct MappedWidthSeries {
  int elementBytes = 0;
  Series readSizes;
  Series writeSizes;
};

struct CalibrationMeasurements {
  DirectionMeasurements hostToDevice;
  DirectionMeasurements deviceToHost;
  std::vector<MappedWidthSeries> mappedByWidth; // widths ascending
  // Host costs, seconds per call, one sample per burst of calls.
  Series kernelLaunch;
  Series copyCall;     // one cudaMemcpyAsync
  Series copyBatch;    // x = copies per batch: one batch of them (CopyBatch)
  Series graphLaunch;  // a cudaGraphLaunch of a streamed round, per operation
  Series launchSync;   // a launch and a cudaStreamSynchronize
  Series streamRounds; // x = streams of a minimal streamed round: t_sc
  // x = bytes moved between pageable and pinned memory on one thread, and on hostCopyThreads.
  Series hostCopy;
  Series hostCopyParallel;
  int hostCopyThreads = 0;
  // The same on the thread counts between (2, 4, 8 below hostCopyThreads), ascending.
  struct HostCopyThreadsSeries {
    int threads = 0;
    Series sizes;
  };
  std::vector<HostCopyThreadsSeries> hostCopyByThreads;
  // x = threads of the staging ring x pieces of a small staged call (LinkBench::stagedCall).
  Series stagedCallThreadPieces;
  // x = bytes copied to and from allLinksDevices devices at once (AllLinksBench); none on one GPU.
  int allLinksDevices = 0;
  Series allLinks;                  // both ways at once, x counting both directions' bytes
  Series allLinksOneWay;            // to the devices only
  std::vector<std::string> skipped; // optional measurements that failed, and why
};

struct FitReport {
  std::string quantity; // the profile field, e.g. "host_to_device.seconds_per_byte"
  LinearFit fit;        // on the medians of the repeats
};

struct ProfileEstimate {
  // The measured parameters, source and notes; name and device identity are the caller's.
  HardwareProfile profile;
  std::vector<FitReport> fits;
  // Each names the quantity and why it is not trustworthy; a profile is written only when empty.
  std::vector<std::string> problems;

  bool acceptable() const { return problems.empty(); }
};

// One estimator per parameter, every fit on the medians of the repeats: the table of
// docs/hardware-profiles.md, "Calibration", says which estimator and requirement each has.
// Missing series leave their parameter 0 ("not known") without a problem, except L+o, G and g.
ProfileEstimate estimateProfile(const CalibrationMeasurements& measurements);

} // namespace overlap::calibration
