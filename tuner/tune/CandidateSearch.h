// Which candidates a pruned tuning runs (issue 21): the model ranks, it does not veto what it
// cannot price. First the seeds: the model's pruned set and the best predicted candidate of every
// variant family (Explicit, Mapped, Streams, Hybrid), so a family the model misprices is still
// measured. Then a local search: from the measured best of each leading family (within the
// model's own error on this tuning of the fastest), its unmeasured neighbours -- the next smaller
// and larger stream count of the same variant and order (with as many chunks per stream), the next
// smaller and larger chunk count at its stream count (powers of two per stream, as enumerated),
// and the other issue order -- until none is left or none improves. CUDA-free: the tests script
// the timings.
#pragma once

#include "tune/TuningRun.h"

#include <cstddef>
#include <map>
#include <utility>
#include <vector>

namespace overlap::tune {

// A family: one variant with one way of handling pageable arrays.
using Family = std::pair<Variant, PageableMode>;

// The usable candidate with the smallest median of every family measured.
std::map<Family, std::size_t> fastestOfEachFamily(const std::vector<CandidateOutcome>& candidates);

// The seeds, ascending by index, each with its `run_reason` set (Explicit excluded: it is the
// reference and always runs first).
std::vector<std::size_t> seedCandidates(std::vector<CandidateOutcome>& candidates);

// How far behind the fastest a family may be and still lead: the median relative error of the
// model's predictions of the candidates measured so far, at least `noise`, at most 0.5.
double leadingMargin(const std::vector<CandidateOutcome>& candidates, double noise);

// The unmeasured neighbours of the measured best of every leading family, each with its
// `run_reason` set; empty when the search is done.
std::vector<std::size_t> nextNeighbours(std::vector<CandidateOutcome>& candidates, double noise);

} // namespace overlap::tune
