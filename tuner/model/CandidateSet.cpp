#include "model/CandidateSet.h"

#include "model/ModernModel.h"
#include "model/MultiDeviceEstimate.h"
#include "model/ProfileCompletion.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <tuple>

namespace overlap::model {

std::vector<int> candidateStreamCounts(long long extent, int bound) {
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

std::vector<int> candidateChunkCounts(const Workload& workload, Variant variant, int streams,
                                      const SearchOptions& options) {
  std::vector<int> counts;
  const long long granules = granuleCount(workload);
  if (granules <= 0)
    return counts;
  // Out of core one chunk per stream already takes the fewest chunks whose ring fits.
  const int resolved = chunkCount(workload, Candidate{variant, streams, IssueOrder::DepthFirst});
  const double linkBytes = workload.transfers.h2dBytes + workload.transfers.d2hBytes;
  for (long long perStream = 2; perStream <= options.maxChunksPerStream; perStream *= 2) {
    const long long chunks = perStream * streams;
    if (chunks > granules || linkBytes / static_cast<double>(chunks) < options.minChunkBytes)
      break;
    Candidate candidate{variant, streams, IssueOrder::DepthFirst};
    candidate.chunks = static_cast<int>(chunks);
    if (chunks != resolved && fitsDeviceMemory(workload, candidate))
      counts.push_back(candidate.chunks);
  }
  return counts;
}

namespace {

bool hasPureOutputs(const Workload& workload) {
  return workload.transfers.d2hBytes > workload.transfers.inoutD2hBytes;
}

} // namespace

std::vector<Candidate> enumerateCandidates(const PerformanceModel& model,
                                           const HardwareProfile& profile, const Workload& workload,
                                           const SearchOptions& options) {
  std::vector<Candidate> candidates = {Candidate{Variant::Explicit, 1, IssueOrder::DepthFirst},
                                       Candidate{Variant::Mapped, 1, IssueOrder::DepthFirst}};
  const std::vector<int> counts = candidateStreamCounts(granuleCount(workload), options.maxStreams);
  const auto add = [&](Candidate candidate) {
    if (!fitsDeviceMemory(workload, candidate))
      return;
    candidates.push_back(candidate);
    // Where the device does not tell the orders apart for one chunk per stream, breadth-first
    // issue of more chunks than streams can only hold a stream's kernels behind its later copies
    // in (full buffers: a stream runs its work in issue order), or gives every stream the same
    // sequence as depth-first (the ring's waves): it is not proposed.
    if (model.distinguishesIssueOrder(profile, candidate.streams)) {
      candidate.order = IssueOrder::BreadthFirst;
      candidates.push_back(candidate);
    }
  };
  for (Variant variant : {Variant::Streams, Variant::Hybrid}) {
    if (variant == Variant::Hybrid && !hasPureOutputs(workload))
      continue;
    for (int streams : counts) {
      Candidate candidate{variant, streams, IssueOrder::DepthFirst};
      add(candidate);
      for (int chunks : candidateChunkCounts(workload, variant, streams, options)) {
        candidate.chunks = chunks;
        add(candidate);
      }
    }
  }
  if (options.graphs && workload.transfers.hostMemoryPinned) {
    const std::size_t plain = candidates.size();
    for (std::size_t i = 0; i < plain; ++i) {
      const Candidate& candidate = candidates[i];
      if ((candidate.variant == Variant::Streams || candidate.variant == Variant::Hybrid) &&
          !runsOutOfCore(workload, candidate.variant)) {
        Candidate graph = candidate;
        graph.graph = true;
        candidates.push_back(graph);
      }
    }
  }
  // On pageable memory every candidate but Explicit registers per call, said explicitly so that
  // a tuning records what it measured whatever OVERLAP_PIN_CACHE made of Default; and each
  // pipelined one also goes through the staging ring (no registration): what a one-off call on
  // pageable data needs.
  if (options.devices > 1 && workload.transfers.reductionsCombineOnHost) {
    const std::size_t oneDevice = candidates.size();
    for (std::size_t i = 0; i < oneDevice; ++i) {
      if (candidates[i].graph)
        continue; // a split's device threads would each keep graphs of their slices: not tried
      Candidate split = candidates[i];
      split.devices = options.devices;
      candidates.push_back(split);
    }
  }
  if (!workload.transfers.hostMemoryPinned) {
    const std::size_t registered = candidates.size();
    for (std::size_t i = 0; i < registered; ++i) {
      if (candidates[i].variant == Variant::Explicit)
        continue;
      candidates[i].pageable = PageableMode::Register;
      if (candidates[i].variant == Variant::Streams || candidates[i].variant == Variant::Hybrid) {
        Candidate staged = candidates[i];
        staged.pageable = PageableMode::Stage;
        staged.staging.threads = modelStagingThreads(model, profile, workload, staged);
        candidates.push_back(staged);
      }
    }
  }
  return candidates;
}

std::vector<std::string> deviceMemoryNotes(const Workload& workload, const SearchOptions& options) {
  std::vector<std::string> notes;
  if (runsOutOfCore(workload, Variant::Explicit))
    notes.push_back(deviceMemoryProblem(workload, Candidate{}) + "; not predicted");
  const std::vector<int> counts = candidateStreamCounts(granuleCount(workload), options.maxStreams);
  for (Variant variant : {Variant::Streams, Variant::Hybrid}) {
    if (variant == Variant::Hybrid && !hasPureOutputs(workload))
      continue;
    std::string first;
    int more = 0;
    for (int streams : counts) {
      const std::string problem =
          deviceMemoryProblem(workload, Candidate{variant, streams, IssueOrder::DepthFirst});
      if (problem.empty())
        continue;
      if (first.empty())
        first = problem;
      else
        ++more;
    }
    if (!first.empty())
      notes.push_back(first +
                      (more > 0 ? "; likewise " + std::to_string(more) + " more stream counts of " +
                                      to_string(variant)
                                : std::string()) +
                      "; left out");
  }
  return notes;
}

std::vector<Candidate> Prediction::kept() const {
  std::vector<Candidate> result;
  for (const PredictedCandidate& row : rows)
    if (row.kept)
      result.push_back(row.candidate);
  return result;
}

std::optional<std::size_t> Prediction::bestOf(Variant variant) const {
  std::optional<std::size_t> bestRow;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].candidate.variant != variant || !rows[i].seconds)
      continue;
    if (!bestRow || *rows[i].seconds < *rows[*bestRow].seconds)
      bestRow = i;
  }
  return bestRow;
}

