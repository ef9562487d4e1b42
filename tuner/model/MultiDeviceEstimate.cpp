#include "model/MultiDeviceEstimate.h"

#include <algorithm>
#include <cmath>

namespace overlap::model {

Workload deviceShare(const Workload& workload, int devices) {
  const long long granules = granuleCount(workload);
  if (devices <= 1 || granules <= 0)
    return workload;
  const long long shareGranules = (granules + devices - 1) / devices;
  const double fraction = static_cast<double>(shareGranules) / static_cast<double>(granules);
  Workload share = workload;
  share.partition.extent =
      std::min(workload.partition.extent, shareGranules * workload.partition.granule);
  share.transfers.h2dBytes *= fraction;
  share.transfers.d2hBytes *= fraction;
  share.transfers.inoutD2hBytes *= fraction;
  share.launch.kernelSeconds *= fraction;
  share.launch.totalBlocks = static_cast<long long>(
      std::ceil(static_cast<double>(workload.launch.totalBlocks) * fraction));
  return share;
}

double allLinksSeconds(const HardwareProfile& profile, const Workload& workload, int devices) {
  // Every device takes the broadcast sections and its reduction arrays both ways; the chunked
  // bytes cross once in all.
  const Workload::Transfers& t = workload.transfers;
  const double in = t.h2dBytes + devices * (t.broadcastBytes + t.reductionBytes);
  const double out = t.d2hBytes + devices * t.reductionBytes;
  if (profile.allLinksOneWaySecondsPerByte <= 0)
    return (in + out) * profile.allLinksSecondsPerByte;
  // Both ways at once until the lighter direction is done, then the rest one way alone.
  const double both = std::min(in, out);
  return 2 * both * profile.allLinksSecondsPerByte +
         (std::max(in, out) - both) * profile.allLinksOneWaySecondsPerByte;
}

bool splitIsLowerBound(const HardwareProfile& profile, int devices) {
  return profile.allLinksSecondsPerByte <= 0 || profile.allLinksDevices != devices;
}

std::optional<double> splitSeconds(const PerformanceModel& model, const HardwareProfile& profile,
                                   const Workload& workload, const Candidate& candidate) {
  if (candidate.devices < 1)
    return std::nullopt;
  Candidate one = candidate;
  one.devices = 1;
  const std::optional<double> share =
      model.predictSeconds(profile, deviceShare(workload, candidate.devices), one);
  if (!share)
    return std::nullopt;
  double seconds = *share;
  if (!splitIsLowerBound(profile, candidate.devices))
    seconds = std::max(seconds, allLinksSeconds(profile, workload, candidate.devices));
  return seconds + candidate.devices * profile.streamSyncS;
}

} // namespace overlap::model
