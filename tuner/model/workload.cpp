#include "model/workload.h"

#include "model/mapped_width_cost.h"
#include "overlap/kernel_types.h"

#include <algorithm>
#include <cmath>

namespace overlap::model {

namespace {

// A granule below 1 is invalid (validate() says so); taken as 1 until then.
Partition partition_of(const Workload& workload) {
  return Partition{0, workload.partition_extent, std::max(1LL, workload.granule)};
}

} // namespace

long long granule_count(const Workload& workload) {
  return overlap::granule_count(partition_of(workload));
}

int chunk_count(const Workload& workload, int streams) {
  if (workload.partition_extent <= 0)
    return streams;
  return static_cast<int>(overlap::chunk_count(partition_of(workload), streams));
}

double pipelined_h2d_bytes(const Workload& workload, long long chunks, bool halo_sent_twice) {
  if (!halo_sent_twice || chunks <= 1)
    return workload.h2d_bytes;
  return workload.h2d_bytes + static_cast<double>(chunks - 1) * workload.halo_bytes_per_boundary;
}

namespace {

bool is_non_negative(double value) {
  return std::isfinite(value) && value >= 0;
}

} // namespace

std::string validate(const Workload& workload) {
  struct NamedValue {
    const char* name;
    double value;
  };
  const NamedValue sizes[] = {
      {"h2d_bytes", workload.h2d_bytes},
      {"broadcast_bytes", workload.broadcast_bytes},
      {"halo_bytes_per_boundary", workload.halo_bytes_per_boundary},
      {"d2h_bytes", workload.d2h_bytes},
      {"inout_d2h_bytes", workload.inout_d2h_bytes},
      {"reduction_bytes", workload.reduction_bytes},
      {"kernel_seconds", workload.kernel_seconds},
  };
  for (const NamedValue& size : sizes)
    if (!is_non_negative(size.value))
      return std::string(size.name) + " must be a finite non-negative number";
  if (workload.partition_extent < 0)
    return "partition_extent must not be negative";
  if (workload.granule < 1)
    return "granule must be at least 1";
  if (workload.inout_d2h_bytes > workload.d2h_bytes)
    return "inout_d2h_bytes exceeds d2h_bytes: in-out bytes are part of the output bytes";
  if (workload.h2d_copies_per_chunk < 1 || workload.d2h_copies_per_chunk < 1 ||
      workload.explicit_h2d_copies < 1 || workload.explicit_d2h_copies < 1)
    return "copy counts must be at least 1";
  if (workload.total_blocks < 0 || workload.resident_blocks_per_sm < 0)
    return "total_blocks and resident_blocks_per_sm must not be negative";
  if (!std::isfinite(workload.mapped_read_factor) || workload.mapped_read_factor < 1 ||
      !std::isfinite(workload.mapped_broadcast_read_factor) ||
      workload.mapped_broadcast_read_factor < 1)
    return "mapped read factors must be at least 1 (each byte crosses the link at least once)";
  return {};
}

namespace {

bool unknown_broadcast_rereads(const Workload& workload) {
  return workload.broadcast_bytes > 0 && !workload.mapped_broadcast_reads_known;
}

bool partial_lines(const Workload& workload) {
  return workload.mapped_narrowest_element_bytes > 0 &&
         workload.mapped_narrowest_element_bytes < kMappedFullLineElementBytes;
}

} // namespace

bool mapped_prediction_is_lower_bound(const Workload& workload) {
  return unknown_broadcast_rereads(workload) || partial_lines(workload);
}

bool mapped_prediction_is_lower_bound(const Workload& workload, const HardwareProfile& profile) {
  return unknown_broadcast_rereads(workload) ||
         (partial_lines(workload) && !mapped_widths_priced(profile, workload));
}

} // namespace overlap::model
