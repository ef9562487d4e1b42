#include "model/prediction_table_printer.h"

#include "model/pipeline_simulator.h"

#include <cmath>
#include <cstdio>
#include <string>

namespace overlap::model {

namespace {

std::string printf_string(const char* format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

std::string milliseconds(double seconds) {
  return printf_string("%.3f", seconds * 1e3);
}

// Characters, not bytes: the sources' "§" is two bytes of UTF-8.
std::size_t display_width(const std::string& text) {
  std::size_t width = 0;
  for (const char c : text)
    width += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return width;
}

std::string pad(const std::string& text, std::size_t width, bool right_align) {
  const std::size_t text_width = display_width(text);
  if (text_width >= width)
    return text;
  const std::string fill(width - text_width, ' ');
  return right_align ? fill + text : text + fill;
}

void print_header(std::ostream& out, const PredictionReport& report) {
  const HardwareProfile& profile = *report.profile;
  const Workload& workload = *report.workload;
  out << "model:    " << report.model_name << "\n";
  out << "profile:  " << profile.name;
  if (!profile.device_name.empty())
    out << " (" << profile.device_name << (profile.pcie.empty() ? "" : ", " + profile.pcie) << ")";
  if (!report.profile_origin.empty())
    out << " from " << report.profile_origin;
  out << "\n";
  out << "device:   " << describe_category(profile) << "\n";
  out << "workload: P = "
      << (workload.partition_extent > 0 ? std::to_string(workload.partition_extent) : "unknown")
      << ", H2D " << format_bytes(workload.h2d_bytes) << " + broadcast "
      << format_bytes(workload.broadcast_bytes) << ", D2H " << format_bytes(workload.d2h_bytes)
      << ", t_E " << milliseconds(workload.kernel_seconds) << " ms\n";
  for (const std::string& assumption : report.prediction->assumptions)
    out << "assumed:  " << assumption << "\n";
  out << "\n";
}

void print_rows(std::ostream& out, const Prediction& prediction) {
  // 0 where there is none (a predicted time is positive); plain doubles, not optionals, which
  // GCC 13 takes for uninitialized in the branches below (-Wmaybe-uninitialized).
  const double explicit_seconds =
      prediction.explicit_row ? prediction.rows[*prediction.explicit_row].seconds.value_or(0) : 0;
  const double best_seconds =
      prediction.best ? prediction.rows[*prediction.best].seconds.value_or(0) : 0;

  // A column for the way of handling pageable arrays where some candidate has one of its own.
  bool modes = false;
  for (const PredictedCandidate& row : prediction.rows)
    modes |= row.candidate.pageable != PageableMode::Default;
  out << pad("variant", 9, false) << pad("streams", 8, true) << "  " << pad("order", 14, false)
      << (modes ? pad("pageable arrays", 21, false) : std::string())
      << pad("predicted ms", 13, true) << pad("vs best", 10, true) << pad("speed-up", 10, true)
      << "  run by the tuner\n";
  for (std::size_t i = 0; i < prediction.rows.size(); ++i) {
    const PredictedCandidate& row = prediction.rows[i];
    const Candidate& candidate = row.candidate;
    const bool streamed =
        candidate.variant == Variant::Streams || candidate.variant == Variant::Hybrid;
    out << pad(to_string(candidate.variant), 9, false)
        << pad(streamed ? std::to_string(candidate.streams) : "-", 8, true) << "  "
        << pad(streamed ? to_string(candidate.order) : "-", 14, false);
    if (modes)
      out << pad(candidate.variant == Variant::Explicit ? "-" : to_string(candidate.pageable), 21,
                 false);
    if (row.seconds) {
      out << pad(milliseconds(*row.seconds), 13, true);
      out << pad(
          best_seconds > 0 ? printf_string("%+.1f%%", (*row.seconds / best_seconds - 1) * 100) : "",
          10, true);
      out << pad(explicit_seconds > 0 ? printf_string("%.2fx", explicit_seconds / *row.seconds)
                                      : "",
                 10, true);
    } else {
      out << pad("not modelled", 13, true) << pad("", 10, true) << pad("", 10, true);
    }
    out << "  " << (row.kept ? "yes" : "no");
    if (prediction.best && *prediction.best == i)
      out << "  <- predicted best";
    else if (candidate.variant == Variant::Explicit)
      out << "  (reference)";
    out << "\n";
  }
}

void print_summary(std::ostream& out, const PredictionReport& report) {
  const Prediction& prediction = *report.prediction;
  out << "\n";
  if (prediction.best) {
    const PredictedCandidate& best = prediction.rows[*prediction.best];
    out << "predicted optimum: " << describe(best.candidate) << ", " << milliseconds(*best.seconds)
        << " ms";
    if (prediction.explicit_row && prediction.rows[*prediction.explicit_row].seconds)
      out << printf_string(" (%.2fx over Explicit)",
                           *prediction.rows[*prediction.explicit_row].seconds / *best.seconds);
    out << "\n";
  } else {
    out << "predicted optimum: none (the model predicts no candidate)\n";
  }
  std::size_t kept = 0;
  for (const PredictedCandidate& row : prediction.rows)
    kept += row.kept ? 1 : 0;
  out << "pruned set: " << kept << " of " << prediction.rows.size()
      << " candidates run by the tuner (within "
      << printf_string("%.1f%%", prediction.tolerance * 100) << " of the predicted best and "
      << printf_string("%.1f%%", prediction.stream_tolerance * 100)
      << " of their variant's best; Explicit always, as the reference)\n";
  if (!report.estimates.empty()) {
    out << "\npapers' stream-count estimates (closed forms; no fill penalty, their categories):\n";
    for (const StreamCountEstimate& estimate : report.estimates)
      out << "  " << pad(estimate.source, 62, false) << " "
          << (std::isfinite(estimate.streams) ? printf_string("%.1f", estimate.streams)
                                              : std::string("unbounded"))
          << "\n";
  }
}

} // namespace

std::string format_bytes(double bytes) {
  static const char* const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int unit = 0;
  double value = bytes;
  while (std::abs(value) >= 1024 && unit < 4) {
    value /= 1024;
    ++unit;
  }
  if (unit == 0)
    return printf_string("%.0f", value) + " B";
  return printf_string("%.1f", value) + " " + units[unit];
}

std::string describe_category(const HardwareProfile& profile) {
  std::string text = std::to_string(profile.copy_engines) +
                     (profile.copy_engines == 1 ? " copy engine, " : " copy engines, ");
  text +=
      profile.implicit_synchronization ? "implicit synchronization" : "no implicit synchronization";
  text += has_hyper_q(profile) ? ", Hyper-Q" : ", no Hyper-Q";
  if (profile.compute_capability_major > 0)
    text += " (compute capability " + std::to_string(profile.compute_capability_major) + "." +
            std::to_string(profile.compute_capability_minor) + ")";
  return text;
}

void print_prediction_report(std::ostream& out, const PredictionReport& report) {
  print_header(out, report);
  print_rows(out, *report.prediction);
  print_summary(out, report);
}

} // namespace overlap::model
