#include "CalibrateCommand.h"

#include "AccuracyCheck.h"
#include "Calibrator.h"
#include "LinkBench.h"
#include "ProfileEstimator.h"

#include "overlap/Device.h"
#include "overlap/ProfileCatalog.h"
#include "overlap/ProfileIo.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace overlap::calibration {

namespace {

constexpr int kExitOk = 0;
constexpr int kExitError = 1;
constexpr int kExitRefused = 2;
constexpr int kExitMissedTarget = 3;

bool writeText(const std::string& path, const std::string& text, std::ostream& log) {
  std::error_code error;
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (!parent.empty())
    std::filesystem::create_directories(parent, error);
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file << text;
  file.close();
  if (!file) {
    log << "overlap-calibrate: cannot write " << path << "\n";
    return false;
  }
  return true;
}

bool readText(const std::string& path, std::string* text, std::ostream& log) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    log << "overlap-calibrate: cannot open " << path << "\n";
    return false;
  }
  std::ostringstream content;
  content << file.rdbuf();
  *text = content.str();
  return true;
}

std::string format(const char* pattern, double value) {
  char text[64];
  std::snprintf(text, sizeof(text), pattern, value);
  return text;
}

// Human units for a profile measurement: bandwidth for s/B, microseconds for s.
std::string human(const ProfileMeasurement& m, double value) {
  if (m.unit == "s/B")
    return value > 0 ? format("%.2f GB/s", 1e-9 / value) : format("%.3g s/B", value);
  return format("%.2f us", value * 1e6);
}

void printMeasurements(const ProfileEstimate& estimate, std::ostream& out) {
  out << "\nquantity                                      value          spread of repeats"
         "          R^2      max resid\n";
  for (const ProfileMeasurement& m : estimate.profile.measurements) {
    char line[256];
    std::snprintf(line, sizeof(line), "%-44s  %-13s  %-12s .. %-12s", m.quantity.c_str(),
                  human(m, m.value).c_str(), human(m, m.min).c_str(), human(m, m.max).c_str());
    out << line;
    if (m.rSquared >= 0)
      out << format("  %.6f", m.rSquared) << format("  %.2f %%", 100 * m.maxRelativeResidual);
    out << "\n";
  }
}

// "3.280 us (pieces >= 256 KiB)", or "?" for a gap not known.
std::string describeGap(double gapS, double minPieceBytes) {
  if (gapS <= 0)
    return "?";
  return format("%.3f us", gapS * 1e6) +
         (minPieceBytes > 0 ? format(" (pieces >= %.0f KiB)", minPieceBytes / 1024)
                            : std::string());
}

