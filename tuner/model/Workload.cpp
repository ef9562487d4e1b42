#include "model/Workload.h"

#include "model/MappedWidthCost.h"
#include "overlap/KernelTypes.h"

#include <algorithm>
#include <cmath>

namespace overlap::model {

namespace {

// A granule below 1 is invalid (validate() says so); taken as 1 until then.
Partition partitionOf(const Workload& workload) {
  return Partition{0, workload.partition.extent, std::max(1LL, workload.partition.granule)};
}

} // namespace

long long granuleCount(const Workload& workload) {
  return overlap::granuleCount(partitionOf(workload));
}

int chunkCount(const Workload& workload, int streams) {
  if (workload.partition.extent <= 0)
    return streams;
  return static_cast<int>(overlap::chunkCount(partitionOf(workload), streams));
}

double pipelinedH2dBytes(const Workload& workload, long long chunks, bool haloSentTwice) {
  if (!haloSentTwice || chunks <= 1)
    return workload.transfers.h2dBytes;
  return workload.transfers.h2dBytes +
         static_cast<double>(chunks - 1) * workload.transfers.haloBytesPerBoundary;
}

namespace {

bool isNonNegative(double value) {
  return std::isfinite(value) && value >= 0;
}

} // namespace

std::string validate(const Workload& workload) {
  struct NamedValue {
    const char* name;
    double value;
  };
  const NamedValue sizes[] = {
      {"h2d_bytes", workload.transfers.h2dBytes},
      {"broadcast_bytes", workload.transfers.broadcastBytes},
      {"halo_bytes_per_boundary", workload.transfers.haloBytesPerBoundary},
      {"d2h_bytes", workload.transfers.d2hBytes},
      {"inout_d2h_bytes", workload.transfers.inoutD2hBytes},
      {"reduction_bytes", workload.transfers.reductionBytes},
      {"kernel_seconds", workload.launch.kernelSeconds},
  };
  for (const NamedValue& size : sizes)
    if (!isNonNegative(size.value))
      return std::string(size.name) + " must be a finite non-negative number";
  if (workload.partition.extent < 0)
    return "partition_extent must not be negative";
  if (workload.partition.granule < 1)
    return "granule must be at least 1";
  if (workload.transfers.inoutD2hBytes > workload.transfers.d2hBytes)
    return "inout_d2h_bytes exceeds d2h_bytes: in-out bytes are part of the output bytes";
  if (workload.transfers.h2dCopiesPerChunk < 1 || workload.transfers.d2hCopiesPerChunk < 1 ||
      workload.transfers.explicitH2dCopies < 1 || workload.transfers.explicitD2hCopies < 1)
    return "copy counts must be at least 1";
  if (workload.launch.totalBlocks < 0 || workload.launch.residentBlocksPerSm < 0)
    return "total_blocks and resident_blocks_per_sm must not be negative";
  if (!std::isfinite(workload.mapped.readFactor) || workload.mapped.readFactor < 1 ||
      !std::isfinite(workload.mapped.broadcastReadFactor) ||
      workload.mapped.broadcastReadFactor < 1)
    return "mapped read factors must be at least 1 (each byte crosses the link at least once)";
  return {};
}

namespace {

bool unknownBroadcastRereads(const Workload& workload) {
  return workload.transfers.broadcastBytes > 0 && !workload.mapped.broadcastReadsKnown;
}

bool partialLines(const Workload& workload) {
  return workload.mapped.narrowestElementBytes > 0 &&
         workload.mapped.narrowestElementBytes < kMappedFullLineElementBytes;
}

} // namespace

bool mappedPredictionIsLowerBound(const Workload& workload) {
  return unknownBroadcastRereads(workload) || partialLines(workload);
}

bool mappedPredictionIsLowerBound(const Workload& workload, const HardwareProfile& profile) {
  return unknownBroadcastRereads(workload) ||
         (partialLines(workload) && !mappedWidthsPriced(profile, workload));
}

} // namespace overlap::model
