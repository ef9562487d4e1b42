#include "model/workload_from_descriptor.h"

#include <algorithm>
#include <limits>

namespace overlap::model {

namespace {

// Chunks used to measure a section's halo: enough boundaries to average over, few enough to be
// cheap for any extent.
constexpr long long kHaloProbeChunks = 16;

double section_bytes(const KernelDescriptor& descriptor, ArgPointers args, int array, int index,
                     long long lo, long long hi, long long extent, std::size_t element_size) {
  const Section section = clip(descriptor.section(args, array, index, lo, hi), extent);
  return static_cast<double>(section.size()) * static_cast<double>(element_size);
}

// Extra bytes each chunk boundary adds when every chunk is sent its own section: zero for a
// section that tiles, the halo for a stencil.
double halo_bytes_per_boundary(const KernelDescriptor& descriptor, ArgPointers args, int array,
                               int index, const Partition& partition, long long extent,
                               std::size_t element_size, double whole_bytes) {
  const long long chunks = overlap::chunk_count(partition, kHaloProbeChunks);
  if (chunks < 2)
    return 0;
  double chunked_bytes = 0;
  for (long long c = 0; c < chunks; ++c) {
    long long lo = 0;
    long long hi = 0;
    chunk_bounds(partition, chunks, c, lo, hi);
    chunked_bytes += section_bytes(descriptor, args, array, index, lo, hi, extent, element_size);
  }
  return std::max(0.0, (chunked_bytes - whole_bytes) / static_cast<double>(chunks - 1));
}

// Chunks of the probe launch that tells a grid growing with the chunk from a constant one.
constexpr long long kGeometryProbeChunks = 16;

// total_blocks and resident_blocks_per_sm from the launch over [B, B + P), when the descriptor says
// the geometry and the grid grows with the chunk. A grid-stride grid, and any grid as large for
// a chunk as for the whole range (a kernel looping over the levels of its chunk with one block
// per column, as POP's), is left unknown: its chunks never run short of blocks, each block does
// less work instead, so the model's fill penalty must not apply. Unknown too when the call fails,
// which it does without a CUDA device (the occupancy query).
void fill_launch_geometry(const KernelDescriptor& descriptor, ArgPointers args,
                          const Partition& partition, Workload& workload) {
  if (descriptor.launch_geometry == nullptr || partition.extent < 1)
    return;
  LaunchGeometry whole;
  if (!descriptor.launch_geometry(args, partition.begin, partition.begin + partition.extent, &whole)
           .ok() ||
      whole.grid_stride || whole.blocks < 1)
    return;
  const long long probe_chunks = overlap::chunk_count(partition, kGeometryProbeChunks);
  if (probe_chunks >= 2) {
    long long lo = 0;
    long long hi = 0;
    chunk_bounds(partition, probe_chunks, 0, lo, hi);
    LaunchGeometry chunk;
    if (!descriptor.launch_geometry(args, lo, hi, &chunk).ok() || chunk.blocks >= whole.blocks)
      return;
  }
  workload.total_blocks = whole.blocks;
  workload.resident_blocks_per_sm = whole.resident_blocks_per_sm;
}

// The entry of `width` in the workload's per-width bytes, kept in ascending width order.
MappedBytesOfWidth& bytes_of_width(Workload& workload, std::size_t width) {
  std::vector<MappedBytesOfWidth>& widths = workload.mapped_bytes_by_width;
  auto at = std::find_if(widths.begin(), widths.end(),
                         [&](const MappedBytesOfWidth& w) { return w.element_bytes >= width; });
  if (at == widths.end() || at->element_bytes != width) {
    MappedBytesOfWidth entry;
    entry.element_bytes = width;
    at = widths.insert(at, entry);
  }
  return *at;
}

// The call's partition, made usable: a negative P (an error at run time) as 0, a granule below
// 1 (an error too) as 1, and an origin whose end would overflow as 0.
Partition usable_partition(const KernelDescriptor& descriptor, ArgPointers args) {
  Partition partition = partition_of(descriptor, args);
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

} // namespace

Workload workload_from_descriptor(const KernelDescriptor& descriptor, ArgPointers args,
                                  double kernel_seconds, OptionalArrays optional) {
  Workload workload;
  workload.kernel_seconds = kernel_seconds;
  const Partition partition = usable_partition(descriptor, args);
  workload.partition_extent = partition.extent;
  workload.granule = partition.granule;
  const long long lo = partition.begin;
  const long long hi = partition.begin + partition.extent;

  int chunked_inputs = 0;
  int chunked_outputs = 0;
  int broadcast_sections = 0;
  int reductions = 0;
  for (int a = 0; a < descriptor.array_count; ++a) {
    if (absent(descriptor, args, a, optional))
      continue;
    const ArrayDescriptor& array = descriptor.arrays[a];
    const long long extent = descriptor.array_extent(args, a);
    if (array.reduce != ReduceOp::None) {
      // Copied whole, once each way, in every variant; never mapped.
      workload.reduction_bytes +=
          static_cast<double>(std::max(0LL, extent)) * static_cast<double>(array.element_size);
      ++reductions;
      continue;
    }
    const int sections = descriptor.section_count(args, a);
    if (extent > 0 && (workload.mapped_narrowest_element_bytes == 0 ||
                       array.element_size < workload.mapped_narrowest_element_bytes))
      workload.mapped_narrowest_element_bytes = array.element_size;
    if (sections == 0) {
      // The whole array, sent once: only inputs have this form (the generator rejects outputs
      // without a chunked section).
      if (reads(array.direction)) {
        const double whole =
            static_cast<double>(std::max(0LL, extent)) * static_cast<double>(array.element_size);
        workload.broadcast_bytes += whole;
        bytes_of_width(workload, array.element_size).read_bytes += whole;
        ++broadcast_sections;
      }
      continue;
    }
    for (int s = 0; s < sections; ++s) {
      const double whole =
          section_bytes(descriptor, args, a, s, lo, hi, extent, array.element_size);
      if (!descriptor.section_is_chunked(a, s)) {
        if (reads(array.direction)) {
          workload.broadcast_bytes += whole;
          bytes_of_width(workload, array.element_size).read_bytes += whole;
          ++broadcast_sections;
        }
        continue;
      }
      if (reads(array.direction)) {
        workload.h2d_bytes += whole;
        bytes_of_width(workload, array.element_size).read_bytes += whole;
        workload.halo_bytes_per_boundary += halo_bytes_per_boundary(
            descriptor, args, a, s, partition, extent, array.element_size, whole);
        ++chunked_inputs;
      }
      if (writes(array.direction)) {
        workload.d2h_bytes += whole;
        MappedBytesOfWidth& width = bytes_of_width(workload, array.element_size);
        if (array.direction == Direction::InOut) {
          workload.inout_d2h_bytes += whole;
          width.inout_output_bytes += whole;
        } else {
          width.pure_output_bytes += whole;
        }
        ++chunked_outputs;
      }
    }
  }

  fill_launch_geometry(descriptor, args, partition, workload);
  workload.h2d_copies_per_chunk = std::max(1, chunked_inputs);
  workload.d2h_copies_per_chunk = std::max(1, chunked_outputs);
  workload.explicit_h2d_copies = std::max(1, chunked_inputs + broadcast_sections + reductions);
  workload.explicit_d2h_copies = std::max(1, chunked_outputs + reductions);
  // mapped_read_factor stays 1: a halo is shared between the chunks of the pipelined variants,
  // which are separate kernels, but Mapped runs one kernel over the whole range, whose re-reads
  // of a neighbour's elements come from the cache or the thread's registers (buoydiff's level k-1
  // is read in the previous iteration): charged twice it put Mapped 66 % over the H200's
  // measurement, once it is as close as the other kernels with as much traffic both ways.
  return workload;
}

} // namespace overlap::model
