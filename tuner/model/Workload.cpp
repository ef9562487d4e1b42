#include "model/Workload.h"

#include "model/MappedWidthCost.h"
#include "model/PerformanceModel.h"
#include "overlap/ByteSize.h"
#include "overlap/DeviceLayout.h"
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

namespace {

bool pipelined(Variant variant) {
  return variant == Variant::Streams || variant == Variant::Hybrid;
}

// The runtime aligns every window, which also starts at its first element's misalignment: up to
// two alignments beyond its bytes.
constexpr double kWindowPadding = 2.0 * kDeviceBufferAlignment;
// A paged array's slot allocation: its chunk's pages, rounded out to whole pages of 2 MiB (an
// H100's granularity) at both ends.
constexpr double kPagedArrayPadding = 2.0 * 2 * 1024 * 1024;

} // namespace

double fullDeviceBytes(const Workload& workload, Variant variant) {
  const Workload::DeviceMemory& memory = workload.deviceMemory;
  switch (variant) {
  case Variant::Mapped:
    return 0;
  case Variant::Hybrid:
    return std::max(0.0, memory.fullBytes - memory.pureOutputFullBytes);
  case Variant::Explicit:
  case Variant::Streams:
    break;
  }
  return memory.fullBytes;
}

bool runsOutOfCore(const Workload& workload, Variant variant) {
  const double budget = workload.deviceMemory.budgetBytes;
  return budget > 0 && variant != Variant::Mapped && fullDeviceBytes(workload, variant) > budget;
}

double ringDeviceBytes(const Workload& workload, Variant variant, int slots, long long chunks) {
  const Workload::Transfers& transfers = workload.transfers;
  // Each windowed array's elements once: inputs (in-out arrays among them) and, unless Hybrid
  // maps them, the pure outputs.
  const double windowed =
      transfers.h2dBytes +
      (variant == Variant::Hybrid ? 0.0 : transfers.d2hBytes - transfers.inoutD2hBytes);
  // The largest chunk: whole granules, so some chunks hold one more than others.
  const long long granules = granuleCount(workload);
  const double largestShare = granules > 0 ? static_cast<double>((granules - 1) / chunks + 1) /
                                                 static_cast<double>(granules)
                                           : 1.0 / static_cast<double>(chunks);
  // At most one window per chunked section.
  const int windows = transfers.h2dCopiesPerChunk + transfers.d2hCopiesPerChunk;
  const double slot = windowed * largestShare + transfers.haloBytesPerBoundary +
                      windows * kWindowPadding +
                      workload.deviceMemory.pagedArrays * kPagedArrayPadding;
  return workload.deviceMemory.residentBytes + slots * slot;
}

PipelineShape pipelineShape(const Workload& workload, const Candidate& candidate) {
  const long long granules = granuleCount(workload);
  const long long asked = askedChunks(candidate);
  long long chunks = granules > 0 ? std::min(asked, granules) : asked;
  const auto slotsFor = [&](long long c) {
    return static_cast<int>(std::min<long long>(candidate.streams, c));
  };
  if (!runsOutOfCore(workload, candidate.variant))
    return {static_cast<int>(chunks), slotsFor(chunks), false};
  const double budget = workload.deviceMemory.budgetBytes;
  for (;;) {
    if (ringDeviceBytes(workload, candidate.variant, slotsFor(chunks), chunks) <= budget)
      return {static_cast<int>(chunks), slotsFor(chunks), true};
    long long next = std::min(chunks * 2, kMaxRingChunks);
    if (granules > 0)
      next = std::min(next, granules);
    if (candidate.chunks > 0 || next <= chunks)
      return {0, 0, true};
    chunks = next;
  }
}

int chunkCount(const Workload& workload, const Candidate& candidate) {
  return pipelined(candidate.variant) ? pipelineShape(workload, candidate).chunks : 1;
}

bool fitsDeviceMemory(const Workload& workload, const Candidate& candidate) {
  if (pipelined(candidate.variant))
    return pipelineShape(workload, candidate).chunks > 0;
  return !runsOutOfCore(workload, candidate.variant);
}

bool oneChunkPerStreamInCore(const Workload& workload, const Candidate& candidate) {
  if (candidate.devices != 1 || runsOutOfCore(workload, candidate.variant))
    return false;
  return !pipelined(candidate.variant) ||
         chunkCount(workload, candidate) == chunkCount(workload, candidate.streams);
}

std::string deviceMemoryProblem(const Workload& workload, const Candidate& candidate) {
  if (fitsDeviceMemory(workload, candidate))
    return {};
  const std::string budget = formatBytes(workload.deviceMemory.budgetBytes);
  if (!pipelined(candidate.variant))
    return describe(candidate) + " cannot run: its device buffers take " +
           formatBytes(fullDeviceBytes(workload, candidate.variant)) + ", over the budget of " +
           budget + " (only Streams and Hybrid run a call this large, out of core)";
  // The chunks asked for, or without any asked the most the runtime would try.
  const long long granules = granuleCount(workload);
  long long chunks = candidate.chunks > 0 ? candidate.chunks : kMaxRingChunks;
  if (granules > 0)
    chunks = std::min(chunks, granules);
  const int slots = static_cast<int>(std::min<long long>(candidate.streams, chunks));
  return describe(candidate) + " cannot run: out of core, its ring of " + std::to_string(slots) +
         " slots takes " +
         formatBytes(ringDeviceBytes(workload, candidate.variant, slots, chunks)) + " at " +
         std::to_string(chunks) + " chunks, over the budget of " + budget;
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
      {"device_memory_budget", workload.deviceMemory.budgetBytes},
      {"device_bytes", workload.deviceMemory.fullBytes},
      {"pure_output_device_bytes", workload.deviceMemory.pureOutputFullBytes},
      {"resident_device_bytes", workload.deviceMemory.residentBytes},
  };
  for (const NamedValue& size : sizes)
    if (!isNonNegative(size.value))
      return std::string(size.name) + " must be a finite non-negative number";
  if (workload.partition.extent < 0)
    return "partition_extent must not be negative";
  if (workload.partition.granule < 1)
    return "granule must be at least 1";
  if (workload.deviceMemory.pureOutputFullBytes > workload.deviceMemory.fullBytes)
    return "pure_output_device_bytes exceeds device_bytes: pure outputs are part of the arrays";
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
