#include "tune/ReportMarkdown.h"

#include "tune/ReportTable.h"
#include "tune/SeriesShape.h"

#include <cstdio>
#include <sstream>

namespace overlap::tune {
namespace {

void tableRow(std::ostringstream& out, const std::vector<std::string>& cells) {
  out << "|";
  for (const std::string& cell : cells)
    out << " " << cell << " |";
  out << "\n";
}

std::string percent(double fraction) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f %%", fraction * 100);
  return text;
}

} // namespace

std::string renderMarkdown(const TuningRun& run, const std::string& svgFileName) {
  std::ostringstream out;
  out << "# Tuning report: `" << run.kernel << "`\n\n";
  if (run.modelOnly)
    out << "**Nothing was run** (" << (run.device.empty() ? "no GPU" : run.device)
        << "): this report holds the model's predictions only; the candidates marked \"not "
           "run\" are the ones a tuning on a GPU would measure.\n\n";
  out << "- Kernel: `" << run.kernel << "` (" << run.sourceFile << ":" << run.sourceLine
      << ")\n- Arguments:";
  for (const auto& [name, value] : run.arguments)
    out << " `" << name << " = " << value << "`";
  out << "\n- Device: " << (run.device.empty() ? "none" : run.device)
      << "\n- Profile: " << run.profileName << " (" << run.profileOrigin << ")"
      << "\n- Model: " << run.modelName << "\n- Date: " << run.date << "\n- Host arrays: "
      << (run.memory == CallMemory::Pinned       ? "pinned (page-locked) memory"
          : run.memory == CallMemory::Registered ? "pageable memory 16 bytes past a page (as "
                                                   "malloc puts a large array), registered once "
                                                   "(cudaHostRegister) as the registration "
                                                   "cache holds it"
          : run.memory == CallMemory::Managed    ? "managed memory (cudaMallocManaged)"
                                                 : "pageable memory")
      << "\n- Timed: the whole call, transfers included, median of repeats after a warm-up"
      << "\n- Verification: every output against Explicit's, "
      << (run.tolerance > 0 ? "relative tolerance " + std::to_string(run.tolerance)
                            : std::string("exact (bit for bit)"))
      << "; fresh random inputs on every tuning\n- t_E (kernel time) used by the model: "
      << formatMs(run.kernelSeconds) << " ms, " << run.kernelSecondsSource << "\n- Search: "
      << (run.exhaustive ? "exhaustive (every candidate)" : "the model's pruned set") << ", "
      << run.runCount() << " of " << run.candidates.size() << " candidates run";
  if (!run.modelOnly)
    out << ", " << formatMs(run.wallSeconds) << " ms of wall time";
  out << (run.fromCache ? " (reused from the cache)" : "") << "\n\n";

  out << "## Winner\n\n";
  if (run.winner) {
    const CandidateOutcome& w = run.candidates[*run.winner];
    out << "**" << model::describe(w.candidate) << "**: " << formatMs(w.timing.median) << " ms";
    if (const std::optional<double> speedup = run.speedup(*run.winner))
      out << ", " << std::to_string(*speedup).substr(0, 4) << "x faster than Explicit";
    out << ". " << run.winnerReason << ".\n";
    if (run.withinNoise.size() > 1) {
      out << "\nWithin measurement noise (" << percent(run.noise)
          << " or the repeats' own spread) of the fastest:";
      for (std::size_t i : run.withinNoise)
        out << " " << model::describe(run.candidates[i].candidate) << ";";
      out << " they are equally good on this machine.\n";
    }
  } else {
    out << run.winnerReason << ".\n";
  }

  out << "\n## Candidates\n\n";
  const ReportTable table = candidateTable(run, false);
  tableRow(out, table.header);
  tableRow(out, std::vector<std::string>(table.header.size(), "---"));
  for (const auto& row : table.rows)
    tableRow(out, row);
  bool anyError = false;
  for (const CandidateOutcome& c : run.candidates)
    if (!c.error.empty()) {
      if (!anyError)
        out << "\nFailures:\n\n";
      anyError = true;
      out << "- " << model::describe(c.candidate) << ": " << c.error << "\n";
    }

  // Medians hide a series that alternates between two windows of the link or changes midway.
  const std::vector<UnsteadySeries> unsteady = unsteadySeries(run);
  if (!unsteady.empty())
    out << "\n## Timing series that are not steady\n\nIn the order they were timed (the "
           "screening repeats, then the final round's): the link changed speed under them, so "
           "their medians stand for one of two conditions.\n\n";
  for (const UnsteadySeries& series : unsteady) {
    const CandidateOutcome& c = *series.candidate;
    out << "- " << model::describe(c.candidate) << ": " << describe(series.shape) << ", "
        << c.screeningSamples.size() + c.samples.size() << " repeats\n";
  }

  const std::vector<AccuracyRow> accuracy = modelAccuracy(run);
  if (!accuracy.empty()) {
    out << "\n## Model accuracy\n\n|predicted against measured, |error| | candidates | median | "
           "max |\n| --- | --- | --- | --- |\n";
    for (const AccuracyRow& row : accuracy)
      out << "| " << model::to_string(row.variant) << " | " << row.candidates << " | "
          << percent(row.medianError) << " | " << percent(row.maxError) << " |\n";
    out << "\nExplicit's prediction uses the t_E inferred from Explicit's own measurement, so its "
           "error says nothing about the model.\n";
  }
  if (!svgFileName.empty())
    out << "\n## Plot\n\n![predicted and measured time against stream count](" << svgFileName
        << ")\n";
  if (!run.notes.empty()) {
    out << "\n## Notes\n\n";
    for (const std::string& note : run.notes)
      out << "- " << note << "\n";
  }
  return out.str();
}

} // namespace overlap::tune