void printProfileSummary(const HardwareProfile& p, std::ostream& out) {
  auto direction = [&out](const char* name, const LinkDirection& d) {
    out << "  " << name << ": L+o " << format("%.2f us", d.latencyS * 1e6) << ", G "
        << format("%.4g s/B", d.secondsPerByte) << " ("
        << (d.secondsPerByte > 0 ? format("%.2f GB/s", 1e-9 / d.secondsPerByte) : "?") << "), g "
        << describeGap(d.gapS, d.gapMinPieceBytes) << ", bidirectional g "
        << describeGap(d.bidirectionalGapS, d.bidirectionalGapMinPieceBytes) << ", simultaneous g "
        << describeGap(d.simultaneousGapS, d.simultaneousGapMinPieceBytes) << ", bidirectional "
        << (d.bidirectionalSecondsPerByte > 0
                ? format("%.2f GB/s", 1e-9 / d.bidirectionalSecondsPerByte)
                : "?")
        << (d.bidirectionalLargePieceSecondsPerByte > 0
                ? format(" (pieces from %.0f MiB: ",
                         d.bidirectionalLargePieceMinBytes / (1024.0 * 1024.0)) +
                      format("%.2f GB/s)", 1e-9 / d.bidirectionalLargePieceSecondsPerByte)
                : std::string())
        << (d.bidirectionalSlowSecondsPerByte > 0
                ? format(" (fast mode; slow mode %.2f GB/s",
                         1e-9 / d.bidirectionalSlowSecondsPerByte) +
                      format(" in %.0f %% of repeats)", 100 * d.bidirectionalSlowShare)
                : std::string())
        << ", pageable "
        << (d.pageableSecondsPerByte > 0 ? format("%.2f GB/s", 1e-9 / d.pageableSecondsPerByte)
                                         : "?")
        << ", against mapped "
        << (d.withMappedSecondsPerByte > 0 ? format("%.2f GB/s", 1e-9 / d.withMappedSecondsPerByte)
                                           : "?")
        << "\n";
  };
  out << "profile " << p.name << " (" << profileKey(p) << ")\n";
  direction("host_to_device", p.hostToDevice);
  direction("device_to_host", p.deviceToHost);
  out << "  mapped read "
      << (p.mappedReadSecondsPerByte > 0 ? format("%.2f GB/s", 1e-9 / p.mappedReadSecondsPerByte)
                                         : "?")
      << ", mapped write "
      << (p.mappedWriteSecondsPerByte > 0 ? format("%.2f GB/s", 1e-9 / p.mappedWriteSecondsPerByte)
                                          : "?")
      << ", mapped both ways "
      << (p.mappedBothWaysSecondsPerByte > 0
              ? format("%.2f GB/s each way", 1e-9 / p.mappedBothWaysSecondsPerByte)
              : "?")
      << "\n";
  if (!p.mappedByWidth.empty()) {
    out << "  mapped by element width (read / write):";
    for (const MappedWidthCost& w : p.mappedByWidth)
      out << " " << w.elementBytes << " B "
          << (w.readSecondsPerByte > 0 ? format("%.2f", 1e-9 / w.readSecondsPerByte) : "?") << " / "
          << (w.writeSecondsPerByte > 0 ? format("%.2f", 1e-9 / w.writeSecondsPerByte) : "?")
          << " GB/s;";
    out << "\n";
  }
  out << "  kernel launch " << format("%.2f us", p.kernelLaunchS * 1e6) << ", stream sync "
      << format("%.2f us", p.streamSyncS * 1e6) << ", t_sc "
      << format("%.2f us", p.streamOverheadS * 1e6) << ", copy call "
      << (p.copyCallS > 0 ? format("%.2f us", p.copyCallS * 1e6) : std::string("?")) << "\n";
  if (p.hostCopySecondsPerByte > 0)
    out << "  host copies (staging): " << format("%.2f", 1e-9 / p.hostCopySecondsPerByte)
        << " GB/s on one thread, " << format("%.2f", 1e-9 / p.hostCopyParallelSecondsPerByte)
        << " GB/s on " << p.hostCopyThreads << "\n";
}

void printAccuracySummary(const AccuracyReport& report, std::ostream& out) {
  out << "\naccuracy of L+o + kG + g(n-1) (error = (predicted - measured) / measured):\n";
  for (const CaseSummary& s : summarizeCases(report)) {
    char line[256];
    std::snprintf(line, sizeof(line),
                  "  %-30s %3d points  max |error| %6.2f %%  mean %5.2f %%  target %.0f %%  %s",
                  caseName(s.which), s.points, 100 * s.maxAbsError, 100 * s.meanAbsError,
                  100 * report.target(s.which), s.withinTarget ? "met" : "MISSED");
    out << line;
    if (s.outsidePoints > 0)
      out << "  (+" << s.outsidePoints << " outside g's domain, max |error| "
          << format("%.2f %%)", 100 * s.outsideMaxAbsError);
    if (s.ungatedPoints > 0)
      out << format("  (ungated max |error| %.2f %%)", 100 * s.ungatedMaxAbsError);
    if (s.splitPoints > 0)
      out << "  (" << s.splitPoints << " points ran at two rates, judged on the fast repeats; "
          << format("%.0f %% of repeats slow, ", 100 * s.slowShare)
          << format("slow-mode max |error| %.2f %%)", 100 * s.slowModeMaxAbsError);
    if (s.formFloor >= 0)
      out << format("  (form's floor %.2f %%)", 100 * s.formFloor);
    out << "\n";
  }
}

