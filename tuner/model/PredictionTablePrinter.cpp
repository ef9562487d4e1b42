#include "model/PredictionTablePrinter.h"

#include "model/PipelineSimulator.h"

#include <cmath>
#include <cstdio>
#include <string>

namespace overlap::model {

namespace {

std::string printfString(const char* format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

std::string milliseconds(double seconds) {
  return printfString("%.3f", seconds * 1e3);
}

// Characters, not bytes: the sources' "§" is two bytes of UTF-8.
std::size_t displayWidth(const std::string& text) {
  std::size_t width = 0;
  for (const char c : text)
    width += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return width;
}

std::string pad(const std::string& text, std::size_t width, bool rightAlign) {
  const std::size_t textWidth = displayWidth(text);
  if (textWidth >= width)
    return text;
  const std::string fill(width - textWidth, ' ');
  return rightAlign ? fill + text : text + fill;
}

void printHeader(std::ostream& out, const PredictionReport& report) {
  const HardwareProfile& profile = *report.profile;
  const Workload& workload = *report.workload;
  out << "model:    " << report.modelName << "\n";
  out << "profile:  " << profile.name;
  if (!profile.deviceName.empty())
    out << " (" << profile.deviceName << (profile.pcie.empty() ? "" : ", " + profile.pcie) << ")";
  if (!report.profileOrigin.empty())
    out << " from " << report.profileOrigin;
  out << "\n";
  out << "device:   " << describeCategory(profile) << "\n";
  out << "workload: P = "
      << (workload.partition.extent > 0 ? std::to_string(workload.partition.extent) : "unknown")
      << ", H2D " << formatBytes(workload.transfers.h2dBytes) << " + broadcast "
      << formatBytes(workload.transfers.broadcastBytes) << ", D2H "
      << formatBytes(workload.transfers.d2hBytes) << ", t_E "
      << milliseconds(workload.launch.kernelSeconds) << " ms\n";
  if (workload.deviceMemory.budgetBytes > 0)
    out << "device:   " << formatBytes(workload.deviceMemory.fullBytes)
        << " of full-size buffers, budget " << formatBytes(workload.deviceMemory.budgetBytes)
        << (runsOutOfCore(workload, Variant::Streams) ? ": out of core" : "") << "\n";
  for (const std::string& assumption : report.prediction->assumptions)
    out << "assumed:  " << assumption << "\n";
  for (const std::string& excluded : report.prediction->excluded)
    out << "excluded: " << excluded << "\n";
  out << "\n";
}

void printRows(std::ostream& out, const Prediction& prediction, const Workload& workload) {
  // 0 where there is none (a predicted time is positive); plain doubles, not optionals, which
  // GCC 13 takes for uninitialized in the branches below (-Wmaybe-uninitialized).
  const double explicitSeconds =
      prediction.explicitRow ? prediction.rows[*prediction.explicitRow].seconds.value_or(0) : 0;
  const double bestSeconds =
      prediction.best ? prediction.rows[*prediction.best].seconds.value_or(0) : 0;

  // A column for the way of handling pageable arrays where some candidate has one of its own.
  bool modes = false;
  for (const PredictedCandidate& row : prediction.rows)
    modes |= row.candidate.pageable != PageableMode::Default;
  out << pad("variant", 9, false) << pad("streams", 8, true) << pad("chunks", 8, true) << "  "
      << pad("order", 14, false) << (modes ? pad("pageable arrays", 21, false) : std::string())
      << pad("predicted ms", 13, true) << pad("vs best", 10, true) << pad("speed-up", 10, true)
      << "  run by the tuner\n";
  for (std::size_t i = 0; i < prediction.rows.size(); ++i) {
    const PredictedCandidate& row = prediction.rows[i];
    const Candidate& candidate = row.candidate;
    const bool streamed =
        candidate.variant == Variant::Streams || candidate.variant == Variant::Hybrid;
    out << pad(to_string(candidate.variant), 9, false)
        << pad(streamed ? std::to_string(candidate.streams) : "-", 8, true)
        // What it runs: one per stream resolves to ceil(P / G) or, out of core, to the ring's.
        << pad(streamed ? std::to_string(chunkCount(workload, candidate)) : "-", 8, true) << "  "
        << pad(streamed ? to_string(candidate.order) : "-", 14, false);
    if (modes)
      out << pad(candidate.variant == Variant::Explicit ? "-" : to_string(candidate.pageable), 21,
                 false);
    if (row.seconds) {
      out << pad(milliseconds(*row.seconds), 13, true);
      out << pad(bestSeconds > 0 ? printfString("%+.1f%%", (*row.seconds / bestSeconds - 1) * 100)
                                 : "",
                 10, true);
      out << pad(explicitSeconds > 0 ? printfString("%.2fx", explicitSeconds / *row.seconds) : "",
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

void printSummary(std::ostream& out, const PredictionReport& report) {
  const Prediction& prediction = *report.prediction;
  out << "\n";
  if (prediction.best) {
    const PredictedCandidate& best = prediction.rows[*prediction.best];
    out << "predicted optimum: " << describe(best.candidate) << ", " << milliseconds(*best.seconds)
        << " ms";
    if (prediction.explicitRow && prediction.rows[*prediction.explicitRow].seconds)
      out << printfString(" (%.2fx over Explicit)",
                          *prediction.rows[*prediction.explicitRow].seconds / *best.seconds);
    out << "\n";
  } else {
    out << "predicted optimum: none (the model predicts no candidate)\n";
  }
  std::size_t kept = 0;
  for (const PredictedCandidate& row : prediction.rows)
    kept += row.kept ? 1 : 0;
  out << "pruned set: " << kept << " of " << prediction.rows.size()
      << " candidates run by the tuner (within "
      << printfString("%.1f%%", prediction.tolerance * 100) << " of the predicted best and "
      << printfString("%.1f%%", prediction.streamTolerance * 100)
      << " of their variant's best; Explicit always, as the reference)\n";
  if (!report.estimates.empty()) {
    out << "\npapers' stream-count estimates (closed forms; no fill penalty, their categories):\n";
    for (const StreamCountEstimate& estimate : report.estimates)
      out << "  " << pad(estimate.source, 62, false) << " "
          << (std::isfinite(estimate.streams) ? printfString("%.1f", estimate.streams)
                                              : std::string("unbounded"))
          << "\n";
  }
}

} // namespace

std::string describeCategory(const HardwareProfile& profile) {
  std::string text = std::to_string(profile.copyEngines) +
                     (profile.copyEngines == 1 ? " copy engine, " : " copy engines, ");
  text +=
      profile.implicitSynchronization ? "implicit synchronization" : "no implicit synchronization";
  text += hasHyperQ(profile) ? ", Hyper-Q" : ", no Hyper-Q";
  if (profile.computeCapabilityMajor > 0)
    text += " (compute capability " + std::to_string(profile.computeCapabilityMajor) + "." +
            std::to_string(profile.computeCapabilityMinor) + ")";
  return text;
}

void printPredictionReport(std::ostream& out, const PredictionReport& report) {
  printHeader(out, report);
  printRows(out, *report.prediction, *report.workload);
  printSummary(out, report);
}

} // namespace overlap::model
