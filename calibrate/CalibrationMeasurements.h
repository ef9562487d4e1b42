// The raw record of one calibration run: every repeat of every point, before any fitting. Kept as
// JSON next to the profile (overlap-calibrate --raw), so fits can be re-done and audited without
// the GPU (overlap-calibrate --from-raw). CUDA-free.
#pragma once

#include <string>
#include <vector>

namespace overlap::calibration {

// Times measured at several values of x (bytes, piece counts, stream counts).
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
  std::vector<double> oneByteSeconds; // L+o
  Series sizes;                       // one message per size: G
  std::vector<Series> pieces;         // per message size, x = pieces: g
  std::vector<double> pieceMessageBytes;
  Series bidirectionalSizes; // this direction's time while the other copies the same size
  // Per message size, x = pieces, with the other direction busy throughout: the bidirectional g
  // (record version 2; empty in version 1 records).
  std::vector<Series> bidirectionalPieces;
  std::vector<double> bidirectionalPieceMessageBytes;
  // Per message size, x = pieces, with the other direction copying as many bytes in as many
  // pieces at the same time: the simultaneous g (record version 6; empty before).
  std::vector<Series> simultaneousPieces;
  std::vector<double> simultaneousPieceMessageBytes;
  Series pageableSizes;
  Series withMappedSizes; // while a kernel moves 4x as much mapped memory the other way
};

// Who was measured; copied into the profile.
struct DeviceIdentity {
  std::string name;
  std::string pcie;
  std::string driver;
  std::string date;
  int computeCapabilityMajor = 0;
  int computeCapabilityMinor = 0;
  int multiprocessors = 0;
  int copyEngines = 0;
  bool implicitSynchronization = false;
};

// A kernel reading and one writing mapped host memory with elements of one width, each thread
// touching consecutive elements (record version 3).
struct MappedWidthSeries {
  int elementBytes = 0;
  Series readSizes;
  Series writeSizes;
};

struct CalibrationMeasurements {
  DeviceIdentity device;
  DirectionMeasurements hostToDevice;
  DirectionMeasurements deviceToHost;
  Series mappedReadSizes;                       // a kernel reading mapped host memory
  Series mappedWriteSizes;                      // a kernel writing mapped host memory
  std::vector<MappedWidthSeries> mappedByWidth; // widths ascending; empty before version 3
  // A kernel reading and writing as many bytes of mapped host memory in one pass, x = bytes each
  // way (record version 4; empty in older records).
  Series mappedBothWaysSizes;
  std::vector<double> kernelLaunchSeconds; // per launch, one value per repeat
  std::vector<double> launchSyncSeconds;   // per launch + synchronize, one value per repeat
  Series streamRounds;                     // x = streams of a minimal streamed round: t_sc
  // Host time per cudaMemcpyAsync call, one value per repeat (record version 5; empty before).
  std::vector<double> copyCallSeconds;
  // The host copying host_copy_bytes from pageable to pinned memory, x = threads sharing the bytes
  // (record version 7; empty before): what the staging ring's threads do.
  Series hostCopy;
  double hostCopyBytes = 0;
  std::vector<std::string> skipped; // optional measurements that failed, and why
};

std::string measurementsToJson(const CalibrationMeasurements& measurements);

// Empty string on success, otherwise what is wrong (naming `origin` and the field).
std::string measurementsFromJson(const std::string& text, const std::string& origin,
                                 CalibrationMeasurements* measurements);

} // namespace overlap::calibration