// Writes the profile unless a fit is poor and --force is absent. Returns an exit code.
int finishProfile(const CalibrateOptions& options, ProfileEstimate& estimate, std::ostream& out,
                  std::ostream& log) {
  HardwareProfile& profile = estimate.profile;
  profile.name =
      !options.name.empty() ? options.name : defaultProfileName(profile.deviceName, profile.pcie);
  printMeasurements(estimate, out);
  out << "\n";
  printProfileSummary(profile, out);
  for (const std::string& notice : estimate.notices)
    out << notice << "\n";
  if (!estimate.acceptable()) {
    log << "\noverlap-calibrate: " << estimate.problems.size() << " fit(s) are poor:\n";
    for (const std::string& problem : estimate.problems)
      log << "  - " << problem << "\n";
    if (!options.force) {
      log << "no profile written (rerun on an idle machine, or use --force to write it anyway)\n";
      return kExitRefused;
    }
    profile.notes += " WRITTEN WITH --force DESPITE POOR FITS:";
    for (const std::string& problem : estimate.problems)
      profile.notes += " [" + problem + "]";
  }
  std::string path = options.output;
  if (path.empty()) {
    const std::vector<std::string> directories = userProfileDirectories();
    if (directories.empty()) {
      log << "overlap-calibrate: no user profile directory (set OVERLAP_PROFILE_PATH or HOME) "
             "and no --output\n";
      return kExitError;
    }
    path = directories.front() + "/" + profile.name + ".json";
  }
  std::error_code error;
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (!parent.empty())
    std::filesystem::create_directories(parent, error);
  const ProfileError written = writeProfileFile(path, profile);
  if (!written.ok()) {
    log << "overlap-calibrate: " << written.message() << "\n";
    return kExitError;
  }
  out << "profile written to " << path << "\n";
  return kExitOk;
}

int reportStatus(const Status& status, std::ostream& log) {
  log << "overlap-calibrate: " << status.message() << "\n";
  return kExitError;
}

int listProfilesCommand(std::ostream& out, std::ostream& log) {
  const ProfileListing listing = listProfiles();
  for (const ProfileError& skipped : listing.skipped)
    log << "skipped " << skipped.message() << "\n";
  for (const CatalogEntry& entry : listing.entries)
    out << entry.profile.name << "\n  " << profileKey(entry.profile)
        << "\n  source: " << entry.profile.source << "\n  from: " << entry.origin << "\n";
  return kExitOk;
}

int accuracyAfter(LinkBench& bench, const CalibrateOptions& options, const HardwareProfile& profile,
                  const DeviceDescription& device, const Progress& progress, std::ostream& out,
                  std::ostream& log) {
  AccuracyPlan plan = options.quick ? AccuracyPlan::quick() : AccuracyPlan::standard();
  plan.ungated = options.ungated;
  if (options.repeats > 0)
    plan.repeats = options.repeats;
  AccuracyReport report;
  report.device = device.name;
  report.pcie = device.pcie.describe();
  report.driver = device.driverVersion;
  report.date = todayUtc();
  report.profileName = profile.name;
  const Status status = checkAccuracy(bench, profile, plan, progress, &report);
  if (!status.ok())
    return reportStatus(status, log);
  printAccuracySummary(report, out);
  for (const std::string& note : report.notes)
    out << "  note: " << note << "\n";
  if (!options.markdown.empty() && !writeText(options.markdown, accuracyToMarkdown(report), log))
    return kExitError;
  if (!options.json.empty() && !writeText(options.json, accuracyToJson(report), log))
    return kExitError;
  return meetsTargets(report) ? kExitOk : kExitMissedTarget;
}

} // namespace

