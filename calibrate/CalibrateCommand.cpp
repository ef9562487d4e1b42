#include "CalibrateCommand.h"

#include "Calibrator.h"
#include "Format.h"
#include "LinkBench.h"

#include "overlap/Device.h"
#include "overlap/ProfileCatalog.h"
#include "overlap/ProfileIo.h"

#include <chrono>

namespace overlap::calibration {

namespace {

constexpr int kExitOk = 0;
constexpr int kExitError = 1;
constexpr int kExitRefused = 2;
constexpr int kExitMissedTarget = 3;

int fail(std::ostream& log, const std::string& message) {
  log << "overlap-calibrate: " << message << "\n";
  return kExitError;
}

std::string rate(double secondsPerByte) {
  return secondsPerByte > 0 ? format("%.2f GB/s", 1e-9 / secondsPerByte) : "?";
}

std::string micros(double seconds) {
  return seconds > 0 ? format("%.3f us", seconds * 1e6) : "?";
}

// Each fit with its quality (a G as bandwidth, the rest in us), then the other parameters.
void printEstimate(const ProfileEstimate& estimate, std::ostream& out) {
  out << "\nfit                                                     value          R^2"
         "       max resid\n";
  for (const FitReport& f : estimate.fits) {
    const bool perByte = f.quantity.find("seconds_per_byte") != std::string::npos;
    out << format("%-54s  %-13s  %.6f  %.2f %%\n", f.quantity.c_str(),
                  (perByte ? rate(f.fit.slope) : micros(f.fit.slope)).c_str(), f.fit.rSquared,
                  100 * f.fit.maxRelativeResidual);
  }
  const HardwareProfile& p = estimate.profile;
  out << "\nL+o " << micros(p.hostToDevice.latencyS) << " in, " << micros(p.deviceToHost.latencyS)
      << " out; kernel launch " << micros(p.kernelLaunchS) << ", stream sync "
      << micros(p.streamSyncS) << ", copy call " << micros(p.copyCallS) << ", copy in a batch "
      << micros(p.copyBatchedS) << ", graph launch per operation " << micros(p.graphOpLaunchS)
      << "\n";
}

int accuracyAfter(LinkBench& bench, const CalibrationPlan& plan, const CalibrateOptions& options,
                  const HardwareProfile& profile, const DeviceDescription& device,
                  const Progress& progress, std::ostream& out, std::ostream& log) {
  AccuracyReport report;
  report.device = device.name;
  report.pcie = device.pcie.describe();
  report.driver = device.driverVersion;
  report.date = todayUtc();
  report.profileName = profile.name;
  const Status status = checkAccuracy(bench, profile, plan, progress, &report);
  if (!status.ok())
    return fail(log, status.message());
  out << "\naccuracy of L+o + kG + g(n-1) (error = (predicted - measured) / measured):\n\n"
      << accuracySummaryMarkdown(report);
  for (const std::string& note : report.notes)
    out << "note: " << note << "\n";
  for (const auto& [path, text] : {std::pair{options.markdown, accuracyToMarkdown(report)},
                                   std::pair{options.json, accuracyToJson(report)}})
    if (!path.empty() && !writeTextFile(path, text))
      return fail(log, "cannot write " + path);
  return meetsTargets(report) ? kExitOk : kExitMissedTarget;
}

} // namespace

int writeProfile(const CalibrateOptions& options, ProfileEstimate& estimate, std::ostream& out,
                 std::ostream& log) {
  HardwareProfile& profile = estimate.profile;
  profile.name =
      !options.name.empty() ? options.name : defaultProfileName(profile.deviceName, profile.pcie);
  printEstimate(estimate, out);
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
    if (directories.empty())
      return fail(log, "no user profile directory (set OVERLAP_PROFILE_PATH or HOME) and no "
                       "--output");
    path = directories.front() + "/" + profile.name + ".json";
  }
  const ProfileError written = writeProfileFile(path, profile);
  if (!written.ok())
    return fail(log, written.message());
  out << "profile " << profile.name << " (" << profileKey(profile) << ") written to " << path
      << "\n";
  return kExitOk;
}

int runCalibrateCommand(const CalibrateOptions& options, std::ostream& out, std::ostream& log) {
  if (options.mode == CalibrateMode::Help) {
    out << calibrateUsage();
    return kExitOk;
  }
  // --profile NAME: the profile whose accuracy is checked.
  HardwareProfile profile;
  if (options.mode == CalibrateMode::Accuracy) {
    const ProfileError error = findProfile(options.profile, &profile);
    if (!error.ok())
      return fail(log, error.message());
  }

  // The rest needs the GPU.
  const cudaError_t selected = cudaSetDevice(options.device);
  if (selected != cudaSuccess)
    return fail(log, OVERLAP_STATUS_OF(cudaSetDevice(options.device), selected).message());
  DeviceDescription device;
  Status status = describeDevice(options.device, &device);
  if (!status.ok())
    return fail(log, status.message());
  out << toText(device);

  const Progress progress = [&log](const std::string& line) { log << line << std::endl; };
  const auto begin = std::chrono::steady_clock::now();
  CalibrationPlan plan = options.quick ? CalibrationPlan::quick() : CalibrationPlan::standard();
  if (options.repeats > 0)
    plan.setRepeats(options.repeats);
  const bool calibrate = options.mode == CalibrateMode::Calibrate;
  std::unique_ptr<LinkBench> bench;
  status = LinkBench::create(limitsFor(plan, calibrate, options.accuracy), &bench);
  if (!status.ok())
    return fail(log, status.message());

  if (!calibrate) {
    if (profile.deviceName != device.name || profile.pcie != device.pcie.describe())
      log << "warning: profile " << profile.name << " is for " << profileKey(profile)
          << ", not for this device\n";
    return accuracyAfter(*bench, plan, options, profile, device, progress, out, log);
  }

  CalibrationMeasurements measurements;
  status = measureLink(*bench, plan, progress, &measurements);
  if (!status.ok())
    return fail(log, status.message());
  out << format("calibration measured in %.1f s",
                std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count())
      << "\n";
  ProfileEstimate estimate = estimateProfile(measurements);
  identify(device, todayUtc(), &estimate.profile);
  const int written = writeProfile(options, estimate, out, log);
  if (written == kExitError || !options.accuracy)
    return written;
  // The check runs even for a refused profile: it shows how far off the poor fit is.
  const int checked =
      accuracyAfter(*bench, plan, options, estimate.profile, device, progress, out, log);
  return written != kExitOk ? written : checked;
}

} // namespace overlap::calibration
