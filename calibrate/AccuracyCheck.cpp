#include "AccuracyCheck.h"

#include <chrono>
#include <cstdio>
#include <map>
#include <utility>

namespace overlap::calibration {

namespace {

struct Samples {
  std::vector<double> gated;
  std::vector<double> ungated;
};

using Key = std::pair<std::size_t, int>; // bytes, pieces

} // namespace

Status checkAccuracy(LinkBench& bench, const HardwareProfile& profile, const AccuracyPlan& plan,
                     const Progress& progress, AccuracyReport* report) {
  std::map<Key, Samples> oneWay[2];
  std::map<Key, Samples> busy[2];
  std::map<Key, Samples> bothWays[2];
  const TransferDirection directions[] = {TransferDirection::HostToDevice,
                                          TransferDirection::DeviceToHost};
  int busySamples = 0;
  int idleAtEnd = 0; // busy-link samples whose other direction ended first
  const auto begin = std::chrono::steady_clock::now();
  // The cases with both directions busy get more passes than the one-way ones (and than their own
  // ungated repeats, which are shown, not judged): their repeats vary far more.
  const bool bothDirectionsBusy = plan.bidirectional || plan.simultaneous;
  const int oneWayPasses = plan.warmup + plan.repeats;
  const int passes = plan.warmup + (bothDirectionsBusy ? plan.busyLinkRepeatCount() : plan.repeats);
  if (bothDirectionsBusy && passes > oneWayPasses)
    report->notes.push_back("the bidirectional and simultaneous cases (gated) were repeated " +
                            std::to_string(plan.busyLinkRepeatCount()) +
                            " times, the one-way cases and the ungated repeats " +
                            std::to_string(plan.repeats) + " times");
  // Passes over the whole grid rather than repeats of one point, so a drift during the check
  // shows as spread at every point instead of as a trend across sizes.
  for (int pass = 0; pass < passes; ++pass) {
    const bool oneWayPass = pass < oneWayPasses;
    if (progress) {
      char line[160];
      std::snprintf(
          line, sizeof(line), "accuracy pass %d/%d%s (%.1f s so far)", pass + 1, passes,
          pass < plan.warmup ? " (warm-up)"
          : oneWayPass       ? ""
                             : " (bidirectional and simultaneous cases only)",
          std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count());
      progress(line);
    }
    const bool keep = pass >= plan.warmup;
    for (std::size_t bytes : plan.sizeBytes) {
      for (int pieces : plan.pieceCounts) {
        const Key key{bytes, pieces};
        for (int d = 0; d < 2 && oneWayPass; ++d) {
          double seconds = 0;
          OVERLAP_TRY(bench.transfer(directions[d], bytes, pieces, true, &seconds));
          if (keep)
            oneWay[d][key].gated.push_back(seconds);
          if (plan.ungated) {
            OVERLAP_TRY(bench.transfer(directions[d], bytes, pieces, false, &seconds));
            if (keep)
              oneWay[d][key].ungated.push_back(seconds);
          }
        }
        if (plan.bidirectional) {
          for (int d = 0; d < 2; ++d) {
            double seconds = 0;
            double background = 0;
            OVERLAP_TRY(bench.transferAgainstBusyLink(directions[d], bytes, pieces,
                                                      backgroundBytesFor(bytes, pieces), &seconds,
                                                      &background));
            if (keep) {
              busy[d][key].gated.push_back(seconds);
              busySamples += 1;
              idleAtEnd += background < seconds ? 1 : 0;
            }
          }
        }
        if (!plan.simultaneous)
          continue;
        double toDevice = 0;
        double toHost = 0;
        OVERLAP_TRY(bench.bidirectional(bytes, pieces, true, &toDevice, &toHost));
        if (keep) {
          bothWays[0][key].gated.push_back(toDevice);
          bothWays[1][key].gated.push_back(toHost);
        }
        if (plan.ungated && oneWayPass) {
          OVERLAP_TRY(bench.bidirectional(bytes, pieces, false, &toDevice, &toHost));
          if (keep) {
            bothWays[0][key].ungated.push_back(toDevice);
            bothWays[1][key].ungated.push_back(toHost);
          }
        }
      }
    }
  }

  const AccuracyCase oneWayCases[] = {AccuracyCase::HostToDevice, AccuracyCase::DeviceToHost};
  const AccuracyCase busyCases[] = {AccuracyCase::BidirectionalHostToDevice,
                                    AccuracyCase::BidirectionalDeviceToHost};
  const AccuracyCase bothWayCases[] = {AccuracyCase::SimultaneousHostToDevice,
                                       AccuracyCase::SimultaneousDeviceToHost};
  const LinkDirection* links[] = {&profile.hostToDevice, &profile.deviceToHost};
  auto addRows = [&](const std::map<Key, Samples>& samples, AccuracyCase which,
                     const LinkDirection& link) {
    for (const auto& [key, s] : samples) {
      AccuracyRow row;
      row.which = which;
      row.bytes = static_cast<double>(key.first);
      row.pieces = key.second;
      row.predictedS = predictTransferSeconds(link, row.bytes, row.pieces, which);
      row.outsideDomain = outsideGapDomain(link, row.bytes, row.pieces, which);
      row.measured = summarize(s.gated);
      row.ungated = summarize(s.ungated);
      splitByMode(link, s.gated, &row);
      report->rows.push_back(row);
    }
  };
  if (busySamples > 0)
    report->notes.push_back(
        std::to_string(idleAtEnd) + " of " + std::to_string(busySamples) +
        " bidirectional samples ended after the other direction (kept; the link was not busy "
        "both ways throughout those)");
  report->hostToDevice = profile.hostToDevice;
  report->deviceToHost = profile.deviceToHost;
  for (int d = 0; d < 2; ++d)
    addRows(oneWay[d], oneWayCases[d], *links[d]);
  for (int d = 0; d < 2; ++d)
    addRows(busy[d], busyCases[d], *links[d]);
  for (int d = 0; d < 2; ++d)
    addRows(bothWays[d], bothWayCases[d], *links[d]);
  return Status::success();
}

} // namespace overlap::calibration