int runCalibrateCommand(const CalibrateOptions& options, std::ostream& out, std::ostream& log) {
  const Progress progress = [&log](const std::string& line) { log << line << std::endl; };
  switch (options.mode) {
  case CalibrateMode::Help:
    out << calibrateUsage();
    return kExitOk;
  case CalibrateMode::List:
    return listProfilesCommand(out, log);
  case CalibrateMode::Show: {
    HardwareProfile profile;
    std::string origin;
    const ProfileError error = findProfile(options.show, &profile, &origin);
    if (!error.ok()) {
      log << "overlap-calibrate: " << error.message() << "\n";
      return kExitError;
    }
    out << "// " << origin << "\n" << profileToJson(profile);
    return kExitOk;
  }
  case CalibrateMode::FromRaw: {
    std::string text;
    if (!readText(options.fromRaw, &text, log))
      return kExitError;
    CalibrationMeasurements measurements;
    const std::string error = measurementsFromJson(text, options.fromRaw, &measurements);
    if (!error.empty()) {
      log << "overlap-calibrate: " << error << "\n";
      return kExitError;
    }
    ProfileEstimate estimate = estimateProfile(measurements);
    return finishProfile(options, estimate, out, log);
  }
  default:
    break;
  }

  // Everything else needs the GPU.
  const cudaError_t selected = cudaSetDevice(options.device);
  Status status = OVERLAP_STATUS_OF(cudaSetDevice(options.device), selected);
  if (!status.ok())
    return reportStatus(status, log);
  DeviceDescription device;
  status = describeDevice(options.device, &device);
  if (!status.ok())
    return reportStatus(status, log);
  out << toText(device);
  if (options.mode == CalibrateMode::Describe)
    return kExitOk;

  const auto begin = std::chrono::steady_clock::now();
  CalibrationPlan plan = options.quick ? CalibrationPlan::quick() : CalibrationPlan::standard();
  if (options.repeats > 0)
    plan.repeats = options.repeats;
  AccuracyPlan accuracyPlan = options.quick ? AccuracyPlan::quick() : AccuracyPlan::standard();
  std::unique_ptr<LinkBench> bench;
  const bool calibrate = options.mode == CalibrateMode::Calibrate;
  LinkBenchLimits limits = limitsFor(plan, options.accuracy ? &accuracyPlan : nullptr);
  if (!calibrate) {
    limits.maxBytes = accuracyPlan.maxBytes();
    limits.maxPageableBytes = 0;
    limits.maxPieces = accuracyPlan.maxPieces();
  }
  status = LinkBench::create(limits, &bench);
  if (!status.ok())
    return reportStatus(status, log);

  if (!calibrate) {
    HardwareProfile profile;
    std::string origin;
    const ProfileError error = findProfile(options.profile, &profile, &origin);
    if (!error.ok()) {
      log << "overlap-calibrate: " << error.message() << "\n";
      return kExitError;
    }
    if (profile.deviceName != device.name || profile.pcie != device.pcie.describe())
      log << "warning: profile " << profile.name << " is for " << profileKey(profile)
          << ", not for this device\n";
    return accuracyAfter(*bench, options, profile, device, progress, out, log);
  }

  CalibrationMeasurements measurements;
  measurements.device = identityOf(device, todayUtc());
  status = measureLink(*bench, plan, progress, &measurements);
  if (!status.ok())
    return reportStatus(status, log);
  const double measuredIn =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  out << format("calibration measured in %.1f s", measuredIn) << "\n";
  if (!options.rawOutput.empty()) {
    if (!writeText(options.rawOutput, measurementsToJson(measurements), log))
      return kExitError;
    out << "raw measurements written to " << options.rawOutput << "\n";
  }
  ProfileEstimate estimate = estimateProfile(measurements);
  const int written = finishProfile(options, estimate, out, log);
  if (written == kExitError || !options.accuracy)
    return written;
  // The check runs even for a refused profile: it shows how far off the poor fit is.
  const int checked = accuracyAfter(*bench, options, estimate.profile, device, progress, out, log);
  return written != kExitOk ? written : checked;
}

} // namespace overlap::calibration
