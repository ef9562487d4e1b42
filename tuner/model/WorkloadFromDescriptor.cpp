#include "model/WorkloadFromDescriptor.h"

#include "overlap/ByteSize.h"
#include "overlap/DeviceLayout.h"
#include "overlap/HostReduction.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace overlap::model {

namespace {

// Chunks used to measure a section's halo: enough boundaries to average over, few enough to be
// cheap for any extent.
constexpr long long kHaloProbeChunks = 16;

double sectionBytes(const KernelDescriptor& descriptor, ArgPointers args, int array, int index,
                    long long lo, long long hi, long long extent, std::size_t elementSize) {
  const Section section = clip(descriptor.section(args, array, index, lo, hi), extent);
  return static_cast<double>(section.size()) * static_cast<double>(elementSize);
}

// Extra bytes each chunk boundary adds when every chunk is sent its own section: zero for a
// section that tiles, the halo for a stencil.
double haloBytesPerBoundary(const KernelDescriptor& descriptor, ArgPointers args, int array,
                            int index, const Partition& partition, long long extent,
                            std::size_t elementSize, double wholeBytes) {
  const long long chunks = overlap::chunkCount(partition, kHaloProbeChunks);
  if (chunks < 2)
    return 0;
  double chunkedBytes = 0;
  for (long long c = 0; c < chunks; ++c) {
    long long lo = 0;
    long long hi = 0;
    chunkBounds(partition, chunks, c, lo, hi);
    chunkedBytes += sectionBytes(descriptor, args, array, index, lo, hi, extent, elementSize);
  }
  return std::max(0.0, (chunkedBytes - wholeBytes) / static_cast<double>(chunks - 1));
}

// Chunks of the probe launch that tells a grid growing with the chunk from a constant one.
constexpr long long kGeometryProbeChunks = 16;

// launch.totalBlocks and launch.residentBlocksPerSm from the launch over [B, B + P), when the
// descriptor says the geometry and the grid grows with the chunk. A grid-stride grid, and any grid
// as large for a chunk as for the whole range (a kernel looping over the levels of its chunk with
// one block per column, as POP's), is left unknown: its chunks never run short of blocks, each
// block does less work instead, so the model's fill penalty must not apply. Unknown too when the
// call fails, which it does without a CUDA device (the occupancy query).
void fillLaunchGeometry(const KernelDescriptor& descriptor, ArgPointers args,
                        const Partition& partition, Workload& workload) {
  if (descriptor.launchGeometry == nullptr || partition.extent < 1)
    return;
  LaunchGeometry whole;
  if (!descriptor.launchGeometry(args, partition.begin, partition.begin + partition.extent, &whole)
           .ok() ||
      whole.gridStride || whole.blocks < 1)
    return;
  const long long probeChunks = overlap::chunkCount(partition, kGeometryProbeChunks);
  if (probeChunks >= 2) {
    long long lo = 0;
    long long hi = 0;
    chunkBounds(partition, probeChunks, 0, lo, hi);
    LaunchGeometry chunk;
    if (!descriptor.launchGeometry(args, lo, hi, &chunk).ok() || chunk.blocks >= whole.blocks)
      return;
  }
  workload.launch.totalBlocks = whole.blocks;
  workload.launch.residentBlocksPerSm = whole.residentBlocksPerSm;
}

// The entry of `width` in the workload's per-width bytes, kept in ascending width order.
MappedBytesOfWidth& bytesOfWidth(Workload& workload, std::size_t width) {
  std::vector<MappedBytesOfWidth>& widths = workload.mapped.bytesByWidth;
  auto at = std::find_if(widths.begin(), widths.end(),
                         [&](const MappedBytesOfWidth& w) { return w.elementBytes >= width; });
  if (at == widths.end() || at->elementBytes != width) {
    MappedBytesOfWidth entry;
    entry.elementBytes = width;
    at = widths.insert(at, entry);
  }
  return *at;
}

// The call's partition, made usable: a negative P (an error at run time) as 0, a granule below
// 1 (an error too) as 1, and an origin whose end would overflow as 0.
Partition usablePartition(const KernelDescriptor& descriptor, ArgPointers args) {
  Partition partition = partitionOf(descriptor, args);
  partition.extent = std::max(0LL, partition.extent);
  partition.granule = std::max(1LL, partition.granule);
  if (partition.begin > std::numeric_limits<long long>::max() - partition.extent)
    partition.begin = 0;
  return partition;
}

// An optional array the caller passed null takes no part in the call.
bool absent(const KernelDescriptor& descriptor, ArgPointers args, int array,
            OptionalArrays optional) {
  const ArrayDescriptor& a = descriptor.arrays[array];
  return optional == OptionalArrays::AsPassed && a.optional &&
         *static_cast<const void* const*>(args[a.param]) == nullptr;
}

// The array's full-extent buffer, padded as the runtime places it (DeviceLayout.h), in the
// workload's device memory: every present array has one in Explicit and Streams; Hybrid maps the
// pure outputs; out of core the arrays without chunked sections stay resident.
void addDeviceBytes(const KernelDescriptor& descriptor, ArgPointers args, int a, long long extent,
                    Workload::DeviceMemory& memory) {
  const ArrayDescriptor& array = descriptor.arrays[a];
  const double bytes =
      static_cast<double>(std::max(0LL, extent)) * static_cast<double>(array.elementSize);
  const double padded =
      std::ceil(bytes / kDeviceBufferAlignment) * static_cast<double>(kDeviceBufferAlignment);
  memory.fullBytes += padded;
  if (array.direction == Direction::Out && array.reduce == ReduceOp::None)
    memory.pureOutputFullBytes += padded;
  bool chunked = false;
  for (int s = 0; s < descriptor.sectionCount(args, a) && !chunked; ++s)
    chunked = descriptor.sectionIsChunked(a, s);
  if (array.reduce != ReduceOp::None || !chunked)
    memory.residentBytes += padded;
}

} // namespace

