#include "tune/Tuner.h"

#include "tune/CandidateSearch.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <sstream>
#include <utility>

namespace overlap::tune {
namespace {

std::string milliseconds(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f ms", seconds * 1e3);
  return text;
}

void record(CandidateOutcome& outcome, const RunResult& result) {
  outcome.run = true;
  outcome.verification = result.verification;
  outcome.error = result.error;
  if (outcome.error.empty())
    outcome.error = result.timing.error;
  if (!result.timing.error.empty() && outcome.verification != Verification::WrongResult)
    outcome.verification = Verification::Failed;
  outcome.samples = result.timing.seconds;
  outcome.timing = result.timing.stats;
}

// The header with the model's candidates in it, none run yet.
TuningRun withPredictions(const TuningSetup& setup, const TunerOptions& options,
                          double kernelSeconds, const std::string& kernelSecondsSource) {
  TuningRun run = setup.header;
  run.exhaustive = options.exhaustive;
  run.noise = options.noise.relativeNoise;
  run.modelName = setup.model->name();
  run.kernelSeconds = kernelSeconds;
  run.kernelSecondsSource = kernelSecondsSource;
  model::Workload workload = setup.workload;
  workload.launch.kernelSeconds = kernelSeconds;
  const model::Prediction prediction =
      model::predict(*setup.model, *setup.profile, workload, options.search);
  for (const std::string& assumption : prediction.assumptions)
    run.notes.push_back("model assumption: " + assumption);
  for (const std::string& excluded : prediction.excluded)
    run.notes.push_back("device memory: " + excluded);
  for (const model::PredictedCandidate& row : prediction.rows) {
    CandidateOutcome outcome;
    outcome.candidate = row.candidate;
    outcome.predictedSeconds = row.seconds;
    outcome.predictedIsLowerBound = row.lower_bound;
    outcome.keptByModel = row.kept;
    run.candidates.push_back(outcome);
  }
  return run;
}

void save(const TuningCache& cache, const std::string& key, const TuningRun& run,
          const Progress& progress) {
  std::string error;
  if (!cache.store(key, run, &error))
    progress("warning: the tuning cache was not updated: " + error);
}

// begin() now, end() when it goes out of scope; nothing without a watch.
class WatchedRun {
public:
  WatchedRun(CandidateWatch* watch, const CandidateStart& start) : watch_(watch) {
    if (watch_)
      watch_->begin(start);
  }
  ~WatchedRun() {
    if (watch_)
      watch_->end();
  }
  WatchedRun(const WatchedRun&) = delete;
  WatchedRun& operator=(const WatchedRun&) = delete;

private:
  CandidateWatch* watch_;
};

} // namespace

double candidateTimeBound(const TunerOptions& options,
                          const std::optional<double>& explicitMedianSeconds) {
  if (options.candidateTimeoutSeconds)
    return *options.candidateTimeoutSeconds;
  if (!explicitMedianSeconds)
    return kDefaultReferenceBoundSeconds;
  const int calls = 1 + options.timing.warmup + options.timing.maxRepeats;
  return std::max(kMinimumCandidateBoundSeconds,
                  kCandidateBoundSlowdown * calls * *explicitMedianSeconds);
}

std::string cacheKey(const TuningSetup& setup, const TunerOptions& options) {
  std::ostringstream key;
  const TuningRun& h = setup.header;
  key << "tuner " << kTunerVersion << "|kernel " << h.kernel << " " << h.sourceFile << ":"
      << h.sourceLine << " " << setup.kernelIdentity << "|args";
  for (const auto& [name, value] : h.arguments)
    key << " " << name << "=" << value;
  key << "|device " << h.device << "|profile " << h.profileName << " " << h.profileOrigin
      << "|model " << setup.model->name() << "|memory " << to_string(h.memory) << "|tolerance "
      << h.tolerance << "|exhaustive " << options.exhaustive << "|noise "
      << options.noise.relativeNoise << "|search " << options.search.maxStreams << " "
      << options.search.tolerance << " " << options.search.streamTolerance << " "
      << options.search.maxKept << " " << options.search.maxChunksPerStream << " "
      << options.search.minChunkBytes << " " << options.search.devices
      << (options.search.graphs ? " graphs" : "") << "|device budget "
      << setup.workload.deviceMemory.budgetBytes << "|final rounds " << options.finalRounds;
  if (options.kernelSeconds)
    key << "|t_E " << *options.kernelSeconds;
  return key.str();
}

double inferKernelSeconds(const model::PerformanceModel& model, const HardwareProfile& profile,
                          model::Workload workload, double measuredSeconds, std::string* source,
                          const model::Candidate& measured) {
  workload.launch.kernelSeconds = 0;
  const std::optional<double> transfers = model.predictSeconds(profile, workload, measured);
  const double floor = 0.01 * measuredSeconds;
  const std::string name = model::describe(measured);
  if (!transfers) {
    *source =
        "1 % of " + name + "'s measured time: the model does not predict " + name + "'s transfers";
    return floor;
  }
  const double inferred = measuredSeconds - *transfers;
  if (inferred < floor) {
    *source = "1 % of " + name + "'s measured time: the profile predicts transfers (" +
              milliseconds(*transfers) + ") leaving less than 1 % of the whole measured call (" +
              milliseconds(measuredSeconds) + "); is the profile of another machine?";
    return floor;
  }
  *source = name + "'s measured median " + milliseconds(measuredSeconds) +
            " minus its predicted transfers " + milliseconds(*transfers);
  return inferred;
}

TuningRun predictOnly(const TuningSetup& setup, const TunerOptions& options, double kernelSeconds,
                      const std::string& kernelSecondsSource) {
  TuningRun run = withPredictions(setup, options, kernelSeconds, kernelSecondsSource);
  run.modelOnly = true;
  run.complete = true;
  run.winnerReason = "nothing was run: the predicted best is shown instead of a winner";
  return run;
}

TuningRun tune(CandidateRunner& runner, const TuningSetup& setup, const TunerOptions& options,
               const TuningCache& cache, const Progress& progress, CandidateWatch* watch) {
  const auto start = std::chrono::steady_clock::now();
  const std::string key = cacheKey(setup, options);
  std::string cacheWarning;
  std::optional<TuningRun> cached = cache.load(key, &cacheWarning);
  if (!cacheWarning.empty())
    progress("warning: " + cacheWarning);
  if (cached && cached->complete) {
    cached->fromCache = true;
    progress("reusing the cached tuning " + cache.pathOf(key) + " (nothing changed)");
    return *cached;
  }

  progress("[reference] Explicit: fresh random inputs, run, keep the outputs, time");
  const std::string cacheFile = cache.enabled() ? cache.pathOf(key) : std::string();
  const RunResult reference = [&] {
    const WatchedRun watched(watch, {model::describe(model::Candidate{}), true, cacheFile,
                                     candidateTimeBound(options, std::nullopt)});
    return runner.runReference(options.timing);
  }();
  // The reference's outcome is Explicit's, unless Explicit did not fit the device's memory and
  // another candidate made the reference (RunResult::substitute): Explicit then failed.
  const model::Candidate referenceCandidate = reference.substitute.value_or(model::Candidate{});
  CandidateOutcome referenceOutcome;
  record(referenceOutcome, reference);
  referenceOutcome.candidate = referenceCandidate;
  if (referenceOutcome.verification == Verification::Reference &&
      referenceOutcome.timing.count == 0)
    referenceOutcome.verification = Verification::Failed;
  CandidateOutcome explicitOutcome = referenceOutcome;
  if (reference.substitute) {
    explicitOutcome = CandidateOutcome{};
    explicitOutcome.run = true;
    explicitOutcome.verification = Verification::Failed;
    explicitOutcome.error = reference.explicitError;
    progress("[reference] Explicit failed (" + reference.explicitError +
             "): " + model::describe(referenceCandidate) + " made the reference, out of core");
  }

  double kernelSeconds = 0;
  std::string kernelSecondsSource;
  if (options.kernelSeconds) {
    kernelSeconds = *options.kernelSeconds;
    kernelSecondsSource = "given by the user";
  } else if (referenceOutcome.usable()) {
    // On pageable memory the copies run at the host memory's speed, which drifts: the kernel's
    // time comes from Explicit timed again with its arrays page-locked, at the link's speed.
    const std::optional<TimedSamples>& pageLocked = reference.pageLockedTiming;
    const bool locked = pageLocked && pageLocked->error.empty() && pageLocked->stats.count > 0;
    model::Workload workload = setup.workload;
    if (locked)
      workload.transfers.hostMemoryPinned = true;
    kernelSeconds =
        inferKernelSeconds(*setup.model, *setup.profile, workload,
                           locked ? pageLocked->stats.median : referenceOutcome.timing.median,
                           &kernelSecondsSource, referenceCandidate);
    if (locked)
      kernelSecondsSource += ", its arrays page-locked for this timing (on pageable memory the "
                             "copies run at the host memory's speed, which drifts)";
  } else {
    kernelSecondsSource = "unknown: the reference failed";
  }
  TuningRun run = withPredictions(setup, options, kernelSeconds, kernelSecondsSource);
  // The outcomes measured so far go into their rows, with what the model says of them.
  const auto place = [&run](const CandidateOutcome& measured, const std::string& reason) {
    const std::optional<std::size_t> row = run.find(measured.candidate);
    if (!row)
      return;
    CandidateOutcome outcome = measured;
    outcome.predictedSeconds = run.candidates[*row].predictedSeconds;
    outcome.predictedIsLowerBound = run.candidates[*row].predictedIsLowerBound;
    outcome.keptByModel = true;
    outcome.runReason = reason;
    run.candidates[*row] = outcome;
  };
  place(explicitOutcome, "");
  if (reference.substitute) {
    place(referenceOutcome, "the reference, since Explicit did not fit the device's memory");
    run.notes.push_back("Explicit did not fit the device's memory (" + reference.explicitError +
                        "): every candidate was verified against " +
                        model::describe(referenceCandidate) + ", out of core");
  }
  if (!referenceOutcome.usable()) {
    run.winnerReason = "the reference (" + model::describe(referenceCandidate) +
                       ") failed: " + referenceOutcome.error;
    run.complete = true;
    run.wallSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    save(cache, key, run, progress);
    return run;
  }

  if (cached) {
    int resumed = 0;
    for (CandidateOutcome& outcome : run.candidates) {
      const std::optional<std::size_t> before = cached->find(outcome.candidate);
      if (outcome.candidate == model::Candidate{} || outcome.candidate == referenceCandidate ||
          !before || !cached->candidates[*before].run)
        continue;
      // What was measured comes from the cache whole; what the model says, from this run.
      CandidateOutcome measured = cached->candidates[*before];
      measured.candidate = outcome.candidate;
      measured.predictedSeconds = outcome.predictedSeconds;
      measured.predictedIsLowerBound = outcome.predictedIsLowerBound;
      measured.keptByModel = outcome.keptByModel;
      outcome = std::move(measured);
      ++resumed;
    }
    if (resumed > 0) {
      run.notes.push_back("resumed an interrupted tuning: " + std::to_string(resumed) +
                          " candidates measured then were kept (verified then against that "
                          "run's Explicit)");
      progress(run.notes.back());
    }
  }

  // Every candidate is in the cache before the first one runs, so one that has to be stopped can
  // be recorded there.
  save(cache, key, run, progress);
  const double bound = candidateTimeBound(options, referenceOutcome.timing.median);
  const auto runBatch = [&](const std::vector<std::size_t>& batch, const std::string& phase) {
    for (std::size_t n = 0; n < batch.size(); ++n) {
      CandidateOutcome& outcome = run.candidates[batch[n]];
      const std::string name = model::describe(outcome.candidate);
      const RunResult result = [&] {
        const WatchedRun watched(watch, {name, false, cacheFile, bound});
        return runner.runCandidate(outcome.candidate, options.timing);
      }();
      record(outcome, result);
      std::string line = "[" + phase + std::to_string(n + 1) + "/" + std::to_string(batch.size()) +
                         "] " + name + ": " + to_string(outcome.verification);
      if (outcome.timing.count > 0)
        line += ", median " + milliseconds(outcome.timing.median) + " over " +
                std::to_string(outcome.timing.count) + " repeats";
      if (!outcome.error.empty())
        line += " (" + outcome.error + ")";
      // Saved before it is reported: whoever interrupts after seeing the line finds it in the
      // cache.
      save(cache, key, run, progress);
      progress(line);
    }
  };
  if (options.exhaustive) {
    std::vector<std::size_t> every;
    for (std::size_t i = 0; i < run.candidates.size(); ++i)
      if (!run.candidates[i].run) {
        run.candidates[i].runReason = "exhaustive";
        every.push_back(i);
      }
    runBatch(every, "");
  } else {
    runBatch(seedCandidates(run.candidates), "");
    for (int step = 1;; ++step) {
      const std::vector<std::size_t> next =
          nextNeighbours(run.candidates, options.noise.relativeNoise);
      if (next.empty())
        break;
      runBatch(next, "search " + std::to_string(step) + ": ");
    }
  }

  WinnerChoice choice = chooseWinner(run.candidates, options.noise);
  const std::vector<std::size_t> finalists = options.finalRounds > 0
                                                 ? finalRoundCandidates(run.candidates, choice)
                                                 : std::vector<std::size_t>{};
  if (!finalists.empty()) {
    std::string names;
    for (std::size_t i : finalists)
      names += (names.empty() ? "" : ", ") + model::describe(run.candidates[i].candidate);
    progress("[final round] " + std::to_string(finalists.size()) + " finalists timed again in " +
             "turn, " + std::to_string(options.finalRounds) + " rounds: " + names);
    std::optional<WatchedRun> watched;
    int rounds = 0;
    do {
      if (rounds > 0)
        progress("[final round] " + choice.reason + ", but the rounds leave it uncertain: " +
                 std::to_string(options.finalRounds) + " more rounds");
      runFinalRound(
          runner, run.candidates, finalists, options.finalRounds,
          [&](std::size_t i) {
            watched.emplace(watch, CandidateStart{model::describe(run.candidates[i].candidate),
                                                  false, cacheFile, bound});
          },
          [&](std::size_t) { watched.reset(); });
      rounds += options.finalRounds;
      // The pick comes from the round alone: the others' times were taken in other windows.
      std::vector<CandidateOutcome> round = run.candidates;
      for (std::size_t i = 0; i < round.size(); ++i)
        if (std::find(finalists.begin(), finalists.end(), i) == finalists.end())
          round[i].run = false;
      choice = chooseWinner(round, options.noise);
      // A simpler finalist that ties only within the rounds' uncertainty would win by default:
      // more rounds, up to kMostFinalRounds times the asked ones, decide it.
    } while (!choice.settled && rounds < kMostFinalRounds * options.finalRounds);
    keepFastest(choice, run.candidates);
    run.notes.push_back("final round: " + names + " timed again in turn, " +
                        std::to_string(rounds) +
                        " interleaved rounds; the winner is picked from these rounds alone, and " +
                        "their times are the round's (the first timing is kept as screening)");
    save(cache, key, run, progress);
  }
  run.winner = choice.winner;
  run.withinNoise = choice.withinNoise;
  run.winnerReason = choice.reason;
  run.complete = true;
  run.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  save(cache, key, run, progress);
  return run;
}

} // namespace overlap::tune
