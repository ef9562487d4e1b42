#include "accuracy_check.h"

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

Status check_accuracy(LinkBench& bench, const HardwareProfile& profile, const AccuracyPlan& plan,
                      const Progress& progress, AccuracyReport* report) {
  std::map<Key, Samples> one_way[2];
  std::map<Key, Samples> busy[2];
  std::map<Key, Samples> both_ways[2];
  const TransferDirection directions[] = {TransferDirection::HostToDevice,
                                          TransferDirection::DeviceToHost};
  int busy_samples = 0;
  int idle_at_end = 0; // busy-link samples whose other direction ended first
  const auto begin = std::chrono::steady_clock::now();
  // The cases with both directions busy get more passes than the one-way ones (and than their own
  // ungated repeats, which are shown, not judged): their repeats vary far more.
  const bool both_directions_busy = plan.bidirectional || plan.simultaneous;
  const int one_way_passes = plan.warmup + plan.repeats;
  const int passes =
      plan.warmup + (both_directions_busy ? plan.busy_link_repeat_count() : plan.repeats);
  if (both_directions_busy && passes > one_way_passes)
    report->notes.push_back("the bidirectional and simultaneous cases (gated) were repeated " +
                            std::to_string(plan.busy_link_repeat_count()) +
                            " times, the one-way cases and the ungated repeats " +
                            std::to_string(plan.repeats) + " times");
  // Passes over the whole grid rather than repeats of one point, so a drift during the check
  // shows as spread at every point instead of as a trend across sizes.
  for (int pass = 0; pass < passes; ++pass) {
    const bool one_way_pass = pass < one_way_passes;
    if (progress) {
      char line[160];
      std::snprintf(
          line, sizeof(line), "accuracy pass %d/%d%s (%.1f s so far)", pass + 1, passes,
          pass < plan.warmup ? " (warm-up)"
          : one_way_pass     ? ""
                             : " (bidirectional and simultaneous cases only)",
          std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count());
      progress(line);
    }
    const bool keep = pass >= plan.warmup;
    for (std::size_t bytes : plan.size_bytes) {
      for (int pieces : plan.piece_counts) {
        const Key key{bytes, pieces};
        for (int d = 0; d < 2 && one_way_pass; ++d) {
          double seconds = 0;
          OVERLAP_TRY(bench.transfer(directions[d], bytes, pieces, true, &seconds));
          if (keep)
            one_way[d][key].gated.push_back(seconds);
          if (plan.ungated) {
            OVERLAP_TRY(bench.transfer(directions[d], bytes, pieces, false, &seconds));
            if (keep)
              one_way[d][key].ungated.push_back(seconds);
          }
        }
        if (plan.bidirectional) {
          for (int d = 0; d < 2; ++d) {
            double seconds = 0;
            double background = 0;
            OVERLAP_TRY(bench.transfer_against_busy_link(directions[d], bytes, pieces,
                                                         background_bytes_for(bytes, pieces),
                                                         &seconds, &background));
            if (keep) {
              busy[d][key].gated.push_back(seconds);
              busy_samples += 1;
              idle_at_end += background < seconds ? 1 : 0;
            }
          }
        }
        if (!plan.simultaneous)
          continue;
        double to_device = 0;
        double to_host = 0;
        OVERLAP_TRY(bench.bidirectional(bytes, pieces, true, &to_device, &to_host));
        if (keep) {
          both_ways[0][key].gated.push_back(to_device);
          both_ways[1][key].gated.push_back(to_host);
        }
        if (plan.ungated && one_way_pass) {
          OVERLAP_TRY(bench.bidirectional(bytes, pieces, false, &to_device, &to_host));
          if (keep) {
            both_ways[0][key].ungated.push_back(to_device);
            both_ways[1][key].ungated.push_back(to_host);
          }
        }
      }
    }
  }

  const AccuracyCase one_way_cases[] = {AccuracyCase::HostToDevice, AccuracyCase::DeviceToHost};
  const AccuracyCase busy_cases[] = {AccuracyCase::BidirectionalHostToDevice,
                                     AccuracyCase::BidirectionalDeviceToHost};
  const AccuracyCase both_way_cases[] = {AccuracyCase::SimultaneousHostToDevice,
                                         AccuracyCase::SimultaneousDeviceToHost};
  const LinkDirection* links[] = {&profile.host_to_device, &profile.device_to_host};
  auto add_rows = [&](const std::map<Key, Samples>& samples, AccuracyCase which,
                      const LinkDirection& link) {
    for (const auto& [key, s] : samples) {
      AccuracyRow row;
      row.which = which;
      row.bytes = static_cast<double>(key.first);
      row.pieces = key.second;
      row.predicted_s = predict_transfer_seconds(link, row.bytes, row.pieces, which);
      row.outside_domain = outside_gap_domain(link, row.bytes, row.pieces, which);
      row.measured = summarize(s.gated);
      row.ungated = summarize(s.ungated);
      split_by_mode(link, s.gated, &row);
      report->rows.push_back(row);
    }
  };
  if (busy_samples > 0)
    report->notes.push_back(
        std::to_string(idle_at_end) + " of " + std::to_string(busy_samples) +
        " bidirectional samples ended after the other direction (kept; the link was not busy "
        "both ways throughout those)");
  report->host_to_device = profile.host_to_device;
  report->device_to_host = profile.device_to_host;
  for (int d = 0; d < 2; ++d)
    add_rows(one_way[d], one_way_cases[d], *links[d]);
  for (int d = 0; d < 2; ++d)
    add_rows(busy[d], busy_cases[d], *links[d]);
  for (int d = 0; d < 2; ++d)
    add_rows(both_ways[d], both_way_cases[d], *links[d]);
  return Status::success();
}

} // namespace overlap::calibration
