#include "AccuracyTable.h"

#include "MinimaxFit.h"
#include "TwoRateLink.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

namespace overlap::calibration {

namespace {

constexpr AccuracyCase kCases[] = {AccuracyCase::HostToDevice,
                                   AccuracyCase::DeviceToHost,
                                   AccuracyCase::BidirectionalHostToDevice,
                                   AccuracyCase::BidirectionalDeviceToHost,
                                   AccuracyCase::SimultaneousHostToDevice,
                                   AccuracyCase::SimultaneousDeviceToHost};

std::string formatBytes(double bytes) {
  char text[32];
  if (bytes >= 1024.0 * 1024 * 1024 && std::fmod(bytes, 1024.0 * 1024 * 1024) == 0)
    std::snprintf(text, sizeof(text), "%.0f GiB", bytes / (1024.0 * 1024 * 1024));
  else if (bytes >= 1024.0 * 1024)
    std::snprintf(text, sizeof(text), "%g MiB", bytes / (1024.0 * 1024));
  else
    std::snprintf(text, sizeof(text), "%.0f B", bytes);
  return text;
}

std::string percent(double fraction) {
  char text[32];
  std::snprintf(text, sizeof(text), "%+.2f %%", 100 * fraction);
  return text;
}

std::string milliseconds(double seconds) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.4g", seconds * 1e3);
  return text;
}

// Rows of one case as a size x piece-count grid.
struct Grid {
  std::vector<double> sizes;
  std::vector<int> pieces;
  std::map<std::pair<double, int>, const AccuracyRow*> cells;
};

Grid gridOf(const AccuracyReport& report, AccuracyCase which) {
  Grid grid;
  std::set<double> sizes;
  std::set<int> pieces;
  for (const AccuracyRow& row : report.rows) {
    if (row.which != which)
      continue;
    sizes.insert(row.bytes);
    pieces.insert(row.pieces);
    grid.cells[{row.bytes, row.pieces}] = &row;
  }
  grid.sizes.assign(sizes.begin(), sizes.end());
  grid.pieces.assign(pieces.begin(), pieces.end());
  return grid;
}

void gridTable(std::ostringstream& out, const Grid& grid,
               std::string (*cell)(const AccuracyRow& row)) {
  out << "| size \\ n |";
  for (int n : grid.pieces)
    out << " " << n << " |";
  out << "\n|---|";
  for (std::size_t i = 0; i < grid.pieces.size(); ++i)
    out << "---:|";
  out << "\n";
  for (double size : grid.sizes) {
    out << "| " << formatBytes(size) << " |";
    for (int n : grid.pieces) {
      auto it = grid.cells.find({size, n});
      out << " " << (it == grid.cells.end() ? std::string("") : cell(*it->second)) << " |";
    }
    out << "\n";
  }
}

// Marks the cells outside g's domain of validity.
std::string outsideMark(const AccuracyRow& row) {
  return row.outsideDomain ? " †" : "";
}

std::string measuredPredictedError(const AccuracyRow& row) {
  if (row.split())
    return milliseconds(row.fastMode.median) + " / " + milliseconds(row.predictedS) + " (" +
           percent(row.judgedError()) + "; slow " + std::to_string(row.slowMode.count) + "/" +
           std::to_string(row.measured.count) + ": " + milliseconds(row.slowMode.median) + " / " +
           milliseconds(row.predictedSlowS) + ", " + percent(row.slowModeError()) + ")" +
           outsideMark(row);
  return milliseconds(row.measured.median) + " / " + milliseconds(row.predictedS) + " (" +
         percent(row.error()) + ")" + outsideMark(row);
}

std::string ungatedError(const AccuracyRow& row) {
  return row.ungated.count > 0 ? percent(row.ungatedError()) + outsideMark(row) : std::string("");
}

nlohmann::ordered_json statsJson(const SampleStats& s) {
  return nlohmann::ordered_json{{"median_s", s.median}, {"min_s", s.min}, {"max_s", s.max},
                                {"q1_s", s.q1},         {"q3_s", s.q3},   {"repeats", s.count}};
}

} // namespace

const char* caseName(AccuracyCase which) {
  switch (which) {
  case AccuracyCase::HostToDevice:
    return "host_to_device";
  case AccuracyCase::DeviceToHost:
    return "device_to_host";
  case AccuracyCase::BidirectionalHostToDevice:
    return "bidirectional.host_to_device";
  case AccuracyCase::BidirectionalDeviceToHost:
    return "bidirectional.device_to_host";
  case AccuracyCase::SimultaneousHostToDevice:
    return "simultaneous.host_to_device";
  case AccuracyCase::SimultaneousDeviceToHost:
    return "simultaneous.device_to_host";
  }
  return "unknown";
}

