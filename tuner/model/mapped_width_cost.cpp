#include "model/mapped_width_cost.h"

#include <cmath>
#include <optional>

namespace overlap::model {

namespace {

double cost_of(const MappedWidthCost& cost, MappedAccess access) {
  return access == MappedAccess::Read ? cost.read_seconds_per_byte : cost.write_seconds_per_byte;
}

} // namespace

double mapped_width_seconds_per_byte(const HardwareProfile& profile, std::size_t element_bytes,
                                     MappedAccess access) {
  if (element_bytes == 0)
    return 0;
  // The measured widths nearest below and above, skipping widths without a cost for this access.
  std::optional<MappedWidthCost> below, above;
  for (const MappedWidthCost& cost : profile.mapped_by_width) {
    if (cost.element_bytes <= 0 || !(cost_of(cost, access) > 0))
      continue;
    const auto width = static_cast<std::size_t>(cost.element_bytes);
    if (width <= element_bytes && (!below || cost.element_bytes > below->element_bytes))
      below = cost;
    if (width >= element_bytes && (!above || cost.element_bytes < above->element_bytes))
      above = cost;
  }
  if (!below && !above)
    return 0;
  if (!below)
    return cost_of(*above, access);
  if (!above || below->element_bytes == above->element_bytes)
    return cost_of(*below, access);
  // Between two measured widths: the number of line pieces a warp requests changes with the
  // width's power of two, so the cost is interpolated on log2(width).
  const double low = std::log2(below->element_bytes);
  const double high = std::log2(above->element_bytes);
  const double at = (std::log2(static_cast<double>(element_bytes)) - low) / (high - low);
  return cost_of(*below, access) + at * (cost_of(*above, access) - cost_of(*below, access));
}

double mapped_seconds_per_byte(const HardwareProfile& profile, const Workload& workload,
                               MappedAccess access, MappedOutputs outputs) {
  double bytes = 0;
  double seconds = 0;
  for (const MappedBytesOfWidth& width : workload.mapped_bytes_by_width) {
    double weight = width.read_bytes;
    if (access == MappedAccess::Write)
      weight = width.pure_output_bytes +
               (outputs == MappedOutputs::All ? width.inout_output_bytes : 0.0);
    if (!(weight > 0))
      continue;
    const double cost = mapped_width_seconds_per_byte(profile, width.element_bytes, access);
    if (!(cost > 0))
      return 0; // a width the profile cannot price: the single G for all, not a partial mix
    bytes += weight;
    seconds += weight * cost;
  }
  return bytes > 0 ? seconds / bytes : 0;
}

bool mapped_widths_priced(const HardwareProfile& profile, const Workload& workload) {
  return !profile.mapped_by_width.empty() && !workload.mapped_bytes_by_width.empty();
}

} // namespace overlap::model
