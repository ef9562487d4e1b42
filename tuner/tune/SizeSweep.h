// Tuning across sizes (--sweep NAME=LO..HI[:COUNT]): which values of one integer argument a sweep
// tunes. First COUNT values log-spaced from LO to HI; then, where two neighbouring values have
// winners of different families (variant, and issue order for the streamed ones), the geometric
// mean between them, widest gap first, up to a bound of extra values: a bisection of the
// crossovers. CUDA-free: the tuning of one value is a callback, so the tests script the winners.
#pragma once

#include "model/PerformanceModel.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace overlap::tune {

inline constexpr int kDefaultSweepCount = 7;
inline constexpr int kDefaultSweepRefinements = 8;
// Neighbours closer than this ratio are not bisected. The dispatch decides once per size class
// (overlap/SizeClass.h), at most 25 % wide; a midpoint more than 1.25x from both neighbours lies
// in a class of its own, so every tuned size is dispatched by its own winner.
inline constexpr double kSmallestRefinedRatio = 1.25 * 1.25;

struct SweepSpec {
  std::string parameter; // an integer parameter of the kernel
  long long low = 0;
  long long high = 0;
  int count = kDefaultSweepCount;
  int refinements = kDefaultSweepRefinements; // extra values at most
};

// "NAME=LO..HI" or "NAME=LO..HI:COUNT", with 1 <= LO < HI and 2 <= COUNT <= 64.
bool parseSweep(const std::string& text, SweepSpec* spec, std::string* error);
// "n=4096..268435456:7"
std::string to_string(const SweepSpec& spec);

// `count` values from `low` to `high` (both included), evenly spaced on a log scale and rounded to
// integers; fewer where rounding makes two equal.
std::vector<long long> logSpacedSizes(long long low, long long high, int count);

// One tuned value of a sweep.
struct SweepPoint {
  long long value = 0;
  std::optional<model::Candidate> winner; // nullopt: no winner (the reference failed)
  bool refinement = false;                // added by bisection
};

// Whether two winners are of one family: the same variant, and for Streams and Hybrid the same
// issue order (the stream count may differ: the dispatch interpolates it).
bool sameFamily(const model::Candidate& a, const model::Candidate& b);

// The value to tune next between two neighbours (in `points`, ascending) whose winners differ in
// family: the geometric mean of the widest such gap, if it is a new integer and the gap is at least
// kSmallestRefinedRatio; nullopt when there is none.
std::optional<long long> nextRefinement(const std::vector<SweepPoint>& points);

// The whole sweep: tunes the log-spaced values, then up to spec.refinements values from
// nextRefinement. `tuneAt` tunes one value and returns its winner. Points ascending by value.
std::vector<SweepPoint> runSweep(
    const SweepSpec& spec,
    const std::function<std::optional<model::Candidate>(long long value, bool refinement)>& tuneAt);

} // namespace overlap::tune
