#include "AccuracyTable.h"
#include "Format.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <sstream>

namespace overlap::calibration {

namespace {

std::string formatBytes(double bytes) {
  const double gib = 1024.0 * 1024 * 1024;
  if (bytes >= gib && std::fmod(bytes, gib) == 0)
    return format("%.0f GiB", bytes / gib);
  return bytes >= 1024.0 * 1024 ? format("%g MiB", bytes / (1024.0 * 1024))
                                : format("%.0f B", bytes);
}

std::string percent(double fraction, bool sign = false) {
  return format(sign ? "%+.2f %%" : "%.2f %%", 100 * fraction);
}

} // namespace

const char* caseName(AccuracyCase which) {
  constexpr const char* kNames[] = {"host_to_device", "device_to_host",
                                    "bidirectional.host_to_device", "bidirectional.device_to_host"};
  return kNames[static_cast<int>(which)];
}

bool isBidirectional(AccuracyCase which) {
  return which == AccuracyCase::BidirectionalHostToDevice ||
         which == AccuracyCase::BidirectionalDeviceToHost;
}

double predictTransferSeconds(const LinkDirection& link, double bytes, int pieces,
                              AccuracyCase which) {
  const bool busy = isBidirectional(which);
  const double perByte = busy && link.bidirectionalSecondsPerByte > 0
                             ? link.bidirectionalSecondsPerByteFor(bytes / pieces)
                             : link.secondsPerByte;
  const double gap = busy && link.bidirectionalGapS > 0 ? link.bidirectionalGapS : link.gapS;
  return link.latencyS + bytes * perByte + gap * (pieces - 1);
}

std::vector<CaseSummary> summarizeCases(const AccuracyReport& report) {
  CaseSummary cases[4]; // indexed by AccuracyCase
  double sums[4] = {};
  for (const AccuracyRow& row : report.rows) {
    const int c = static_cast<int>(row.which);
    const double error = std::fabs(row.error());
    cases[c].which = row.which;
    ++cases[c].points;
    sums[c] += error;
    if (error >= cases[c].maxAbsError) {
      cases[c].maxAbsError = error;
      cases[c].worst = row;
    }
  }
  std::vector<CaseSummary> summaries;
  for (int c = 0; c < 4; ++c)
    if (cases[c].points > 0) {
      cases[c].meanAbsError = sums[c] / cases[c].points;
      cases[c].withinTarget = cases[c].maxAbsError <= report.target(cases[c].which);
      summaries.push_back(cases[c]);
    }
  return summaries;
}

bool meetsTargets(const AccuracyReport& report) {
  const std::vector<CaseSummary> summaries = summarizeCases(report);
  return !summaries.empty() && std::all_of(summaries.begin(), summaries.end(),
                                           [](const CaseSummary& s) { return s.withinTarget; });
}

std::string accuracySummaryMarkdown(const AccuracyReport& report) {
  std::ostringstream out;
  out << "| case | points | max abs error | mean abs error | worst point | target | met |\n"
         "|---|---:|---:|---:|---|---:|---|\n";
  for (const CaseSummary& s : summarizeCases(report))
    out << "| " << caseName(s.which) << " | " << s.points << " | " << percent(s.maxAbsError)
        << " | " << percent(s.meanAbsError) << " | " << formatBytes(s.worst.bytes)
        << ", n = " << s.worst.pieces << " (" << percent(s.worst.error(), true) << ") | "
        << percent(report.target(s.which)) << " | " << (s.withinTarget ? "yes" : "**no**")
        << " |\n";
  return out.str();
}

std::string accuracyToMarkdown(const AccuracyReport& report) {
  std::ostringstream out;
  out << "# Transfer model accuracy: " << report.device << "\n\n"
      << "- device: " << report.device << ", PCIe " << report.pcie << ", driver " << report.driver
      << "\n- date: " << report.date << "\n- profile: " << report.profileName
      << "\n- model (paper 001 §V): t = L+o + k·G + g·(n−1); bidirectional.*: this direction "
         "while the other copies more, started together, with the bidirectional G and g\n"
      << "- error = (predicted − measured) / measured, measured = median of the repeats; "
         "targets: "
      << percent(report.oneWayTarget) << " one way, " << percent(report.bidirectionalTarget)
      << " bidirectional\n"
      << "- pinned memory, n pieces on n streams, CUDA events; the device is held until all "
         "pieces are issued (as in the calibration)\n";
  for (const std::string& note : report.notes)
    out << "- note: " << note << "\n";
  out << "\n" << accuracySummaryMarkdown(report);
  return out.str();
}

std::string accuracyToJson(const AccuracyReport& report) {
  using nlohmann::ordered_json;
  ordered_json out = {
      {"schema", "overlap.transfer-model-accuracy"},
      {"schema_version", 5},
      {"device", report.device},
      {"pcie", report.pcie},
      {"driver", report.driver},
      {"date", report.date},
      {"profile", report.profileName},
      {"model", "L+o + k*G + g*(n-1); G and g bidirectional when both directions run"},
      {"targets",
       {{"one_way", report.oneWayTarget}, {"bidirectional", report.bidirectionalTarget}}},
      {"notes", report.notes},
      {"meets_targets", meetsTargets(report)},
      {"rows", ordered_json::array()}};
  for (const AccuracyRow& row : report.rows) {
    const SampleStats& m = row.measured;
    out["rows"].push_back({{"case", caseName(row.which)},
                           {"bytes", row.bytes},
                           {"pieces", row.pieces},
                           {"predicted_s", row.predictedS},
                           {"measured",
                            {{"median_s", m.median},
                             {"min_s", m.min},
                             {"max_s", m.max},
                             {"q1_s", m.q1},
                             {"q3_s", m.q3},
                             {"repeats", m.count}}},
                           {"error", row.error()}});
  }
  return out.dump(1) + "\n";
}

} // namespace overlap::calibration
