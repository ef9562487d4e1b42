#include "model/candidate_set.h"

#include "model/profile_completion.h"

#include <algorithm>
#include <map>
#include <numeric>

namespace overlap::model {

std::vector<int> candidate_stream_counts(long long extent, int bound) {
  long long limit = std::max(1, bound);
  if (extent > 0)
    limit = std::min(limit, extent);
  std::vector<int> counts;
  for (long long n = 1; n <= limit; n *= 2)
    counts.push_back(static_cast<int>(n));
  if (extent > 0)
    for (long long n = 3; n <= limit; ++n)
      if (extent % n == 0)
        counts.push_back(static_cast<int>(n));
  std::sort(counts.begin(), counts.end());
  counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
  return counts;
}

std::vector<Candidate> enumerate_candidates(const PerformanceModel& model,
                                            const HardwareProfile& profile,
                                            const Workload& workload,
                                            const SearchOptions& options) {
  std::vector<Candidate> candidates = {Candidate{Variant::Explicit, 1, IssueOrder::DepthFirst},
                                       Candidate{Variant::Mapped, 1, IssueOrder::DepthFirst}};
  const std::vector<int> counts =
      candidate_stream_counts(granule_count(workload), options.max_streams);
  const bool has_pure_outputs = workload.d2h_bytes > workload.inout_d2h_bytes;
  for (Variant variant : {Variant::Streams, Variant::Hybrid}) {
    if (variant == Variant::Hybrid && !has_pure_outputs)
      continue;
    for (int streams : counts) {
      candidates.push_back(Candidate{variant, streams, IssueOrder::DepthFirst});
      if (model.distinguishes_issue_order(profile, streams))
        candidates.push_back(Candidate{variant, streams, IssueOrder::BreadthFirst});
    }
  }
  // On pageable memory every candidate but Explicit registers per call, said explicitly so that
  // a tuning records what it measured whatever OVERLAP_PIN_CACHE made of Default; and each
  // pipelined one also goes through the staging ring (no registration): what a one-off call on
  // pageable data needs.
  if (!workload.host_memory_pinned) {
    const std::size_t registered = candidates.size();
    for (std::size_t i = 0; i < registered; ++i) {
      if (candidates[i].variant == Variant::Explicit)
        continue;
      candidates[i].pageable = PageableMode::Register;
      if (candidates[i].variant == Variant::Streams || candidates[i].variant == Variant::Hybrid) {
        Candidate staged = candidates[i];
        staged.pageable = PageableMode::Stage;
        candidates.push_back(staged);
      }
    }
  }
  return candidates;
}

std::vector<Candidate> Prediction::kept() const {
  std::vector<Candidate> result;
  for (const PredictedCandidate& row : rows)
    if (row.kept)
      result.push_back(row.candidate);
  return result;
}

std::optional<std::size_t> Prediction::best_of(Variant variant) const {
  std::optional<std::size_t> best_row;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].candidate.variant != variant || !rows[i].seconds)
      continue;
    if (!best_row || *rows[i].seconds < *rows[*best_row].seconds)
      best_row = i;
  }
  return best_row;
}

namespace {

// Simpler first: the order in which ties are broken.
bool simpler(const Candidate& a, const Candidate& b) {
  if (a.variant != b.variant)
    return a.variant < b.variant;
  if (a.streams != b.streams)
    return a.streams < b.streams;
  return a.order < b.order;
}

} // namespace

void select_pruned_set(Prediction& prediction, bool mapped_is_lower_bound,
                       const SearchOptions& options) {
  prediction.tolerance = options.tolerance;
  prediction.stream_tolerance = options.stream_tolerance;
  prediction.best.reset();
  prediction.explicit_row.reset();
  // Rows in order of predicted time, simpler first among equals; unpredicted rows last.
  std::vector<std::size_t> order(prediction.rows.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const PredictedCandidate& x = prediction.rows[a];
    const PredictedCandidate& y = prediction.rows[b];
    if (x.seconds.has_value() != y.seconds.has_value())
      return x.seconds.has_value();
    if (x.seconds && *x.seconds != *y.seconds)
      return *x.seconds < *y.seconds;
    return simpler(x.candidate, y.candidate);
  });

  for (std::size_t i = 0; i < prediction.rows.size(); ++i)
    if (prediction.rows[i].candidate.variant == Variant::Explicit)
      prediction.explicit_row = i;
  for (PredictedCandidate& row : prediction.rows)
    row.lower_bound = mapped_is_lower_bound && row.candidate.variant == Variant::Mapped;
  auto is_lower_bound = [](const PredictedCandidate& row) { return row.lower_bound; };
  for (std::size_t i : order)
    if (prediction.rows[i].seconds && !is_lower_bound(prediction.rows[i])) {
      prediction.best = i;
      break;
    }
  if (!prediction.best && !order.empty() && prediction.rows[order.front()].seconds)
    prediction.best = order.front(); // only lower bounds: the best of them

  // The best prediction of each variant and issue order: the reference of stream_tolerance.
  std::map<std::pair<Variant, IssueOrder>, double> family_best;
  for (const PredictedCandidate& row : prediction.rows) {
    if (!row.seconds || is_lower_bound(row))
      continue;
    const auto family = std::make_pair(row.candidate.variant, row.candidate.order);
    const auto found = family_best.find(family);
    if (found == family_best.end() || *row.seconds < found->second)
      family_best[family] = *row.seconds;
  }

  int kept_besides_explicit = 0;
  for (std::size_t i : order) {
    PredictedCandidate& row = prediction.rows[i];
    if (row.candidate.variant == Variant::Explicit || !row.seconds) {
      row.kept = true;
      continue;
    }
    const double best = *prediction.rows[*prediction.best].seconds;
    // A lower bound is the only prediction of its variant, so it has no curve to be measured on.
    const bool within = *row.seconds <= best * (1 + options.tolerance) &&
                        (is_lower_bound(row) ||
                         *row.seconds <= family_best[{row.candidate.variant, row.candidate.order}] *
                                             (1 + options.stream_tolerance));
    const bool room = options.max_kept <= 0 || kept_besides_explicit < options.max_kept;
    row.kept = within && room;
    kept_besides_explicit += row.kept ? 1 : 0;
  }
}

Prediction predict(const PerformanceModel& model, const HardwareProfile& profile,
                   const Workload& workload, const SearchOptions& options) {
  const CompletedProfile completed = complete_profile(profile);
  Prediction prediction;
  prediction.assumptions = completed.assumptions;
  if (!workload.host_memory_pinned && (profile.host_to_device.pageable_seconds_per_byte <= 0 ||
                                       profile.device_to_host.pageable_seconds_per_byte <= 0))
    prediction.assumptions.push_back(
        "pageable G unknown; pageable arrays are copied and registered at the pinned G");
  for (const Candidate& candidate :
       enumerate_candidates(model, completed.profile, workload, options))
    prediction.rows.push_back(PredictedCandidate{
        candidate, model.predict_seconds(completed.profile, workload, candidate), false});

  select_pruned_set(prediction, mapped_prediction_is_lower_bound(workload, completed.profile),
                    options);
  return prediction;
}

} // namespace overlap::model
