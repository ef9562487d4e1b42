#include "tune/report_table.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace overlap::tune {

std::string format_ms(const std::optional<double>& seconds) {
  if (!seconds)
    return "-";
  char text[32];
  std::snprintf(text, sizeof text, "%.3f", *seconds * 1e3);
  return text;
}

namespace {

std::string format_fixed(double value, const char* format) {
  char text[32];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

std::string outcome_text(const TuningRun& run, std::size_t index) {
  const CandidateOutcome& c = run.candidates[index];
  std::string text;
  if (!c.run)
    text = c.kept_by_model ? (run.model_only ? "would run" : "not run") : "pruned";
  else
    text = to_string(c.verification);
  if (run.winner && *run.winner == index)
    text += ", WINNER";
  else if (std::find(run.within_noise.begin(), run.within_noise.end(), index) !=
           run.within_noise.end())
    text += ", within noise";
  return text;
}

} // namespace

ReportTable candidate_table(const TuningRun& run, bool only_run) {
  ReportTable table;
  table.header = {"candidate",   "predicted [ms]", "measured [ms]", "spread (IQR)", "repeats",
                  "vs Explicit", "model error",    "result",        "why run"};
  for (std::size_t i = 0; i < run.candidates.size(); ++i) {
    const CandidateOutcome& c = run.candidates[i];
    if (only_run && !c.run)
      continue;
    const std::optional<double> measured =
        c.timing.count > 0 ? std::optional<double>(c.timing.median) : std::nullopt;
    const std::optional<double> speedup = run.speedup(i);
    std::string error = "-";
    if (c.predicted_seconds && c.usable())
      error = format_fixed(100 * (*c.predicted_seconds - c.timing.median) / c.timing.median,
                           "%+.1f %%");
    table.rows.push_back(
        {model::describe(c.candidate),
         (c.predicted_is_lower_bound && c.predicted_seconds ? ">= " : "") +
             format_ms(c.predicted_seconds),
         format_ms(measured),
         measured ? format_fixed(100 * c.timing.iqr() / c.timing.median, "%.1f %%") : "-",
         c.timing.count > 0 ? std::to_string(c.timing.count) : "-",
         speedup ? format_fixed(*speedup, "%.2fx") : "-", error, outcome_text(run, i),
         c.run ? (c.run_reason.empty() ? "-" : c.run_reason) : "not run: pruned by the model"});
    table.candidate_of_row.push_back(i);
  }
  return table;
}

std::vector<AccuracyRow> model_accuracy(const TuningRun& run) {
  std::vector<AccuracyRow> rows;
  for (Variant variant : {Variant::Explicit, Variant::Mapped, Variant::Streams, Variant::Hybrid}) {
    std::vector<double> errors;
    for (const CandidateOutcome& c : run.candidates)
      if (c.candidate.variant == variant && c.usable() && c.predicted_seconds)
        errors.push_back(std::fabs(*c.predicted_seconds - c.timing.median) / c.timing.median);
    if (errors.empty())
      continue;
    std::sort(errors.begin(), errors.end());
    AccuracyRow row{variant, static_cast<int>(errors.size()), 0, errors.back()};
    const std::size_t n = errors.size();
    row.median_error = n % 2 ? errors[n / 2] : (errors[n / 2 - 1] + errors[n / 2]) / 2;
    rows.push_back(row);
  }
  return rows;
}

} // namespace overlap::tune
