// The default model against every candidate the benchmark measured on the H200 (runs
// h200-2026-11-21-apps, -run2-apps and -s4-apps) and on the H100 (h100-2026-11-21-apps, run 2,
// -run3-model-apps, run 3, and -run4-model-apps, run 4): fourteen applications, each tuned
// --exhaustive, each run judged with the profile calibrated for it. The reports (one bundle per
// run under tests/fixtures/model) hold each candidate's measured median and the prediction the
// model of that run made, so the model's error can be compared before and after a change without
// a GPU. The benchmark archive's model-check-2026-11-21-s5.md is this test's output; set
// OVERLAP_BENCHMARK_CHECK_MD=FILE to write it again, and OVERLAP_BENCHMARK_CHECK_EVERY_RUN_MD=FILE
// for every candidate of every run.
#include "BenchmarkReports.h"
#include "model/CandidateSet.h"
#include "model/ModernModel.h"
#include "model/ProfileCompletion.h"
#include "overlap/ProfileIo.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace overlap::model {
namespace {

using testing::BenchmarkApplication;
using testing::Timed;

const std::string kFixtures = std::string(OVERLAP_TEST_FIXTURES_DIR) + "/model";

struct BenchmarkRun {
  const char* name;
  std::string reports; // the run's bundle of tuning reports
  std::string profile;
};

const BenchmarkRun kRuns[] = {
    {"H200 run 1", kFixtures + "/h200-2026-11-21-apps/reports.json",
     kFixtures + "/h200-2026-11-21-final/profile.json"},
    {"H200 run 2", kFixtures + "/h200-2026-11-21-run2-apps/reports.json",
     kFixtures + "/h200-2026-11-21-final/profile.json"},
    {"H100 run 2", kFixtures + "/h100-2026-11-21-apps/reports.json",
     kFixtures + "/h100-2026-11-21-apps/profile.json"},
    {"H100 run 3", kFixtures + "/h100-2026-11-21-run3-model-apps/reports.json",
     kFixtures + "/h100-2026-11-21-run3-model-apps/profile.json"},
    {"H100 run 4", kFixtures + "/h100-2026-11-21-run4-model-apps/reports.json",
     kFixtures + "/h100-2026-11-21-run4-model-apps/profile.json"},
    {"H200 session 4", kFixtures + "/h200-2026-11-21-s4-apps/reports.json",
     kFixtures + "/h200-2026-11-21-s4-apps/profile.json"}};

// The run whose every candidate the output lists.
const char* const kDetailedRun = "H100 run 3";

HardwareProfile profileOf(const BenchmarkRun& run) {
  HardwareProfile profile;
  const ProfileError error = readProfileFile(run.profile, &profile);
  EXPECT_TRUE(error.ok()) << run.profile << ": " << error.field << ": " << error.reason;
  return completeProfile(profile).profile;
}

// One measured candidate with the committed prediction and this model's.
struct Row {
  Timed measured;
  double predictedNow = 0;
  double errorBefore() const { return measured.predicted / measured.median - 1; }
  double errorNow() const { return predictedNow / measured.median - 1; }
};

struct Checked {
  std::string app;
  double reportedKernelSeconds = 0;
  double kernelSeconds = 0;
  std::vector<Row> rows;
  std::vector<Candidate> kept;
  Timed pick;
  Timed best;
};

Checked check(const HardwareProfile& profile, const std::string& runReports,
              const BenchmarkApplication& app) {
  Checked checked;
  checked.app = app.directory;
  const nlohmann::json report = testing::readTuningReport(runReports, app, "exhaustive");
  if (report.empty())
    return checked;
  checked.reportedKernelSeconds = report.at("kernel_seconds").at("value_s").get<double>();
  const std::vector<Timed> measured = testing::measuredCandidates(report);
  const auto explicitRow = std::find_if(measured.begin(), measured.end(), [](const Timed& t) {
    return t.candidate.variant == Variant::Explicit;
  });
  EXPECT_NE(explicitRow, measured.end()) << app.directory;
  if (explicitRow == measured.end())
    return checked;

  // t_E as the tuner infers it (tuner/tune/Tuner.cpp): Explicit's median minus its predicted
  // transfers, at least 1 % of it.
  const ModernModel model;
  Workload workload = app.workload;
  workload.launch.kernelSeconds = 0;
  const double transfers = *model.predictSeconds(profile, workload, Candidate{});
  workload.launch.kernelSeconds =
      std::max(explicitRow->median - transfers, 0.01 * explicitRow->median);
  checked.kernelSeconds = workload.launch.kernelSeconds;

  for (const Timed& t : measured)
    checked.rows.push_back(Row{t, *model.predictSeconds(profile, workload, t.candidate)});

  const Prediction prediction = predict(model, profile, workload, SearchOptions{});
  checked.kept = prediction.kept();
  checked.pick = testing::pickAmong(measured, checked.kept);
  checked.best =
      *std::min_element(measured.begin(), measured.end(),
                        [](const Timed& a, const Timed& b) { return a.median < b.median; });
  return checked;
}

std::string fixed(const char* pattern, double value) {
  char text[64];
  std::snprintf(text, sizeof text, pattern, value);
  return text;
}

double median(std::vector<double> values) {
  if (values.empty())
    return 0;
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

struct Errors {
  std::vector<double> before;
  std::vector<double> now;
};

// Absolute errors per variant (Explicit left out: its t_E comes from its own measurement).
std::map<std::string, Errors> errorsPerVariant(const std::vector<Checked>& apps) {
  std::map<std::string, Errors> errors;
  for (const Checked& app : apps)
    for (const Row& row : app.rows) {
      if (row.measured.candidate.variant == Variant::Explicit)
        continue;
      Errors& e = errors[to_string(row.measured.candidate.variant)];
      e.before.push_back(std::abs(row.errorBefore()));
      e.now.push_back(std::abs(row.errorNow()));
    }
  return errors;
}

std::string variantTable(const std::map<std::string, Errors>& errors) {
  std::ostringstream out;
  out << "| variant | candidates | median abs before | max abs before | median abs now | max abs "
         "now "
         "|\n| --- | ---: | ---: | ---: | ---: | ---: |\n";
  for (const auto& [variant, e] : errors)
    out << "| " << variant << " | " << e.now.size() << " | "
        << fixed("%.1f %%", 100 * median(e.before)) << " | "
        << fixed("%.1f %%", 100 * *std::max_element(e.before.begin(), e.before.end())) << " | "
        << fixed("%.1f %%", 100 * median(e.now)) << " | "
        << fixed("%.1f %%", 100 * *std::max_element(e.now.begin(), e.now.end())) << " |\n";
  return out.str();
}

std::string names(const std::vector<Candidate>& candidates) {
  std::string text;
  for (const Candidate& c : candidates)
    text += (text.empty() ? "" : ", ") + describe(c);
  return text;
}

std::string pickTable(const std::vector<Checked>& apps) {
  std::ostringstream out;
  out << "| app | kept now | pick now | pick / exhaustive best | run |\n"
      << "| --- | --- | --- | ---: | ---: |\n";
  for (const Checked& app : apps)
    out << "| " << app.app << " | " << names(app.kept) << " | " << describe(app.pick.candidate)
        << " | " << fixed("%.3f", app.pick.median / app.best.median) << " | " << app.kept.size()
        << "/" << app.rows.size() << " |\n";
  return out.str();
}

std::string candidateTable(const Checked& app) {
  std::ostringstream out;
  out << "#### " << app.app << " (t_E " << fixed("%.3f ms", app.kernelSeconds * 1e3) << ")\n\n"
      << "| candidate | measured ms | before | now |\n| --- | ---: | ---: | ---: |\n";
  for (const Row& row : app.rows) {
    if (row.measured.candidate.variant == Variant::Explicit)
      continue;
    out << "| " << describe(row.measured.candidate) << " | "
        << fixed("%.3f", row.measured.median * 1e3) << " | "
        << fixed("%+.1f %%", 100 * row.errorBefore()) << " | "
        << fixed("%+.1f %%", 100 * row.errorNow()) << " |\n";
  }
  return out.str() + "\n";
}

std::vector<Checked> checkRun(const HardwareProfile& profile, const BenchmarkRun& run) {
  std::vector<Checked> apps;
  for (const BenchmarkApplication& app : testing::benchmarkApplications())
    apps.push_back(check(profile, run.reports, app));
  return apps;
}

TEST(BenchmarkModelCheck, EveryMeasuredCandidateOfTheBenchmarkRuns) {
  std::string summary, details, everyRunDetails;
  std::map<std::string, Errors> allErrors;
  for (const BenchmarkRun& run : kRuns) {
    const std::vector<Checked> apps = checkRun(profileOf(run), run);
    for (const Checked& app : apps) {
      ASSERT_FALSE(app.rows.empty()) << run.name << " " << app.app;
      // The reconstructed workloads are the ones the tuner derived from the descriptors: its
      // inferred t_E (Explicit's measurement minus the predicted transfers) comes out the same.
      EXPECT_NEAR(app.kernelSeconds, app.reportedKernelSeconds, 1e-6 * app.reportedKernelSeconds)
          << run.name << " " << app.app;
    }
    const std::map<std::string, Errors> errors = errorsPerVariant(apps);
    for (const auto& [variant, e] : errors) {
      Errors& all = allErrors[variant];
      all.before.insert(all.before.end(), e.before.begin(), e.before.end());
      all.now.insert(all.now.end(), e.now.begin(), e.now.end());
    }
    summary += std::string("### ") + run.name + "\n\n" + variantTable(errors) + "\n" +
               pickTable(apps) + "\n";
    if (std::string(run.name) == kDetailedRun)
      for (const Checked& app : apps)
        details += candidateTable(app);
    for (const Checked& app : apps)
      everyRunDetails += std::string("### ") + run.name + ": " + candidateTable(app).substr(5);
  }
  const std::string text = "### All runs\n\n" + variantTable(allErrors) + "\n" + summary +
                           "### Every candidate of " + kDetailedRun +
                           " (error = predicted / measured − 1)\n\n" + details;
  std::printf("%s", text.c_str());
  if (const char* path = std::getenv("OVERLAP_BENCHMARK_CHECK_MD"))
    std::ofstream(path) << text;
  if (const char* path = std::getenv("OVERLAP_BENCHMARK_CHECK_EVERY_RUN_MD"))
    std::ofstream(path) << everyRunDetails;
}

} // namespace
} // namespace overlap::model
