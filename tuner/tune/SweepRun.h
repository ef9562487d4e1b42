// What a tuning across sizes found (--sweep, SizeSweep.h): the tuning of every size, and what the
// reports read from them -- each size's winner, each variant's best time there, and the
// crossovers (neighbouring sizes whose winners are of different families). CUDA-free; the reports
// are SweepReport.h and CrossoverPlot.h.
#pragma once

#include "tune/TuningRun.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace overlap::tune {

struct SweepPointRun {
  long long value = 0;  // of the swept argument
  long long extent = 0; // the call's partition extent P
  bool refinement = false;
  std::string report; // this size's JSON report
  TuningRun run;
};

struct SweepRun {
  std::string kernel;
  std::string parameter;             // the swept argument
  std::string sweep;                 // as given: "n=4096..268435456:7"
  int refinements = 0;               // the bound of extra sizes
  std::vector<SweepPointRun> points; // ascending by value

  const TuningRun* firstRun() const { return points.empty() ? nullptr : &points.front().run; }
};

// A candidate's time in a run: its measured median, or in a model-only run its prediction (not a
// lower bound); nullopt when there is neither.
std::optional<double> candidateSeconds(const TuningRun& run, std::size_t index);

// The winner of a size: the tuning's, or in a model-only run the predicted fastest.
std::optional<std::size_t> sweepWinner(const TuningRun& run);

// The fastest candidate of each family (variant, and issue order for the streamed ones) that has a
// time, in the order Explicit, Mapped, Streams, Hybrid.
std::vector<std::size_t> bestOfEachFamily(const TuningRun& run);

struct Crossover {
  std::size_t below = 0; // points whose winners differ in family, neighbours among those with one
  std::size_t above = 0;
};
std::vector<Crossover> crossovers(const SweepRun& sweep);

} // namespace overlap::tune
