#include "accuracy_table.h"

#include "minimax_fit.h"
#include "two_rate_link.h"

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

std::string format_bytes(double bytes) {
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

Grid grid_of(const AccuracyReport& report, AccuracyCase which) {
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

void grid_table(std::ostringstream& out, const Grid& grid,
                std::string (*cell)(const AccuracyRow& row)) {
  out << "| size \\ n |";
  for (int n : grid.pieces)
    out << " " << n << " |";
  out << "\n|---|";
  for (std::size_t i = 0; i < grid.pieces.size(); ++i)
    out << "---:|";
  out << "\n";
  for (double size : grid.sizes) {
    out << "| " << format_bytes(size) << " |";
    for (int n : grid.pieces) {
      auto it = grid.cells.find({size, n});
      out << " " << (it == grid.cells.end() ? std::string("") : cell(*it->second)) << " |";
    }
    out << "\n";
  }
}

// Marks the cells outside g's domain of validity.
std::string outside_mark(const AccuracyRow& row) {
  return row.outside_domain ? " †" : "";
}

std::string measured_predicted_error(const AccuracyRow& row) {
  if (row.split())
    return milliseconds(row.fast_mode.median) + " / " + milliseconds(row.predicted_s) + " (" +
           percent(row.judged_error()) + "; slow " + std::to_string(row.slow_mode.count) + "/" +
           std::to_string(row.measured.count) + ": " + milliseconds(row.slow_mode.median) + " / " +
           milliseconds(row.predicted_slow_s) + ", " + percent(row.slow_mode_error()) + ")" +
           outside_mark(row);
  return milliseconds(row.measured.median) + " / " + milliseconds(row.predicted_s) + " (" +
         percent(row.error()) + ")" + outside_mark(row);
}

std::string ungated_error(const AccuracyRow& row) {
  return row.ungated.count > 0 ? percent(row.ungated_error()) + outside_mark(row) : std::string("");
}

nlohmann::ordered_json stats_json(const SampleStats& s) {
  return nlohmann::ordered_json{{"median_s", s.median}, {"min_s", s.min}, {"max_s", s.max},
                                {"q1_s", s.q1},         {"q3_s", s.q3},   {"repeats", s.count}};
}

} // namespace

const char* case_name(AccuracyCase which) {
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

bool is_bidirectional(AccuracyCase which) {
  return which != AccuracyCase::HostToDevice && which != AccuracyCase::DeviceToHost;
}

namespace {

bool is_simultaneous(AccuracyCase which) {
  return which == AccuracyCase::SimultaneousHostToDevice ||
         which == AccuracyCase::SimultaneousDeviceToHost;
}

// The g a transfer of this case pays per extra piece, and the smallest piece it holds for.
struct GapOfCase {
  double gap_s = 0;
  double min_piece_bytes = 0;
};

GapOfCase gap_of_case(const LinkDirection& link, AccuracyCase which) {
  if (is_simultaneous(which) && link.simultaneous_gap_s > 0)
    return {link.simultaneous_gap_s, link.simultaneous_gap_min_piece_bytes};
  if (is_bidirectional(which) && link.bidirectional_gap_s > 0)
    return {link.bidirectional_gap_s, link.bidirectional_gap_min_piece_bytes};
  return {link.gap_s, link.gap_min_piece_bytes};
}

} // namespace

double predict_transfer_seconds(const LinkDirection& link, double bytes, int pieces,
                                AccuracyCase which) {
  // The busy link's G of the pieces cut: on the H100 pieces of 128 MiB and more ran slower.
  const double per_byte = is_bidirectional(which) && link.bidirectional_seconds_per_byte > 0
                              ? link.bidirectional_seconds_per_byte_for(bytes / pieces)
                              : link.seconds_per_byte;
  return link.latency_s + bytes * per_byte + gap_of_case(link, which).gap_s * (pieces - 1);
}

bool outside_gap_domain(const LinkDirection& link, double bytes, int pieces, AccuracyCase which) {
  return pieces > 1 && bytes / pieces < gap_of_case(link, which).min_piece_bytes;
}

void split_by_mode(const LinkDirection& link, const std::vector<double>& gated_seconds,
                   AccuracyRow* row) {
  if (!is_bidirectional(row->which) || link.bidirectional_slow_seconds_per_byte <= 0)
    return;
  row->predicted_slow_s =
      row->predicted_s +
      row->bytes * (link.bidirectional_slow_seconds_per_byte -
                    link.bidirectional_seconds_per_byte_for(row->bytes / row->pieces));
  std::vector<double> durations;
  for (double t : gated_seconds)
    durations.push_back(std::max(t - link.latency_s, 0.0));
  const RepeatSplit split = split_repeats(durations);
  if (!split.two_rates)
    return;
  std::vector<double> fast;
  std::vector<double> slow;
  for (int f : split.fast)
    fast.push_back(gated_seconds[f]);
  for (int s : split.slow)
    slow.push_back(gated_seconds[s]);
  row->fast_mode = summarize(fast);
  row->slow_mode = summarize(slow);
}

namespace {

// CaseSummary::form_floor: fitted as the calibration fits the profile (minimax, L+o fixed), with
// the profile's large-piece boundary where it prices the case's pieces by size.
double form_floor(const LinkDirection& link, AccuracyCase which,
                  const std::vector<TransferTime>& points) {
  MinimaxTransferFit fit;
  const double large_piece_min_bytes =
      is_bidirectional(which) && link.bidirectional_large_piece_seconds_per_byte > 0
          ? link.bidirectional_large_piece_min_bytes
          : 0;
  // With every piece on one side of the boundary the split fit refuses (a class is empty) and
  // one G is the same model.
  const bool fitted =
      fit_transfer_minimax(points, link.latency_s, large_piece_min_bytes, &fit) ||
      (large_piece_min_bytes > 0 && fit_transfer_minimax(points, link.latency_s, &fit));
  return fitted ? fit.max_relative_residual : -1;
}

const LinkDirection* link_of(const AccuracyReport& report, AccuracyCase which) {
  const bool to_device = which == AccuracyCase::HostToDevice ||
                         which == AccuracyCase::BidirectionalHostToDevice ||
                         which == AccuracyCase::SimultaneousHostToDevice;
  const std::optional<LinkDirection>& link =
      to_device ? report.host_to_device : report.device_to_host;
  return link ? &*link : nullptr;
}

} // namespace

std::vector<CaseSummary> summarize_cases(const AccuracyReport& report) {
  std::vector<CaseSummary> summaries;
  for (AccuracyCase which : kCases) {
    CaseSummary s;
    s.which = which;
    double sum = 0;
    int repeats = 0;
    int slow_repeats = 0;
    std::vector<TransferTime> judged;
    for (const AccuracyRow& row : report.rows) {
      if (row.which != which)
        continue;
      const double error = row.judged_error();
      if (row.outside_domain) {
        ++s.outside_points;
        s.outside_max_abs_error = std::max(s.outside_max_abs_error, std::fabs(error));
        continue;
      }
      ++s.points;
      judged.push_back({row.bytes, static_cast<double>(row.pieces),
                        row.split() ? row.fast_mode.median : row.measured.median});
      sum += std::fabs(error);
      repeats += row.measured.count;
      if (row.split()) {
        ++s.split_points;
        slow_repeats += row.slow_mode.count;
        s.slow_mode_max_abs_error =
            std::max(s.slow_mode_max_abs_error, std::fabs(row.slow_mode_error()));
      }
      if (std::fabs(error) >= s.max_abs_error) {
        s.max_abs_error = std::fabs(error);
        s.worst_error = error;
        s.worst_bytes = row.bytes;
        s.worst_pieces = row.pieces;
      }
      if (row.ungated.count > 0) {
        ++s.ungated_points;
        s.ungated_max_abs_error = std::max(s.ungated_max_abs_error, std::fabs(row.ungated_error()));
      }
    }
    if (s.points == 0)
      continue;
    s.mean_abs_error = sum / s.points;
    s.slow_share = repeats > 0 ? static_cast<double>(slow_repeats) / repeats : 0;
    s.within_target = s.max_abs_error <= report.target(which);
    if (const LinkDirection* link = link_of(report, which))
      s.form_floor = form_floor(*link, which, judged);
    summaries.push_back(s);
  }
  return summaries;
}

bool meets_targets(const AccuracyReport& report) {
  const std::vector<CaseSummary> summaries = summarize_cases(report);
  return !summaries.empty() && std::all_of(summaries.begin(), summaries.end(),
                                           [](const CaseSummary& s) { return s.within_target; });
}

std::string accuracy_to_markdown(const AccuracyReport& report) {
  std::ostringstream out;
  out << "# Transfer model accuracy: " << report.device << "\n\n"
      << "- device: " << report.device << ", PCIe " << report.pcie << ", driver " << report.driver
      << "\n- date: " << report.date << "\n- profile: " << report.profile_name
      << "\n- model (paper 001 §V): t = L+o + k·G + g·(n−1); with both directions at once G is "
         "the bidirectional G (paper 001 Table II)\n"
      << "- error = (predicted − measured) / measured, measured = median of the repeats; "
         "targets: "
      << percent(report.one_way_target).substr(1) << " one way, "
      << percent(report.bidirectional_target).substr(1) << " bidirectional\n"
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
  for (const CaseSummary& s : summarize_cases(report)) {
    out << "| " << case_name(s.which) << " | " << s.points << " | "
        << percent(s.max_abs_error).substr(1) << " | " << percent(s.mean_abs_error).substr(1)
        << " | " << format_bytes(s.worst_bytes) << ", n = " << s.worst_pieces << " ("
        << percent(s.worst_error) << ") | " << percent(report.target(s.which)).substr(1) << " | "
        << (s.within_target ? "yes" : "**no**") << " | "
        << (s.outside_points > 0 ? std::to_string(s.outside_points) + ", " +
                                       percent(s.outside_max_abs_error).substr(1)
                                 : std::string("-"))
        << " | "
        << (s.ungated_points > 0 ? percent(s.ungated_max_abs_error).substr(1) : std::string("-"))
        << " | "
        << (s.split_points > 0
                ? std::to_string(s.split_points) + ", " + percent(s.slow_share).substr(1) + ", " +
                      percent(s.slow_mode_max_abs_error).substr(1)
                : std::string("-"))
        << " | " << (s.form_floor >= 0 ? percent(s.form_floor).substr(1) : std::string("-"))
        << " |\n";
  }
  out << "\n‡ the largest error of the form with the G and g fitted to these medians themselves "
         "(the profile's L+o and large-piece boundary kept): what the best possible calibration "
         "would reach on them. Above the target: the times do not follow the form; far below "
         "the case's error: the calibration saw another state of the link than the check.\n";
  for (AccuracyCase which : kCases) {
    const Grid grid = grid_of(report, which);
    if (grid.sizes.empty())
      continue;
    out << "\n## " << case_name(which) << ": measured / predicted ms (error)\n\n";
    grid_table(out, grid, measured_predicted_error);
    bool any_ungated = false;
    for (const auto& cell : grid.cells)
      any_ungated = any_ungated || cell.second->ungated.count > 0;
    if (any_ungated) {
      out << "\n### " << case_name(which) << ", ungated: error of the same prediction\n\n";
      grid_table(out, grid, ungated_error);
    }
  }
  return out.str();
}

std::string accuracy_to_json(const AccuracyReport& report) {
  nlohmann::ordered_json out;
  out["schema"] = "overlap.transfer-model-accuracy";
  // 2: outside_domain per row, outside_*; 3: the two-rate modes; 4: form_floor per case
  out["schema_version"] = 4;
  out["device"] = report.device;
  out["pcie"] = report.pcie;
  out["driver"] = report.driver;
  out["date"] = report.date;
  out["profile"] = report.profile_name;
  out["model"] = "L+o + k*G + g*(n-1); G and g bidirectional when both directions run";
  out["targets"] = {{"one_way", report.one_way_target},
                    {"bidirectional", report.bidirectional_target}};
  nlohmann::ordered_json summary = nlohmann::ordered_json::array();
  for (const CaseSummary& s : summarize_cases(report))
    summary.push_back({{"case", case_name(s.which)},
                       {"points", s.points},
                       {"max_abs_error", s.max_abs_error},
                       {"mean_abs_error", s.mean_abs_error},
                       {"worst_bytes", s.worst_bytes},
                       {"worst_pieces", s.worst_pieces},
                       {"worst_error", s.worst_error},
                       {"within_target", s.within_target},
                       {"outside_domain_points", s.outside_points},
                       {"outside_domain_max_abs_error", s.outside_max_abs_error},
                       {"split_points", s.split_points},
                       {"slow_share", s.slow_share},
                       {"slow_mode_max_abs_error", s.slow_mode_max_abs_error},
                       {"ungated_max_abs_error",
                        s.ungated_points > 0 ? nlohmann::ordered_json(s.ungated_max_abs_error)
                                             : nlohmann::ordered_json(nullptr)},
                       {"form_floor", s.form_floor >= 0 ? nlohmann::ordered_json(s.form_floor)
                                                        : nlohmann::ordered_json(nullptr)}});
  out["notes"] = report.notes;
  out["summary"] = summary;
  out["meets_targets"] = meets_targets(report);
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const AccuracyRow& row : report.rows) {
    nlohmann::ordered_json r{{"case", case_name(row.which)},
                             {"bytes", row.bytes},
                             {"pieces", row.pieces},
                             {"predicted_s", row.predicted_s},
                             {"measured", stats_json(row.measured)},
                             {"error", row.error()},
                             {"outside_domain", row.outside_domain}};
    if (row.split()) {
      r["fast_mode"] = stats_json(row.fast_mode);
      r["fast_mode_error"] = row.judged_error();
      r["slow_mode"] = stats_json(row.slow_mode);
      r["predicted_slow_s"] = row.predicted_slow_s;
      r["slow_mode_error"] = row.slow_mode_error();
    }
    if (row.ungated.count > 0) {
      r["ungated"] = stats_json(row.ungated);
      r["ungated_error"] = row.ungated_error();
    }
    rows.push_back(r);
  }
  out["rows"] = rows;
  return out.dump(1) + "\n";
}

} // namespace overlap::calibration