bool isBidirectional(AccuracyCase which) {
  return which != AccuracyCase::HostToDevice && which != AccuracyCase::DeviceToHost;
}

namespace {

bool isSimultaneous(AccuracyCase which) {
  return which == AccuracyCase::SimultaneousHostToDevice ||
         which == AccuracyCase::SimultaneousDeviceToHost;
}

// The g a transfer of this case pays per extra piece, and the smallest piece it holds for.
struct GapOfCase {
  double gapS = 0;
  double minPieceBytes = 0;
};

GapOfCase gapOfCase(const LinkDirection& link, AccuracyCase which) {
  if (isSimultaneous(which) && link.simultaneousGapS > 0)
    return {link.simultaneousGapS, link.simultaneousGapMinPieceBytes};
  if (isBidirectional(which) && link.bidirectionalGapS > 0)
    return {link.bidirectionalGapS, link.bidirectionalGapMinPieceBytes};
  return {link.gapS, link.gapMinPieceBytes};
}

} // namespace

double predictTransferSeconds(const LinkDirection& link, double bytes, int pieces,
                              AccuracyCase which) {
  // The busy link's G of the pieces cut: on the H100 pieces of 128 MiB and more ran slower.
  const double perByte = isBidirectional(which) && link.bidirectionalSecondsPerByte > 0
                             ? link.bidirectionalSecondsPerByteFor(bytes / pieces)
                             : link.secondsPerByte;
  return link.latencyS + bytes * perByte + gapOfCase(link, which).gapS * (pieces - 1);
}

bool outsideGapDomain(const LinkDirection& link, double bytes, int pieces, AccuracyCase which) {
  return pieces > 1 && bytes / pieces < gapOfCase(link, which).minPieceBytes;
}

void splitByMode(const LinkDirection& link, const std::vector<double>& gatedSeconds,
                 AccuracyRow* row) {
  if (!isBidirectional(row->which) || link.bidirectionalSlowSecondsPerByte <= 0)
    return;
  row->predictedSlowS =
      row->predictedS +
      row->bytes * (link.bidirectionalSlowSecondsPerByte -
                    link.bidirectionalSecondsPerByteFor(row->bytes / row->pieces));
  std::vector<double> durations;
  for (double t : gatedSeconds)
    durations.push_back(std::max(t - link.latencyS, 0.0));
  const RepeatSplit split = splitRepeats(durations);
  if (!split.twoRates)
    return;
  std::vector<double> fast;
  std::vector<double> slow;
  for (int f : split.fast)
    fast.push_back(gatedSeconds[f]);
  for (int s : split.slow)
    slow.push_back(gatedSeconds[s]);
  row->fastMode = summarize(fast);
  row->slowMode = summarize(slow);
}

namespace {

// CaseSummary::form_floor: fitted as the calibration fits the profile (minimax, L+o fixed), with
// the profile's large-piece boundary where it prices the case's pieces by size.
double formFloor(const LinkDirection& link, AccuracyCase which,
                 const std::vector<TransferTime>& points) {
  MinimaxTransferFit fit;
  const double largePieceMinBytes =
      isBidirectional(which) && link.bidirectionalLargePieceSecondsPerByte > 0
          ? link.bidirectionalLargePieceMinBytes
          : 0;
  // With every piece on one side of the boundary the split fit refuses (a class is empty) and
  // one G is the same model.
  const bool fitted = fitTransferMinimax(points, link.latencyS, largePieceMinBytes, &fit) ||
                      (largePieceMinBytes > 0 && fitTransferMinimax(points, link.latencyS, &fit));
  return fitted ? fit.maxRelativeResidual : -1;
}

const LinkDirection* linkOf(const AccuracyReport& report, AccuracyCase which) {
  const bool toDevice = which == AccuracyCase::HostToDevice ||
                        which == AccuracyCase::BidirectionalHostToDevice ||
                        which == AccuracyCase::SimultaneousHostToDevice;
  const std::optional<LinkDirection>& link = toDevice ? report.hostToDevice : report.deviceToHost;
  return link ? &*link : nullptr;
}

} // namespace

