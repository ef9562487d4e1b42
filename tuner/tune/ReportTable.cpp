#include "tune/ReportTable.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

namespace overlap::tune {

std::string formatMs(const std::optional<double>& seconds) {
  if (!seconds)
    return "-";
  char text[32];
  std::snprintf(text, sizeof text, "%.3f", *seconds * 1e3);
  return text;
}

namespace {

std::string formatFixed(double value, const char* format) {
  char text[32];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

std::string outcomeText(const TuningRun& run, std::size_t index) {
  const CandidateOutcome& c = run.candidates[index];
  std::string text;
  if (!c.run)
    text = c.keptByModel ? (run.modelOnly ? "would run" : "not run") : "pruned";
  else
    text = to_string(c.verification);
  if (run.winner && *run.winner == index)
    text += ", WINNER";
  else if (std::find(run.withinNoise.begin(), run.withinNoise.end(), index) !=
           run.withinNoise.end())
    text += ", within noise";
  return text;
}

// Why a candidate did not run: the search (CandidateSearch.h) runs the best predicted of every
// family and the neighbours of each leading family's measured best, so any other is predicted
// slower and lies beyond the search's steps.
std::string notRunText(const TuningRun& run, const CandidateOutcome& c) {
  if (run.modelOnly)
    return "not run: predictions only";
  std::optional<double> best;
  for (const CandidateOutcome& other : run.candidates)
    if (other.predictedSeconds && !other.predictedIsLowerBound &&
        (!best || *other.predictedSeconds < *best))
      best = other.predictedSeconds;
  if (!c.predictedSeconds || !best || *best <= 0)
    return "not run";
  return "not run: predicted " + formatFixed(100 * (*c.predictedSeconds / *best - 1), "%+.1f %%") +
         " over the best prediction, and no family's measured best beside it";
}

} // namespace

ReportTable candidateTable(const TuningRun& run, bool onlyRun) {
  ReportTable table;
  table.header = {"candidate",   "predicted [ms]", "measured [ms]", "spread (IQR)", "repeats",
                  "vs Explicit", "model error",    "result",        "why run"};
  for (std::size_t i = 0; i < run.candidates.size(); ++i) {
    const CandidateOutcome& c = run.candidates[i];
    if (onlyRun && !c.run)
      continue;
    const std::optional<double> measured =
        c.timing.count > 0 ? std::optional<double>(c.timing.median) : std::nullopt;
    const std::optional<double> speedup = run.speedup(i);
    std::string error = "-";
    if (c.predictedSeconds && c.usable())
      error =
          formatFixed(100 * (*c.predictedSeconds - c.timing.median) / c.timing.median, "%+.1f %%");
    table.rows.push_back(
        {model::describe(c.candidate),
         (c.predictedIsLowerBound && c.predictedSeconds ? ">= " : "") +
             formatMs(c.predictedSeconds),
         formatMs(measured),
         measured ? formatFixed(100 * c.timing.iqr() / c.timing.median, "%.1f %%") : "-",
         c.timing.count > 0 ? std::to_string(c.timing.count) : "-",
         speedup ? formatFixed(*speedup, "%.2fx") : "-", error, outcomeText(run, i),
         c.run ? (c.runReason.empty() ? "-" : c.runReason) : notRunText(run, c)});
    table.candidateOfRow.push_back(i);
  }
  return table;
}

std::vector<AccuracyRow> modelAccuracy(const TuningRun& run) {
  std::vector<AccuracyRow> rows;
  for (Variant variant : {Variant::Explicit, Variant::Mapped, Variant::Streams, Variant::Hybrid}) {
    std::vector<double> errors;
    for (const CandidateOutcome& c : run.candidates)
      if (c.candidate.variant == variant && c.usable() && c.predictedSeconds)
        errors.push_back(std::fabs(*c.predictedSeconds - c.timing.median) / c.timing.median);
    if (errors.empty())
      continue;
    std::sort(errors.begin(), errors.end());
    AccuracyRow row{variant, static_cast<int>(errors.size()), 0, errors.back()};
    const std::size_t n = errors.size();
    row.medianError = n % 2 ? errors[n / 2] : (errors[n / 2 - 1] + errors[n / 2]) / 2;
    rows.push_back(row);
  }
  return rows;
}

} // namespace overlap::tune