double deviceMemoryBudgetFromEnvironment(std::string* error) {
  const char* value = std::getenv("OVERLAP_DEVICE_MEMORY_BUDGET");
  if (value == nullptr || *value == '\0')
    return 0;
  std::size_t bytes = 0;
  if (parseMemorySize(value, &bytes))
    return static_cast<double>(bytes);
  if (error)
    *error = std::string("OVERLAP_DEVICE_MEMORY_BUDGET='") + value +
             "' is not a size such as 2G or 512MiB; the model takes the device memory as "
             "unlimited";
  return 0;
}

double automaticDeviceMemoryBudget(const Workload& workload, double automaticBytes) {
  if (workload.deviceMemory.fullBytes <= automaticBytes)
    return 0;
  // A step coarse against the free memory's drift between tunings, so that a call tuned out of
  // core keeps its key; at least one step, since 0 would mean unlimited.
  constexpr double kStep = 256.0 * 1024 * 1024;
  return std::max(kStep, std::floor(automaticBytes / kStep) * kStep);
}

Workload workloadFromDescriptor(const KernelDescriptor& descriptor, ArgPointers args,
                                double kernelSeconds, OptionalArrays optional) {
  Workload workload;
  workload.launch.kernelSeconds = kernelSeconds;
  const Partition partition = usablePartition(descriptor, args);
  workload.partition.extent = partition.extent;
  workload.partition.granule = partition.granule;
  const long long lo = partition.begin;
  const long long hi = partition.begin + partition.extent;

  int chunkedInputs = 0;
  int chunkedOutputs = 0;
  int broadcastSections = 0;
  int reductions = 0;
  for (int a = 0; a < descriptor.arrayCount; ++a) {
    if (absent(descriptor, args, a, optional))
      continue;
    const ArrayDescriptor& array = descriptor.arrays[a];
    const long long extent = descriptor.arrayExtent(args, a);
    addDeviceBytes(descriptor, args, a, extent, workload.deviceMemory);
    if (array.reduce != ReduceOp::None) {
      // Copied whole, once each way, in every variant; never mapped.
      workload.transfers.reductionBytes +=
          static_cast<double>(std::max(0LL, extent)) * static_cast<double>(array.elementSize);
      workload.transfers.reductionsCombineOnHost =
          workload.transfers.reductionsCombineOnHost &&
          hostCombinable(array.reduce, array.kind, array.elementSize);
      ++reductions;
      continue;
    }
    const int sections = descriptor.sectionCount(args, a);
    if (extent > 0 && (workload.mapped.narrowestElementBytes == 0 ||
                       array.elementSize < workload.mapped.narrowestElementBytes))
      workload.mapped.narrowestElementBytes = array.elementSize;
    if (sections == 0) {
      // The whole array, sent once: only inputs have this form (the generator rejects outputs
      // without a chunked section).
      if (reads(array.direction)) {
        const double whole =
            static_cast<double>(std::max(0LL, extent)) * static_cast<double>(array.elementSize);
        workload.transfers.broadcastBytes += whole;
        bytesOfWidth(workload, array.elementSize).readBytes += whole;
        ++broadcastSections;
      }
      continue;
    }
    double broadcastBytes = 0;
    bool chunked = false;
    for (int s = 0; s < sections; ++s) {
      const double whole = sectionBytes(descriptor, args, a, s, lo, hi, extent, array.elementSize);
      chunked |= descriptor.sectionIsChunked(a, s);
      if (!descriptor.sectionIsChunked(a, s)) {
        broadcastBytes += whole;
        if (reads(array.direction)) {
          workload.transfers.broadcastBytes += whole;
          bytesOfWidth(workload, array.elementSize).readBytes += whole;
          ++broadcastSections;
        }
        continue;
      }
      if (reads(array.direction)) {
        workload.transfers.h2dBytes += whole;
        bytesOfWidth(workload, array.elementSize).readBytes += whole;
        workload.transfers.haloBytesPerBoundary += haloBytesPerBoundary(
            descriptor, args, a, s, partition, extent, array.elementSize, whole);
        ++chunkedInputs;
      }
      if (writes(array.direction)) {
        workload.transfers.d2hBytes += whole;
        MappedBytesOfWidth& width = bytesOfWidth(workload, array.elementSize);
        if (array.direction == Direction::InOut) {
          workload.transfers.inoutD2hBytes += whole;
          width.inoutOutputBytes += whole;
        } else {
          width.pureOutputBytes += whole;
        }
        ++chunkedOutputs;
      }
    }
    // One pointer for both: out of core the runtime pages such an array, its broadcast pages
    // resident beside every slot's chunk.
    if (broadcastBytes > 0 && chunked) {
      ++workload.deviceMemory.pagedArrays;
      workload.deviceMemory.residentBytes += broadcastBytes;
    }
  }

  fillLaunchGeometry(descriptor, args, partition, workload);
  workload.transfers.h2dCopiesPerChunk = std::max(1, chunkedInputs);
  workload.transfers.d2hCopiesPerChunk = std::max(1, chunkedOutputs);
  workload.transfers.explicitH2dCopies =
      std::max(1, chunkedInputs + broadcastSections + reductions);
  workload.transfers.explicitD2hCopies = std::max(1, chunkedOutputs + reductions);
  // mapped.readFactor stays 1: a halo is shared between the chunks of the pipelined variants,
  // which are separate kernels, but Mapped runs one kernel over the whole range, whose re-reads
  // of a neighbour's elements come from the cache or the thread's registers (buoydiff's level k-1
  // is read in the previous iteration): charged twice it put Mapped 66 % over the H200's
  // measurement, once it is as close as the other kernels with as much traffic both ways.
  return workload;
}

} // namespace overlap::model
