#include "SizeMeasure.h"

#include "overlap/Device.h"
#include "overlap/Dispatch.h"
#include "overlap/SampleStats.h"
#include "tune/ArgumentSlots.h"
#include "tune/DescriptorRunner.h"
#include "tune/FinalRound.h"
#include "tune/ResultsFile.h"
#include "tune/ResultsRegistration.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>

namespace overlap::bench {
namespace {

using nlohmann::json;

// The candidates run directly at every size besides Explicit: Mapped, and Streams and Hybrid
// (Hybrid only with pure outputs, else it runs what Streams runs) in both orders at these counts.
constexpr int kStreamCounts[] = {2, 4, 8, 16, 32};

// Timed as the tuner times: the whole call, median of repeats after a warm-up; fewer repeats than
// the tuner's, since every size runs every candidate.
constexpr tune::TimingPlan kPlan{1, 3, 40, 0.02, 0.25};

// Then K_tuned, the size-blind choice and the fastest few of that screening are timed again in
// turn, a round at a time, the order rotated each round: the link drifts between seconds, and a
// minimum over a grid timed one after the other is biased low (the luckiest window wins). The
// ratios come from these rounds alone.
constexpr int kFinalists = 3;
constexpr int kRounds = 7;
// Three timed calls a turn, where the tuner's final round times one.
constexpr tune::TimingPlan kRoundTurn{1, 3, 3, 0.02, 0.25};

// The wrapped descriptor's run: K_tuned (the dispatch of the real descriptor, whatever the
// configuration asked) or the configuration itself.
const KernelDescriptor* gReal = nullptr;
bool gThroughDispatch = false;
Status runWrapped(ArgPointers args, const RunConfig& config) {
  return gThroughDispatch ? dispatch(*gReal, args) : gReal->run(args, config);
}

bool hasPureOutputs(const KernelDescriptor& kernel) {
  for (int a = 0; a < kernel.arrayCount; ++a)
    if (kernel.arrays[a].direction == Direction::Out && kernel.arrays[a].reduce == ReduceOp::None)
      return true;
  return false;
}

std::vector<model::Candidate> grid(const KernelDescriptor& kernel, long long granules) {
  std::vector<model::Candidate> candidates = {{Variant::Mapped, 1}};
  std::vector<Variant> streamed = {Variant::Streams};
  if (hasPureOutputs(kernel))
    streamed.push_back(Variant::Hybrid);
  for (Variant variant : streamed)
    for (IssueOrder order : {IssueOrder::DepthFirst, IssueOrder::BreadthFirst})
      for (int streams : kStreamCounts)
        if (streams <= granules)
          candidates.push_back({variant, streams, order});
  return candidates;
}

json timed(const std::string& name, const tune::RunResult& result) {
  json entry = {{"name", name}};
  if (result.verification == tune::Verification::Reference ||
      result.verification == tune::Verification::Passed) {
    if (result.timing.stats.count > 0)
      entry["s"] = result.timing.stats.median;
  }
  if (!result.error.empty())
    entry["error"] = result.error;
  return entry;
}

std::optional<double> secondsOf(const json& entry) {
  return entry.contains("s") ? std::optional<double>(entry.at("s").get<double>()) : std::nullopt;
}

std::string milliseconds(const json& entry) {
  const std::optional<double> s = secondsOf(entry);
  if (!s)
    return "failed";
  char text[32];
  std::snprintf(text, sizeof text, "%.4g ms", *s * 1e3);
  return text;
}

ArgPointers pointersOf(const KernelDescriptor& kernel, const std::map<std::string, long long>& args,
                       tune::ArgumentSlots& slots) {
  tune::RandomBits bits(0);
  std::string error;
  return slots.fill(kernel, args, bits, &error) ? slots.pointers() : nullptr;
}

} // namespace

double trafficBytes(const KernelDescriptor& kernel, const std::map<std::string, long long>& args) {
  tune::ArgumentSlots slots;
  const ArgPointers pointers = pointersOf(kernel, args, slots);
  if (!pointers)
    return 0;
  double bytes = 0;
  for (int a = 0; a < kernel.arrayCount; ++a) {
    const ArrayDescriptor& array = kernel.arrays[a];
    const double whole = static_cast<double>(std::max(0LL, kernel.arrayExtent(pointers, a))) *
                         static_cast<double>(array.elementSize);
    const bool both = array.reduce != ReduceOp::None;
    bytes += whole *
             ((reads(array.direction) || both ? 1 : 0) + (writes(array.direction) || both ? 1 : 0));
  }
  return bytes;
}

long long valueForTraffic(const KernelDescriptor& kernel, std::map<std::string, long long> args,
                          const std::string& parameter, double bytes) {
  const auto traffic = [&](long long value) {
    args[parameter] = value;
    return trafficBytes(kernel, args);
  };
  // The smallest value reaching the traffic, by bisection; then it or the one below, whichever
  // is nearer on a log scale.
  long long low = 1, high = 1;
  while (traffic(high) < bytes && high < (1LL << 40))
    high *= 2;
  while (low < high) {
    const long long middle = low + (high - low) / 2;
    if (traffic(middle) < bytes)
      low = middle + 1;
    else
      high = middle;
  }
  if (low > 1 && traffic(low) * traffic(low - 1) > bytes * bytes)
    return low - 1;
  return low;
}

bool measureSizes(const MeasureOptions& options, std::ostream& log, std::string* jsonText,
                  std::string* error) {
  const KernelDescriptor* real = findRegisteredKernel(options.kernel.c_str());
  if (!real) {
    *error = "no kernel " + options.kernel + " in this program";
    return false;
  }
  const std::string device = overlap::currentDeviceName();
  tune::ResultsFile results;
  if (!options.results.empty()) {
    if (!tune::readResultsFile(options.results, &results, error))
      return false;
    tune::registerResults(results);
  }
  std::optional<model::Candidate> old;
  if (!options.oldResults.empty()) {
    tune::ResultsFile file;
    if (!tune::readResultsFile(options.oldResults, &file, error))
      return false;
    if (const tune::ResultsEntry* entry = file.find(options.kernel, device))
      old = entry->sizes.front().choice;
  }

  gReal = real;
  KernelDescriptor wrapped = *real;
  wrapped.run = &runWrapped;
  json rows = json::array();
  for (const long long value : options.values) {
    std::map<std::string, long long> args = options.arguments;
    args[options.parameter] = value;
    tune::RunnerOptions runnerOptions;
    runnerOptions.seed = options.seed;
    std::unique_ptr<tune::DescriptorRunner> runner =
        tune::DescriptorRunner::create(wrapped, args, runnerOptions, error);
    if (!runner)
      return false;
    const Partition partition = partitionOf(*real, runner->arguments());
    json row = {{"value", value},
                {"extent", partition.extent},
                {"traffic_bytes", trafficBytes(*real, args)}};

    const json reference = timed("Explicit", runner->runReference(kPlan));
    row["explicit"] = reference;
    json candidates = json::array();
    const std::vector<model::Candidate> gridCandidates = grid(*real, granuleCount(partition));
    for (const model::Candidate& candidate : gridCandidates)
      candidates.push_back(
          timed(model::describe(candidate), runner->runCandidate(candidate, kPlan)));
    row["candidates"] = candidates;

    gThroughDispatch = true;
    json tuned = timed("K_tuned", runner->runCandidate(model::Candidate{}, kPlan));
    gThroughDispatch = false;
    std::string tunedName = "K_tuned";
    if (const std::optional<VariantChoice> choice = lastDispatchChoice(*real)) {
      tunedName = describe(choice->config);
      tuned["source"] = to_string(choice->source);
      tuned["reason"] = choice->reason;
    }

    // The final round's entrants: K_tuned (through the dispatch), the size-blind choice, the
    // fastest of the screening; timed in turn as the tuner's final round times its finalists.
    std::vector<std::string> names = {"K_tuned"};
    std::vector<tune::CandidateOutcome> entrants(1);
    const auto enter = [&](const std::string& name, const model::Candidate& candidate) {
      names.push_back(name);
      entrants.emplace_back().candidate = candidate;
    };
    if (old)
      enter(model::describe(*old), *old);
    std::vector<std::pair<double, model::Candidate>> screened;
    if (const std::optional<double> s = secondsOf(reference))
      screened.push_back({*s, model::Candidate{Variant::Explicit, 1}});
    for (std::size_t i = 0; i < gridCandidates.size(); ++i)
      if (const std::optional<double> s = secondsOf(candidates[i]))
        screened.push_back({*s, gridCandidates[i]});
    std::stable_sort(screened.begin(), screened.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (std::size_t i = 0, added = 0; i < screened.size() && added < kFinalists; ++i) {
      const std::string name = model::describe(screened[i].second);
      if (std::find(names.begin() + 1, names.end(), name) == names.end()) {
        enter(name, screened[i].second);
        ++added;
      }
    }
    std::vector<std::size_t> order(entrants.size());
    for (std::size_t i = 0; i < entrants.size(); ++i) {
      order[i] = i;
      tune::CandidateOutcome& entrant = entrants[i];
      entrant.run = true; // entered as usable: a failure in the round marks it
      entrant.verification = tune::Verification::Passed;
      entrant.timing.count = 1;
    }
    tune::runFinalRound(
        *runner, entrants, order, kRounds, [](std::size_t i) { gThroughDispatch = i == 0; },
        [](std::size_t) { gThroughDispatch = false; }, kRoundTurn);

    json best;
    json measuredOld;
    json round = json::array();
    for (std::size_t i = 0; i < entrants.size(); ++i) {
      const tune::CandidateOutcome& entrant = entrants[i];
      json entry = {{"name", names[i]}};
      if (!entrant.usable())
        entry["error"] = entrant.error;
      else
        entry["s"] = entrant.timing.median;
      entry["rounds_s"] = entrant.samples;
      round.push_back(entry);
      if (i == 0) {
        if (tuned.contains("s")) {
          tuned["screening_s"] = tuned["s"];
          tuned.erase("s");
        }
        if (entry.contains("s"))
          tuned["s"] = entry["s"];
        else
          tuned["error"] = entry["error"];
      } else if (old && i == 1) {
        measuredOld = entry;
      }
      const std::optional<double> s = secondsOf(entry);
      if (s && (best.is_null() || *s < best.at("s").get<double>()))
        best = i > 0 ? entry : json{{"name", tunedName}, {"s", *s}};
    }
    tuned["name"] = tunedName;
    row["tuned"] = tuned;
    row["final_round"] = round;
    if (old)
      row["old"] = measuredOld;
    row["best"] = best;
    log << options.kernel << " " << options.parameter << "=" << value << " (P=" << partition.extent
        << "): best " << best.value("name", "-") << " " << milliseconds(best) << "; K_tuned "
        << tuned.value("name", "-") << " " << milliseconds(tuned);
    if (old)
      log << "; size-blind " << row["old"].value("name", "-") << " " << milliseconds(row["old"]);
    log << "\n" << std::flush;
    rows.push_back(row);
  }
  json arguments = json::object();
  for (const auto& [name, v] : options.arguments)
    arguments[name] = v;
  const json out = {{"kernel", options.kernel},
                    {"parameter", options.parameter},
                    {"arguments", arguments},
                    {"device", device},
                    {"results", options.results},
                    {"old_results", options.oldResults},
                    {"rows", rows}};
  *jsonText = out.dump(2) + "\n";
  return true;
}

} // namespace overlap::bench
