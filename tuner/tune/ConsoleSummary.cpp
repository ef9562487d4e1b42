#include "tune/ConsoleSummary.h"

#include "tune/ReportTable.h"
#include "tune/SeriesShape.h"

#include <algorithm>
#include <iomanip>

namespace overlap::tune {

void printConsoleSummary(std::ostream& out, const TuningRun& run) {
  const ReportTable table = candidateTable(run, !run.modelOnly);
  std::vector<std::size_t> width(table.header.size(), 0);
  const auto widen = [&](const std::vector<std::string>& cells) {
    for (std::size_t i = 0; i < cells.size(); ++i)
      width[i] = std::max(width[i], cells[i].size());
  };
  widen(table.header);
  for (const auto& row : table.rows)
    widen(row);
  const auto print = [&](const std::vector<std::string>& cells) {
    for (std::size_t i = 0; i < cells.size(); ++i)
      out << (i == 0 ? std::left : std::right) << std::setw(static_cast<int>(width[i])) << cells[i]
          << (i + 1 < cells.size() ? "  " : "\n");
  };
  print(table.header);
  for (const auto& row : table.rows)
    print(row);
  out << std::left;
  printWinnerLine(out, run);
  for (const UnsteadySeries& series : unsteadySeries(run))
    out << "  note: " << model::describe(series.candidate->candidate) << " timed "
        << describe(series.shape) << " (the link changed speed)\n";
}

void printWinnerLine(std::ostream& out, const TuningRun& run) {
  if (run.modelOnly) {
    out << run.kernel << ": nothing was run (model only); " << run.candidates.size()
        << " candidates predicted\n";
    return;
  }
  out << run.kernel << ": " << run.runCount() << " of " << run.candidates.size()
      << " candidates run";
  if (run.winner) {
    out << "; winner " << model::describe(run.candidates[*run.winner].candidate) << " ("
        << formatMs(run.candidates[*run.winner].timing.median) << " ms";
    if (const std::optional<double> speedup = run.speedup(*run.winner))
      out << ", " << std::fixed << std::setprecision(2) << *speedup << "x over Explicit"
          << std::defaultfloat;
    out << "): " << run.winnerReason;
  } else {
    out << "; no winner: " << run.winnerReason;
  }
  out << "\n";
}

void printSweepSummary(std::ostream& out, const SweepRun& sweep) {
  out << sweep.kernel << ": the winner against " << sweep.parameter << " (" << sweep.sweep << ")\n";
  for (const SweepPointRun& point : sweep.points) {
    const TuningRun& run = point.run;
    const std::optional<std::size_t> winner = sweepWinner(run);
    out << "  " << sweep.parameter << "=" << std::setw(12) << std::left << point.value
        << " P=" << std::setw(12) << point.extent;
    if (!winner) {
      out << "no winner\n";
      continue;
    }
    out << std::setw(28) << model::describe(run.candidates[*winner].candidate)
        << formatMs(candidateSeconds(run, *winner)) << " ms";
    if (const std::optional<double> speedup = run.speedup(*winner))
      out << ", " << std::fixed << std::setprecision(2) << *speedup << "x over Explicit"
          << std::defaultfloat;
    out << (point.refinement ? " (refined)" : "") << (run.modelOnly ? " (predicted)" : "") << "\n";
  }
  for (const Crossover& crossover : crossovers(sweep))
    out << "  crossover between " << sweep.parameter << "=" << sweep.points[crossover.below].value
        << " and " << sweep.parameter << "=" << sweep.points[crossover.above].value << "\n";
  out << std::right;
}

} // namespace overlap::tune
