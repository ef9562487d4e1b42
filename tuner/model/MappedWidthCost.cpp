#include "model/MappedWidthCost.h"

#include <cmath>
#include <optional>

namespace overlap::model {

namespace {

double costOf(const MappedWidthCost& cost, MappedAccess access) {
  return access == MappedAccess::Read ? cost.readSecondsPerByte : cost.writeSecondsPerByte;
}

} // namespace

double mappedWidthSecondsPerByte(const HardwareProfile& profile, std::size_t elementBytes,
                                 MappedAccess access) {
  if (elementBytes == 0)
    return 0;
  // The measured widths nearest below and above, skipping widths without a cost for this access.
  std::optional<MappedWidthCost> below, above;
  for (const MappedWidthCost& cost : profile.mappedByWidth) {
    if (cost.elementBytes <= 0 || !(costOf(cost, access) > 0))
      continue;
    const auto width = static_cast<std::size_t>(cost.elementBytes);
    if (width <= elementBytes && (!below || cost.elementBytes > below->elementBytes))
      below = cost;
    if (width >= elementBytes && (!above || cost.elementBytes < above->elementBytes))
      above = cost;
  }
  if (!below && !above)
    return 0;
  if (!below)
    return costOf(*above, access);
  if (!above || below->elementBytes == above->elementBytes)
    return costOf(*below, access);
  // Between two measured widths: the number of line pieces a warp requests changes with the
  // width's power of two, so the cost is interpolated on log2(width).
  const double low = std::log2(below->elementBytes);
  const double high = std::log2(above->elementBytes);
  const double at = (std::log2(static_cast<double>(elementBytes)) - low) / (high - low);
  return costOf(*below, access) + at * (costOf(*above, access) - costOf(*below, access));
}

double mappedSecondsPerByte(const HardwareProfile& profile, const Workload& workload,
                            MappedAccess access, MappedOutputs outputs) {
  double bytes = 0;
  double seconds = 0;
  for (const MappedBytesOfWidth& width : workload.mapped.bytesByWidth) {
    double weight = width.readBytes;
    if (access == MappedAccess::Write)
      weight =
          width.pureOutputBytes + (outputs == MappedOutputs::All ? width.inoutOutputBytes : 0.0);
    if (!(weight > 0))
      continue;
    const double cost = mappedWidthSecondsPerByte(profile, width.elementBytes, access);
    if (!(cost > 0))
      return 0; // a width the profile cannot price: the single G for all, not a partial mix
    bytes += weight;
    seconds += weight * cost;
  }
  return bytes > 0 ? seconds / bytes : 0;
}

bool mappedWidthsPriced(const HardwareProfile& profile, const Workload& workload) {
  return !profile.mappedByWidth.empty() && !workload.mapped.bytesByWidth.empty();
}

} // namespace overlap::model
