#include "tune/SweepReport.h"

#include "tune/JsonFields.h"
#include "tune/ReportTable.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <sstream>

namespace overlap::tune {
namespace {

using nlohmann::json;

json namedCandidateJson(const model::Candidate& c) {
  json fields = candidateJson(c);
  fields["name"] = model::describe(c);
  return fields;
}

json optionalNumber(const std::optional<double>& value) {
  return value ? json(*value) : json(nullptr);
}

std::string speedupText(const std::optional<double>& explicitSeconds,
                        const std::optional<double>& seconds) {
  if (!explicitSeconds || !seconds || *seconds <= 0)
    return "-";
  char text[32];
  std::snprintf(text, sizeof text, "%.2fx", *explicitSeconds / *seconds);
  return text;
}

std::optional<double> explicitSeconds(const TuningRun& run) {
  const std::optional<std::size_t> index = run.explicitIndex();
  return index ? candidateSeconds(run, *index) : std::nullopt;
}

std::string winnerName(const TuningRun& run) {
  const std::optional<std::size_t> winner = sweepWinner(run);
  return winner ? model::describe(run.candidates[*winner].candidate) : "none";
}

} // namespace

std::string sweepJsonText(const SweepRun& sweep) {
  const TuningRun* first = sweep.firstRun();
  json points = json::array();
  for (const SweepPointRun& point : sweep.points) {
    const TuningRun& run = point.run;
    const std::optional<std::size_t> winner = sweepWinner(run);
    json best = json::array();
    for (std::size_t i : bestOfEachFamily(run)) {
      json entry = namedCandidateJson(run.candidates[i].candidate);
      entry["seconds"] = optionalNumber(candidateSeconds(run, i));
      best.push_back(entry);
    }
    points.push_back(
        {{"value", point.value},
         {"extent", point.extent},
         {"refinement", point.refinement},
         {"report", point.report},
         {"winner", winner ? namedCandidateJson(run.candidates[*winner].candidate) : json(nullptr)},
         {"winner_s", winner ? optionalNumber(candidateSeconds(run, *winner)) : json(nullptr)},
         {"explicit_s", optionalNumber(explicitSeconds(run))},
         {"speedup_over_explicit", winner ? optionalNumber(run.speedup(*winner)) : json(nullptr)},
         {"best_of_each_family", best}});
  }
  json found = json::array();
  for (const Crossover& crossover : crossovers(sweep))
    found.push_back({{"below", sweep.points[crossover.below].value},
                     {"above", sweep.points[crossover.above].value},
                     {"from", winnerName(sweep.points[crossover.below].run)},
                     {"to", winnerName(sweep.points[crossover.above].run)}});
  const json document = {{"schema", "overlap-sweep-report"},
                         {"schema_version", kSweepReportSchemaVersion},
                         {"tuner_version", kTunerVersion},
                         {"kernel", sweep.kernel},
                         {"parameter", sweep.parameter},
                         {"sweep", sweep.sweep},
                         {"refinements", sweep.refinements},
                         {"device", first ? first->device : ""},
                         {"profile", first ? first->profileName : ""},
                         {"date", first ? first->date : ""},
                         {"model_only", first && first->modelOnly},
                         {"points", points},
                         {"crossovers", found}};
  return document.dump(2) + "\n";
}

std::string renderSweepMarkdown(const SweepRun& sweep, const std::string& svgFileName) {
  std::ostringstream out;
  const TuningRun* first = sweep.firstRun();
  const bool modelOnly = first && first->modelOnly;
  int refined = 0;
  for (const SweepPointRun& point : sweep.points)
    refined += point.refinement ? 1 : 0;
  out << "# Sweep report: `" << sweep.kernel << "` over `" << sweep.parameter << "`\n\n";
  if (modelOnly)
    out << "**Nothing was run**: the winners below are the model's predicted best, the times its "
           "predictions.\n\n";
  out << "- Kernel: `" << sweep.kernel << "`";
  if (first)
    out << " (" << first->sourceFile << ":" << first->sourceLine << ")";
  out << "\n- Device: " << (first && !first->device.empty() ? first->device : "none")
      << "\n- Profile: " << (first ? first->profileName : "") << "\n- Sweep: `" << sweep.sweep
      << "`: " << sweep.points.size() - refined << " log-spaced sizes, " << refined
      << " more by bisection where the winner changes (at most " << sweep.refinements << ")"
      << "\n- Each size is a whole tuning: its own report is linked in the table\n\n";

  out << "## Winner against size\n\n| " << sweep.parameter
      << " | P | winner | time [ms] | Explicit [ms] | vs Explicit | best of each family [ms] | "
         "report |\n| --- | --- | --- | --- | --- | --- | --- | --- |\n";
  for (const SweepPointRun& point : sweep.points) {
    const TuningRun& run = point.run;
    const std::optional<std::size_t> winner = sweepWinner(run);
    const std::optional<double> winnerSeconds =
        winner ? candidateSeconds(run, *winner) : std::nullopt;
    std::string families;
    for (std::size_t i : bestOfEachFamily(run))
      families += (families.empty() ? "" : "; ") + model::describe(run.candidates[i].candidate) +
                  " " + formatMs(candidateSeconds(run, i));
    out << "| " << point.value << (point.refinement ? " (refined)" : "") << " | " << point.extent
        << " | " << winnerName(run) << " | " << formatMs(winnerSeconds) << " | "
        << formatMs(explicitSeconds(run)) << " | "
        << speedupText(explicitSeconds(run), winnerSeconds) << " | " << families << " | "
        << (point.report.empty() ? "-" : "[json](" + point.report + ")") << " |\n";
  }

  out << "\n## Crossovers\n\n";
  const std::vector<Crossover> found = crossovers(sweep);
  if (found.empty())
    out << "One family wins at every size tuned.\n";
  for (const Crossover& crossover : found) {
    const SweepPointRun& below = sweep.points[crossover.below];
    const SweepPointRun& above = sweep.points[crossover.above];
    out << "- between " << sweep.parameter << " = " << below.value << " (" << winnerName(below.run)
        << ") and " << sweep.parameter << " = " << above.value << " (" << winnerName(above.run)
        << ")\n";
  }
  out << "\nThe dispatch (`K_tuned`) takes the winner of the tuned size nearest the call's on a "
         "log "
         "scale; between two sizes whose winners differ, the model's prediction of both at the "
         "call's size, each scaled by its measured/predicted ratio, decides (docs/tuner.md).\n";
  if (!svgFileName.empty())
    out << "\n## Plot\n\n![each family's best time relative to Explicit against size, and the "
           "winner](" +
               svgFileName + ")\n";
  return out.str();
}

} // namespace overlap::tune