std::vector<CaseSummary> summarizeCases(const AccuracyReport& report) {
  std::vector<CaseSummary> summaries;
  for (AccuracyCase which : kCases) {
    CaseSummary s;
    s.which = which;
    double sum = 0;
    int repeats = 0;
    int slowRepeats = 0;
    std::vector<TransferTime> judged;
    for (const AccuracyRow& row : report.rows) {
      if (row.which != which)
        continue;
      const double error = row.judgedError();
      if (row.outsideDomain) {
        ++s.outsidePoints;
        s.outsideMaxAbsError = std::max(s.outsideMaxAbsError, std::fabs(error));
        continue;
      }
      ++s.points;
      judged.push_back({row.bytes, static_cast<double>(row.pieces),
                        row.split() ? row.fastMode.median : row.measured.median});
      sum += std::fabs(error);
      repeats += row.measured.count;
      if (row.split()) {
        ++s.splitPoints;
        slowRepeats += row.slowMode.count;
        s.slowModeMaxAbsError = std::max(s.slowModeMaxAbsError, std::fabs(row.slowModeError()));
      }
      if (std::fabs(error) >= s.maxAbsError) {
        s.maxAbsError = std::fabs(error);
        s.worstError = error;
        s.worstBytes = row.bytes;
        s.worstPieces = row.pieces;
      }
      if (row.ungated.count > 0) {
        ++s.ungatedPoints;
        s.ungatedMaxAbsError = std::max(s.ungatedMaxAbsError, std::fabs(row.ungatedError()));
      }
    }
    if (s.points == 0)
      continue;
    s.meanAbsError = sum / s.points;
    s.slowShare = repeats > 0 ? static_cast<double>(slowRepeats) / repeats : 0;
    s.withinTarget = s.maxAbsError <= report.target(which);
    if (const LinkDirection* link = linkOf(report, which))
      s.formFloor = formFloor(*link, which, judged);
    summaries.push_back(s);
  }
  return summaries;
}

bool meetsTargets(const AccuracyReport& report) {
  const std::vector<CaseSummary> summaries = summarizeCases(report);
  return !summaries.empty() && std::all_of(summaries.begin(), summaries.end(),
                                           [](const CaseSummary& s) { return s.withinTarget; });
}

std::string accuracyToMarkdown(const AccuracyReport& report) {
  std::ostringstream out;
  out << "# Transfer model accuracy: " << report.device << "\n\n"
      << "- device: " << report.device << ", PCIe " << report.pcie << ", driver " << report.driver
      << "\n- date: " << report.date << "\n- profile: " << report.profileName
      << "\n- model (paper 001 §V): t = L+o + k·G + g·(n−1); with both directions at once G is "
         "the bidirectional G (paper 001 Table II)\n"
      << "- error = (predicted − measured) / measured, measured = median of the repeats; "
         "targets: "
      << percent(report.oneWayTarget).substr(1) << " one way, "
      << percent(report.bidirectionalTarget).substr(1) << " bidirectional\n"
      << "- measured with pinned memory, n pieces on n streams, CUDA events; the device is held "
         "until all pieces are issued (as in the calibration). \"ungated\" repeats the "
         "measurement with the device starting as soon as the first piece arrives, which adds "
         "the host's issue rate\n"
      << "- two rates: where the profile knows a slow bidirectional rate and a point's repeats "
         "ran at two rates, the point is judged on its fast repeats against the profile's (fast "
         "mode) G; the slow repeats are shown against the slow rate and not judged\n"
      << "- bidirectional.*: this direction while the other direction copies more (twice the "
         "bytes and more), started together, so the link is busy both ways throughout: what "
         "Table II's G describes. simultaneous.*: both directions the same size and number of "
         "pieces, started together, each timed to its own end; the one ending later runs "
         "alone for a while, which the model does not describe\n\n";

  for (const std::string& note : report.notes)
    out << "- note: " << note << "\n";
  if (!report.notes.empty())
    out << "\n";
  out << "## Summary\n\n| case | points | max abs error | mean abs error | worst point | target | "
         "met | outside g's domain (†): points, max abs error | ungated max abs error | "
         "two rates: points split, slow repeats, slow-mode max abs error | form's floor (‡) |\n"
         "|---|---:|---:|---:|---|---:|---|---:|---:|---:|---:|\n";
  for (const CaseSummary& s : summarizeCases(report)) {
    out << "| " << caseName(s.which) << " | " << s.points << " | "
        << percent(s.maxAbsError).substr(1) << " | " << percent(s.meanAbsError).substr(1) << " | "
        << formatBytes(s.worstBytes) << ", n = " << s.worstPieces << " (" << percent(s.worstError)
        << ") | " << percent(report.target(s.which)).substr(1) << " | "
        << (s.withinTarget ? "yes" : "**no**") << " | "
        << (s.outsidePoints > 0
                ? std::to_string(s.outsidePoints) + ", " + percent(s.outsideMaxAbsError).substr(1)
                : std::string("-"))
        << " | "
        << (s.ungatedPoints > 0 ? percent(s.ungatedMaxAbsError).substr(1) : std::string("-"))
        << " | "
        << (s.splitPoints > 0
                ? std::to_string(s.splitPoints) + ", " + percent(s.slowShare).substr(1) + ", " +
                      percent(s.slowModeMaxAbsError).substr(1)
                : std::string("-"))
        << " | " << (s.formFloor >= 0 ? percent(s.formFloor).substr(1) : std::string("-"))
        << " |\n";
  }
  out << "\n‡ the largest error of the form with the G and g fitted to these medians themselves "
         "(the profile's L+o and large-piece boundary kept): what the best possible calibration "
         "would reach on them. Above the target: the times do not follow the form; far below "
         "the case's error: the calibration saw another state of the link than the check.\n";
  for (AccuracyCase which : kCases) {
    const Grid grid = gridOf(report, which);
    if (grid.sizes.empty())
      continue;
    out << "\n## " << caseName(which) << ": measured / predicted ms (error)\n\n";
    gridTable(out, grid, measuredPredictedError);
    bool anyUngated = false;
    for (const auto& cell : grid.cells)
      anyUngated = anyUngated || cell.second->ungated.count > 0;
    if (anyUngated) {
      out << "\n### " << caseName(which) << ", ungated: error of the same prediction\n\n";
      gridTable(out, grid, ungatedError);
    }
  }
  return out.str();
}