void selectPrunedSet(Prediction& prediction, bool mappedIsLowerBound, bool splitsAreLowerBounds,
                     const SearchOptions& options) {
  prediction.tolerance = options.tolerance;
  prediction.streamTolerance = options.streamTolerance;
  prediction.best.reset();
  prediction.explicitRow.reset();
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
    if (prediction.rows[i].candidate.variant == Variant::Explicit &&
        prediction.rows[i].candidate.devices == 1)
      prediction.explicitRow = i;
  // A split's prediction leaves out the host side its links share unless the profile measured
  // it (MultiDeviceEstimate.h).
  for (PredictedCandidate& row : prediction.rows)
    row.lower_bound = (mappedIsLowerBound && row.candidate.variant == Variant::Mapped) ||
                      (splitsAreLowerBounds && row.candidate.devices != 1);
  auto isLowerBound = [](const PredictedCandidate& row) { return row.lower_bound; };
  for (std::size_t i : order)
    if (prediction.rows[i].seconds && !isLowerBound(prediction.rows[i])) {
      prediction.best = i;
      break;
    }
  if (!prediction.best && !order.empty() && prediction.rows[order.front()].seconds)
    prediction.best = order.front(); // only lower bounds: the best of them

  // The best prediction of each variant, issue order, device count and form, over its stream and
  // chunk counts: the reference of streamTolerance. Splits are lower bounds all alike, so their
  // curves still compare within themselves.
  const auto hasCurve = [&](const PredictedCandidate& row) {
    return !isLowerBound(row) || row.candidate.devices != 1;
  };
  const auto familyOf = [](const Candidate& c) {
    return std::make_tuple(c.variant, c.order, c.devices, c.graph);
  };
  std::map<std::tuple<Variant, IssueOrder, int, bool>, double> familyBest;
  for (const PredictedCandidate& row : prediction.rows) {
    if (!row.seconds || !hasCurve(row))
      continue;
    const auto family = familyOf(row.candidate);
    const auto found = familyBest.find(family);
    if (found == familyBest.end() || *row.seconds < found->second)
      familyBest[family] = *row.seconds;
  }

  int keptBesidesExplicit = 0;
  for (std::size_t i : order) {
    PredictedCandidate& row = prediction.rows[i];
    if (i == prediction.explicitRow || !row.seconds) {
      row.kept = true;
      continue;
    }
    const double best = *prediction.rows[*prediction.best].seconds;
    // A lower bound is the only prediction of its variant, so it has no curve to be measured on.
    const bool within = *row.seconds <= best * (1 + options.tolerance) &&
                        (!hasCurve(row) || *row.seconds <= familyBest[familyOf(row.candidate)] *
                                                               (1 + options.streamTolerance));
    const bool room = options.maxKept <= 0 || keptBesidesExplicit < options.maxKept;
    row.kept = within && room;
    keptBesidesExplicit += row.kept ? 1 : 0;
  }
}

Prediction predict(const PerformanceModel& model, const HardwareProfile& profile,
                   const Workload& workload, const SearchOptions& options) {
  const CompletedProfile completed = completeProfile(profile);
  Prediction prediction;
  prediction.assumptions = completed.assumptions;
  prediction.excluded = deviceMemoryNotes(workload, options);
  if (!workload.transfers.hostMemoryPinned && (profile.hostToDevice.pageableSecondsPerByte <= 0 ||
                                               profile.deviceToHost.pageableSecondsPerByte <= 0))
    prediction.assumptions.push_back(
        "pageable G unknown; pageable arrays are copied and registered at the pinned G");
  if (options.graphs && profile.graphOpLaunchS <= 0)
    prediction.assumptions.push_back(
        "graph launch cost per operation unknown; graph forms are priced as their plain forms");
  for (const Candidate& candidate :
       enumerateCandidates(model, completed.profile, workload, options))
    prediction.rows.push_back(PredictedCandidate{
        candidate, model.predictSeconds(completed.profile, workload, candidate), false});

  selectPrunedSet(prediction, mappedPredictionIsLowerBound(workload, completed.profile),
                  splitIsLowerBound(completed.profile, options.devices), options);
  return prediction;
}

} // namespace overlap::model
