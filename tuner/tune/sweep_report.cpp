#include "tune/sweep_report.h"

#include "tune/json_fields.h"
#include "tune/report_table.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <sstream>

namespace overlap::tune {
namespace {

using nlohmann::json;

json named_candidate_json(const model::Candidate& c) {
  json fields = candidate_json(c);
  fields["name"] = model::describe(c);
  return fields;
}

json optional_number(const std::optional<double>& value) {
  return value ? json(*value) : json(nullptr);
}

std::string speedup_text(const std::optional<double>& explicit_seconds,
                         const std::optional<double>& seconds) {
  if (!explicit_seconds || !seconds || *seconds <= 0)
    return "-";
  char text[32];
  std::snprintf(text, sizeof text, "%.2fx", *explicit_seconds / *seconds);
  return text;
}

std::optional<double> explicit_seconds(const TuningRun& run) {
  const std::optional<std::size_t> index = run.explicit_index();
  return index ? candidate_seconds(run, *index) : std::nullopt;
}

std::string winner_name(const TuningRun& run) {
  const std::optional<std::size_t> winner = sweep_winner(run);
  return winner ? model::describe(run.candidates[*winner].candidate) : "none";
}

} // namespace

std::string sweep_json_text(const SweepRun& sweep) {
  const TuningRun* first = sweep.first_run();
  json points = json::array();
  for (const SweepPointRun& point : sweep.points) {
    const TuningRun& run = point.run;
    const std::optional<std::size_t> winner = sweep_winner(run);
    json best = json::array();
    for (std::size_t i : best_of_each_family(run)) {
      json entry = named_candidate_json(run.candidates[i].candidate);
      entry["seconds"] = optional_number(candidate_seconds(run, i));
      best.push_back(entry);
    }
    points.push_back(
        {{"value", point.value},
         {"extent", point.extent},
         {"refinement", point.refinement},
         {"report", point.report},
         {"winner",
          winner ? named_candidate_json(run.candidates[*winner].candidate) : json(nullptr)},
         {"winner_s", winner ? optional_number(candidate_seconds(run, *winner)) : json(nullptr)},
         {"explicit_s", optional_number(explicit_seconds(run))},
         {"speedup_over_explicit", winner ? optional_number(run.speedup(*winner)) : json(nullptr)},
         {"best_of_each_family", best}});
  }
  json found = json::array();
  for (const Crossover& crossover : crossovers(sweep))
    found.push_back({{"below", sweep.points[crossover.below].value},
                     {"above", sweep.points[crossover.above].value},
                     {"from", winner_name(sweep.points[crossover.below].run)},
                     {"to", winner_name(sweep.points[crossover.above].run)}});
  const json document = {{"schema", "overlap-sweep-report"},
                         {"schema_version", kSweepReportSchemaVersion},
                         {"tuner_version", kTunerVersion},
                         {"kernel", sweep.kernel},
                         {"parameter", sweep.parameter},
                         {"sweep", sweep.sweep},
                         {"refinements", sweep.refinements},
                         {"device", first ? first->device : ""},
                         {"profile", first ? first->profile_name : ""},
                         {"date", first ? first->date : ""},
                         {"model_only", first && first->model_only},
                         {"points", points},
                         {"crossovers", found}};
  return document.dump(2) + "\n";
}

std::string render_sweep_markdown(const SweepRun& sweep, const std::string& svg_file_name) {
  std::ostringstream out;
  const TuningRun* first = sweep.first_run();
  const bool model_only = first && first->model_only;
  int refined = 0;
  for (const SweepPointRun& point : sweep.points)
    refined += point.refinement ? 1 : 0;
  out << "# Sweep report: `" << sweep.kernel << "` over `" << sweep.parameter << "`\n\n";
  if (model_only)
    out << "**Nothing was run**: the winners below are the model's predicted best, the times its "
           "predictions.\n\n";
  out << "- Kernel: `" << sweep.kernel << "`";
  if (first)
    out << " (" << first->source_file << ":" << first->source_line << ")";
  out << "\n- Device: " << (first && !first->device.empty() ? first->device : "none")
      << "\n- Profile: " << (first ? first->profile_name : "") << "\n- Sweep: `" << sweep.sweep
      << "`: " << sweep.points.size() - refined << " log-spaced sizes, " << refined
      << " more by bisection where the winner changes (at most " << sweep.refinements << ")"
      << "\n- Each size is a whole tuning: its own report is linked in the table\n\n";

  out << "## Winner against size\n\n| " << sweep.parameter
      << " | P | winner | time [ms] | Explicit [ms] | vs Explicit | best of each family [ms] | "
         "report |\n| --- | --- | --- | --- | --- | --- | --- | --- |\n";
  for (const SweepPointRun& point : sweep.points) {
    const TuningRun& run = point.run;
    const std::optional<std::size_t> winner = sweep_winner(run);
    const std::optional<double> winner_seconds =
        winner ? candidate_seconds(run, *winner) : std::nullopt;
    std::string families;
    for (std::size_t i : best_of_each_family(run))
      families += (families.empty() ? "" : "; ") + model::describe(run.candidates[i].candidate) +
                  " " + format_ms(candidate_seconds(run, i));
    out << "| " << point.value << (point.refinement ? " (refined)" : "") << " | " << point.extent
        << " | " << winner_name(run) << " | " << format_ms(winner_seconds) << " | "
        << format_ms(explicit_seconds(run)) << " | "
        << speedup_text(explicit_seconds(run), winner_seconds) << " | " << families << " | "
        << (point.report.empty() ? "-" : "[json](" + point.report + ")") << " |\n";
  }

  out << "\n## Crossovers\n\n";
  const std::vector<Crossover> found = crossovers(sweep);
  if (found.empty())
    out << "One family wins at every size tuned.\n";
  for (const Crossover& crossover : found) {
    const SweepPointRun& below = sweep.points[crossover.below];
    const SweepPointRun& above = sweep.points[crossover.above];
    out << "- between " << sweep.parameter << " = " << below.value << " (" << winner_name(below.run)
        << ") and " << sweep.parameter << " = " << above.value << " (" << winner_name(above.run)
        << ")\n";
  }
  out << "\nThe dispatch (`K_tuned`) takes the winner of the tuned size nearest the call's on a "
         "log "
         "scale; between two sizes whose winners differ, the model's prediction of both at the "
         "call's size, each scaled by its measured/predicted ratio, decides (docs/tuner.md).\n";
  if (!svg_file_name.empty())
    out << "\n## Plot\n\n![each family's best time relative to Explicit against size, and the "
           "winner](" +
               svg_file_name + ")\n";
  return out.str();
}

} // namespace overlap::tune