std::string accuracyToJson(const AccuracyReport& report) {
  nlohmann::ordered_json out;
  out["schema"] = "overlap.transfer-model-accuracy";
  // 2: outside_domain per row, outside_*; 3: the two-rate modes; 4: form_floor per case
  out["schema_version"] = 4;
  out["device"] = report.device;
  out["pcie"] = report.pcie;
  out["driver"] = report.driver;
  out["date"] = report.date;
  out["profile"] = report.profileName;
  out["model"] = "L+o + k*G + g*(n-1); G and g bidirectional when both directions run";
  out["targets"] = {{"one_way", report.oneWayTarget},
                    {"bidirectional", report.bidirectionalTarget}};
  nlohmann::ordered_json summary = nlohmann::ordered_json::array();
  for (const CaseSummary& s : summarizeCases(report))
    summary.push_back({{"case", caseName(s.which)},
                       {"points", s.points},
                       {"max_abs_error", s.maxAbsError},
                       {"mean_abs_error", s.meanAbsError},
                       {"worst_bytes", s.worstBytes},
                       {"worst_pieces", s.worstPieces},
                       {"worst_error", s.worstError},
                       {"within_target", s.withinTarget},
                       {"outside_domain_points", s.outsidePoints},
                       {"outside_domain_max_abs_error", s.outsideMaxAbsError},
                       {"split_points", s.splitPoints},
                       {"slow_share", s.slowShare},
                       {"slow_mode_max_abs_error", s.slowModeMaxAbsError},
                       {"ungated_max_abs_error", s.ungatedPoints > 0
                                                     ? nlohmann::ordered_json(s.ungatedMaxAbsError)
                                                     : nlohmann::ordered_json(nullptr)},
                       {"form_floor", s.formFloor >= 0 ? nlohmann::ordered_json(s.formFloor)
                                                       : nlohmann::ordered_json(nullptr)}});
  out["notes"] = report.notes;
  out["summary"] = summary;
  out["meets_targets"] = meetsTargets(report);
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const AccuracyRow& row : report.rows) {
    nlohmann::ordered_json r{{"case", caseName(row.which)},
                             {"bytes", row.bytes},
                             {"pieces", row.pieces},
                             {"predicted_s", row.predictedS},
                             {"measured", statsJson(row.measured)},
                             {"error", row.error()},
                             {"outside_domain", row.outsideDomain}};
    if (row.split()) {
      r["fast_mode"] = statsJson(row.fastMode);
      r["fast_mode_error"] = row.judgedError();
      r["slow_mode"] = statsJson(row.slowMode);
      r["predicted_slow_s"] = row.predictedSlowS;
      r["slow_mode_error"] = row.slowModeError();
    }
    if (row.ungated.count > 0) {
      r["ungated"] = statsJson(row.ungated);
      r["ungated_error"] = row.ungatedError();
    }
    rows.push_back(r);
  }
  out["rows"] = rows;
  return out.dump(1) + "\n";
}

} // namespace overlap::calibration
