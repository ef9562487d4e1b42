#include "calibrate_command.h"

#include "accuracy_check.h"
#include "calibrator.h"
#include "link_bench.h"
#include "profile_estimator.h"

#include "overlap/device.h"
#include "overlap/profile_catalog.h"
#include "overlap/profile_io.h"

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

bool write_text(const std::string& path, const std::string& text, std::ostream& log) {
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

bool read_text(const std::string& path, std::string* text, std::ostream& log) {
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

void print_measurements(const ProfileEstimate& estimate, std::ostream& out) {
  out << "\nquantity                                      value          spread of repeats"
         "          R^2      max resid\n";
  for (const ProfileMeasurement& m : estimate.profile.measurements) {
    char line[256];
    std::snprintf(line, sizeof(line), "%-44s  %-13s  %-12s .. %-12s", m.quantity.c_str(),
                  human(m, m.value).c_str(), human(m, m.min).c_str(), human(m, m.max).c_str());
    out << line;
    if (m.r_squared >= 0)
      out << format("  %.6f", m.r_squared) << format("  %.2f %%", 100 * m.max_relative_residual);
    out << "\n";
  }
}

// "3.280 us (pieces >= 256 KiB)", or "?" for a gap not known.
std::string describe_gap(double gap_s, double min_piece_bytes) {
  if (gap_s <= 0)
    return "?";
  return format("%.3f us", gap_s * 1e6) +
         (min_piece_bytes > 0 ? format(" (pieces >= %.0f KiB)", min_piece_bytes / 1024)
                              : std::string());
}

void print_profile_summary(const HardwareProfile& p, std::ostream& out) {
  auto direction = [&out](const char* name, const LinkDirection& d) {
    out << "  " << name << ": L+o " << format("%.2f us", d.latency_s * 1e6) << ", G "
        << format("%.4g s/B", d.seconds_per_byte) << " ("
        << (d.seconds_per_byte > 0 ? format("%.2f GB/s", 1e-9 / d.seconds_per_byte) : "?")
        << "), g " << describe_gap(d.gap_s, d.gap_min_piece_bytes) << ", bidirectional g "
        << describe_gap(d.bidirectional_gap_s, d.bidirectional_gap_min_piece_bytes)
        << ", simultaneous g "
        << describe_gap(d.simultaneous_gap_s, d.simultaneous_gap_min_piece_bytes)
        << ", bidirectional "
        << (d.bidirectional_seconds_per_byte > 0
                ? format("%.2f GB/s", 1e-9 / d.bidirectional_seconds_per_byte)
                : "?")
        << (d.bidirectional_large_piece_seconds_per_byte > 0
                ? format(" (pieces from %.0f MiB: ",
                         d.bidirectional_large_piece_min_bytes / (1024.0 * 1024.0)) +
                      format("%.2f GB/s)", 1e-9 / d.bidirectional_large_piece_seconds_per_byte)
                : std::string())
        << (d.bidirectional_slow_seconds_per_byte > 0
                ? format(" (fast mode; slow mode %.2f GB/s",
                         1e-9 / d.bidirectional_slow_seconds_per_byte) +
                      format(" in %.0f %% of repeats)", 100 * d.bidirectional_slow_share)
                : std::string())
        << ", pageable "
        << (d.pageable_seconds_per_byte > 0
                ? format("%.2f GB/s", 1e-9 / d.pageable_seconds_per_byte)
                : "?")
        << ", against mapped "
        << (d.with_mapped_seconds_per_byte > 0
                ? format("%.2f GB/s", 1e-9 / d.with_mapped_seconds_per_byte)
                : "?")
        << "\n";
  };
  out << "profile " << p.name << " (" << profile_key(p) << ")\n";
  direction("host_to_device", p.host_to_device);
  direction("device_to_host", p.device_to_host);
  out << "  mapped read "
      << (p.mapped_read_seconds_per_byte > 0
              ? format("%.2f GB/s", 1e-9 / p.mapped_read_seconds_per_byte)
              : "?")
      << ", mapped write "
      << (p.mapped_write_seconds_per_byte > 0
              ? format("%.2f GB/s", 1e-9 / p.mapped_write_seconds_per_byte)
              : "?")
      << ", mapped both ways "
      << (p.mapped_both_ways_seconds_per_byte > 0
              ? format("%.2f GB/s each way", 1e-9 / p.mapped_both_ways_seconds_per_byte)
              : "?")
      << "\n";
  if (!p.mapped_by_width.empty()) {
    out << "  mapped by element width (read / write):";
    for (const MappedWidthCost& w : p.mapped_by_width)
      out << " " << w.element_bytes << " B "
          << (w.read_seconds_per_byte > 0 ? format("%.2f", 1e-9 / w.read_seconds_per_byte) : "?")
          << " / "
          << (w.write_seconds_per_byte > 0 ? format("%.2f", 1e-9 / w.write_seconds_per_byte) : "?")
          << " GB/s;";
    out << "\n";
  }
  out << "  kernel launch " << format("%.2f us", p.kernel_launch_s * 1e6) << ", stream sync "
      << format("%.2f us", p.stream_sync_s * 1e6) << ", t_sc "
      << format("%.2f us", p.stream_overhead_s * 1e6) << ", copy call "
      << (p.copy_call_s > 0 ? format("%.2f us", p.copy_call_s * 1e6) : std::string("?")) << "\n";
  if (p.host_copy_seconds_per_byte > 0)
    out << "  host copies (staging): " << format("%.2f", 1e-9 / p.host_copy_seconds_per_byte)
        << " GB/s on one thread, " << format("%.2f", 1e-9 / p.host_copy_parallel_seconds_per_byte)
        << " GB/s on " << p.host_copy_threads << "\n";
}

void print_accuracy_summary(const AccuracyReport& report, std::ostream& out) {
  out << "\naccuracy of L+o + kG + g(n-1) (error = (predicted - measured) / measured):\n";
  for (const CaseSummary& s : summarize_cases(report)) {
    char line[256];
    std::snprintf(line, sizeof(line),
                  "  %-30s %3d points  max |error| %6.2f %%  mean %5.2f %%  target %.0f %%  %s",
                  case_name(s.which), s.points, 100 * s.max_abs_error, 100 * s.mean_abs_error,
                  100 * report.target(s.which), s.within_target ? "met" : "MISSED");
    out << line;
    if (s.outside_points > 0)
      out << "  (+" << s.outside_points << " outside g's domain, max |error| "
          << format("%.2f %%)", 100 * s.outside_max_abs_error);
    if (s.ungated_points > 0)
      out << format("  (ungated max |error| %.2f %%)", 100 * s.ungated_max_abs_error);
    if (s.split_points > 0)
      out << "  (" << s.split_points << " points ran at two rates, judged on the fast repeats; "
          << format("%.0f %% of repeats slow, ", 100 * s.slow_share)
          << format("slow-mode max |error| %.2f %%)", 100 * s.slow_mode_max_abs_error);
    if (s.form_floor >= 0)
      out << format("  (form's floor %.2f %%)", 100 * s.form_floor);
    out << "\n";
  }
}

// Writes the profile unless a fit is poor and --force is absent. Returns an exit code.
int finish_profile(const CalibrateOptions& options, ProfileEstimate& estimate, std::ostream& out,
                   std::ostream& log) {
  HardwareProfile& profile = estimate.profile;
  profile.name = !options.name.empty() ? options.name
                                       : default_profile_name(profile.device_name, profile.pcie);
  print_measurements(estimate, out);
  out << "\n";
  print_profile_summary(profile, out);
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
    const std::vector<std::string> directories = user_profile_directories();
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
  const ProfileError written = write_profile_file(path, profile);
  if (!written.ok()) {
    log << "overlap-calibrate: " << written.message() << "\n";
    return kExitError;
  }
  out << "profile written to " << path << "\n";
  return kExitOk;
}

int report_status(const Status& status, std::ostream& log) {
  log << "overlap-calibrate: " << status.message() << "\n";
  return kExitError;
}

int list_profiles_command(std::ostream& out, std::ostream& log) {
  const ProfileListing listing = list_profiles();
  for (const ProfileError& skipped : listing.skipped)
    log << "skipped " << skipped.message() << "\n";
  for (const CatalogEntry& entry : listing.entries)
    out << entry.profile.name << "\n  " << profile_key(entry.profile)
        << "\n  source: " << entry.profile.source << "\n  from: " << entry.origin << "\n";
  return kExitOk;
}

int accuracy_after(LinkBench& bench, const CalibrateOptions& options,
                   const HardwareProfile& profile, const DeviceDescription& device,
                   const Progress& progress, std::ostream& out, std::ostream& log) {
  AccuracyPlan plan = options.quick ? AccuracyPlan::quick() : AccuracyPlan::standard();
  plan.ungated = options.ungated;
  if (options.repeats > 0)
    plan.repeats = options.repeats;
  AccuracyReport report;
  report.device = device.name;
  report.pcie = device.pcie.describe();
  report.driver = device.driver_version;
  report.date = today_utc();
  report.profile_name = profile.name;
  const Status status = check_accuracy(bench, profile, plan, progress, &report);
  if (!status.ok())
    return report_status(status, log);
  print_accuracy_summary(report, out);
  for (const std::string& note : report.notes)
    out << "  note: " << note << "\n";
  if (!options.markdown.empty() && !write_text(options.markdown, accuracy_to_markdown(report), log))
    return kExitError;
  if (!options.json.empty() && !write_text(options.json, accuracy_to_json(report), log))
    return kExitError;
  return meets_targets(report) ? kExitOk : kExitMissedTarget;
}

} // namespace

int run_calibrate_command(const CalibrateOptions& options, std::ostream& out, std::ostream& log) {
  const Progress progress = [&log](const std::string& line) { log << line << std::endl; };
  switch (options.mode) {
  case CalibrateMode::Help:
    out << calibrate_usage();
    return kExitOk;
  case CalibrateMode::List:
    return list_profiles_command(out, log);
  case CalibrateMode::Show: {
    HardwareProfile profile;
    std::string origin;
    const ProfileError error = find_profile(options.show, &profile, &origin);
    if (!error.ok()) {
      log << "overlap-calibrate: " << error.message() << "\n";
      return kExitError;
    }
    out << "// " << origin << "\n" << profile_to_json(profile);
    return kExitOk;
  }
  case CalibrateMode::FromRaw: {
    std::string text;
    if (!read_text(options.from_raw, &text, log))
      return kExitError;
    CalibrationMeasurements measurements;
    const std::string error = measurements_from_json(text, options.from_raw, &measurements);
    if (!error.empty()) {
      log << "overlap-calibrate: " << error << "\n";
      return kExitError;
    }
    ProfileEstimate estimate = estimate_profile(measurements);
    return finish_profile(options, estimate, out, log);
  }
  default:
    break;
  }

  // Everything else needs the GPU.
  const cudaError_t selected = cudaSetDevice(options.device);
  Status status = OVERLAP_STATUS_OF(cudaSetDevice(options.device), selected);
  if (!status.ok())
    return report_status(status, log);
  DeviceDescription device;
  status = describe_device(options.device, &device);
  if (!status.ok())
    return report_status(status, log);
  out << to_text(device);
  if (options.mode == CalibrateMode::Describe)
    return kExitOk;

  const auto begin = std::chrono::steady_clock::now();
  CalibrationPlan plan = options.quick ? CalibrationPlan::quick() : CalibrationPlan::standard();
  if (options.repeats > 0)
    plan.repeats = options.repeats;
  AccuracyPlan accuracy_plan = options.quick ? AccuracyPlan::quick() : AccuracyPlan::standard();
  std::unique_ptr<LinkBench> bench;
  const bool calibrate = options.mode == CalibrateMode::Calibrate;
  LinkBenchLimits limits = limits_for(plan, options.accuracy ? &accuracy_plan : nullptr);
  if (!calibrate) {
    limits.max_bytes = accuracy_plan.max_bytes();
    limits.max_pageable_bytes = 0;
    limits.max_pieces = accuracy_plan.max_pieces();
  }
  status = LinkBench::create(limits, &bench);
  if (!status.ok())
    return report_status(status, log);

  if (!calibrate) {
    HardwareProfile profile;
    std::string origin;
    const ProfileError error = find_profile(options.profile, &profile, &origin);
    if (!error.ok()) {
      log << "overlap-calibrate: " << error.message() << "\n";
      return kExitError;
    }
    if (profile.device_name != device.name || profile.pcie != device.pcie.describe())
      log << "warning: profile " << profile.name << " is for " << profile_key(profile)
          << ", not for this device\n";
    return accuracy_after(*bench, options, profile, device, progress, out, log);
  }

  CalibrationMeasurements measurements;
  measurements.device = identity_of(device, today_utc());
  status = measure_link(*bench, plan, progress, &measurements);
  if (!status.ok())
    return report_status(status, log);
  const double measured_in =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  out << format("calibration measured in %.1f s", measured_in) << "\n";
  if (!options.raw_output.empty()) {
    if (!write_text(options.raw_output, measurements_to_json(measurements), log))
      return kExitError;
    out << "raw measurements written to " << options.raw_output << "\n";
  }
  ProfileEstimate estimate = estimate_profile(measurements);
  const int written = finish_profile(options, estimate, out, log);
  if (written == kExitError || !options.accuracy)
    return written;
  // The check runs even for a refused profile: it shows how far off the poor fit is.
  const int checked = accuracy_after(*bench, options, estimate.profile, device, progress, out, log);
  return written != kExitOk ? written : checked;
}

} // namespace overlap::calibration
