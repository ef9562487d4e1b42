#include "tune/tuner.h"

#include "tune/candidate_search.h"

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
TuningRun with_predictions(const TuningSetup& setup, const TunerOptions& options,
                           double kernel_seconds, const std::string& kernel_seconds_source) {
  TuningRun run = setup.header;
  run.exhaustive = options.exhaustive;
  run.noise = options.noise.relative_noise;
  run.model_name = setup.model->name();
  run.kernel_seconds = kernel_seconds;
  run.kernel_seconds_source = kernel_seconds_source;
  model::Workload workload = setup.workload;
  workload.kernel_seconds = kernel_seconds;
  const model::Prediction prediction =
      model::predict(*setup.model, *setup.profile, workload, options.search);
  for (const std::string& assumption : prediction.assumptions)
    run.notes.push_back("model assumption: " + assumption);
  for (const model::PredictedCandidate& row : prediction.rows) {
    CandidateOutcome outcome;
    outcome.candidate = row.candidate;
    outcome.predicted_seconds = row.seconds;
    outcome.predicted_is_lower_bound = row.lower_bound;
    outcome.kept_by_model = row.kept;
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

double candidate_time_bound(const TunerOptions& options,
                            const std::optional<double>& explicit_median_seconds) {
  if (options.candidate_timeout_seconds)
    return *options.candidate_timeout_seconds;
  if (!explicit_median_seconds)
    return kDefaultReferenceBoundSeconds;
  const int calls = 1 + options.timing.warmup + options.timing.max_repeats;
  return std::max(kMinimumCandidateBoundSeconds,
                  kCandidateBoundSlowdown * calls * *explicit_median_seconds);
}

std::string cache_key(const TuningSetup& setup, const TunerOptions& options) {
  std::ostringstream key;
  const TuningRun& h = setup.header;
  key << "tuner " << kTunerVersion << "|kernel " << h.kernel << " " << h.source_file << ":"
      << h.source_line << " " << setup.kernel_identity << "|args";
  for (const auto& [name, value] : h.arguments)
    key << " " << name << "=" << value;
  key << "|device " << h.device << "|profile " << h.profile_name << " " << h.profile_origin
      << "|model " << setup.model->name() << "|pinned " << h.pinned_inputs << "|tolerance "
      << h.tolerance << "|exhaustive " << options.exhaustive << "|noise "
      << options.noise.relative_noise << "|search " << options.search.max_streams << " "
      << options.search.tolerance << " " << options.search.stream_tolerance << " "
      << options.search.max_kept << "|final rounds " << options.final_rounds;
  if (options.kernel_seconds)
    key << "|t_E " << *options.kernel_seconds;
  return key.str();
}

double infer_kernel_seconds(const model::PerformanceModel& model, const HardwareProfile& profile,
                            model::Workload workload, double explicit_seconds,
                            std::string* source) {
  workload.kernel_seconds = 0;
  const std::optional<double> transfers =
      model.predict_seconds(profile, workload, model::Candidate{});
  const double floor = 0.01 * explicit_seconds;
  if (!transfers) {
    *source = "1 % of Explicit's measured time: the model does not predict Explicit's transfers";
    return floor;
  }
  const double inferred = explicit_seconds - *transfers;
  if (inferred < floor) {
    *source = "1 % of Explicit's measured time: the profile predicts transfers (" +
              milliseconds(*transfers) + ") leaving less than 1 % of the whole measured call (" +
              milliseconds(explicit_seconds) + "); is the profile of another machine?";
    return floor;
  }
  *source = "Explicit's measured median " + milliseconds(explicit_seconds) +
            " minus its predicted transfers " + milliseconds(*transfers);
  return inferred;
}

TuningRun predict_only(const TuningSetup& setup, const TunerOptions& options, double kernel_seconds,
                       const std::string& kernel_seconds_source) {
  TuningRun run = with_predictions(setup, options, kernel_seconds, kernel_seconds_source);
  run.model_only = true;
  run.complete = true;
  run.winner_reason = "nothing was run: the predicted best is shown instead of a winner";
  return run;
}

TuningRun tune(CandidateRunner& runner, const TuningSetup& setup, const TunerOptions& options,
               const TuningCache& cache, const Progress& progress, CandidateWatch* watch) {
  const auto start = std::chrono::steady_clock::now();
  const std::string key = cache_key(setup, options);
  std::string cache_warning;
  std::optional<TuningRun> cached = cache.load(key, &cache_warning);
  if (!cache_warning.empty())
    progress("warning: " + cache_warning);
  if (cached && cached->complete) {
    cached->from_cache = true;
    progress("reusing the cached tuning " + cache.path_of(key) + " (nothing changed)");
    return *cached;
  }

  progress("[reference] Explicit: fresh random inputs, run, keep the outputs, time");
  const std::string cache_file = cache.enabled() ? cache.path_of(key) : std::string();
  const RunResult reference = [&] {
    const WatchedRun watched(watch, {model::describe(model::Candidate{}), true, cache_file,
                                     candidate_time_bound(options, std::nullopt)});
    return runner.run_reference(options.timing);
  }();
  CandidateOutcome explicit_outcome;
  record(explicit_outcome, reference);
  if (explicit_outcome.verification == Verification::Reference &&
      explicit_outcome.timing.count == 0)
    explicit_outcome.verification = Verification::Failed;

  double kernel_seconds = 0;
  std::string kernel_seconds_source;
  if (options.kernel_seconds) {
    kernel_seconds = *options.kernel_seconds;
    kernel_seconds_source = "given by the user";
  } else if (explicit_outcome.usable()) {
    kernel_seconds = infer_kernel_seconds(*setup.model, *setup.profile, setup.workload,
                                          explicit_outcome.timing.median, &kernel_seconds_source);
  } else {
    kernel_seconds_source = "unknown: Explicit failed";
  }
  TuningRun run = with_predictions(setup, options, kernel_seconds, kernel_seconds_source);
  const std::optional<std::size_t> explicit_row = run.explicit_index();
  if (explicit_row)
    run.candidates[*explicit_row] = [&] {
      CandidateOutcome outcome = explicit_outcome;
      outcome.predicted_seconds = run.candidates[*explicit_row].predicted_seconds;
      outcome.kept_by_model = true;
      return outcome;
    }();
  if (!explicit_outcome.usable()) {
    run.winner_reason = "the reference (Explicit) failed: " + explicit_outcome.error;
    run.complete = true;
    run.wall_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    save(cache, key, run, progress);
    return run;
  }

  if (cached) {
    int resumed = 0;
    for (CandidateOutcome& outcome : run.candidates) {
      const std::optional<std::size_t> before = cached->find(outcome.candidate);
      if (outcome.candidate == model::Candidate{} || !before || !cached->candidates[*before].run)
        continue;
      // What was measured comes from the cache whole; what the model says, from this run.
      CandidateOutcome measured = cached->candidates[*before];
      measured.candidate = outcome.candidate;
      measured.predicted_seconds = outcome.predicted_seconds;
      measured.predicted_is_lower_bound = outcome.predicted_is_lower_bound;
      measured.kept_by_model = outcome.kept_by_model;
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
  const double bound = candidate_time_bound(options, explicit_outcome.timing.median);
  const auto run_batch = [&](const std::vector<std::size_t>& batch, const std::string& phase) {
    for (std::size_t n = 0; n < batch.size(); ++n) {
      CandidateOutcome& outcome = run.candidates[batch[n]];
      const std::string name = model::describe(outcome.candidate);
      const RunResult result = [&] {
        const WatchedRun watched(watch, {name, false, cache_file, bound});
        return runner.run_candidate(outcome.candidate, options.timing);
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
        run.candidates[i].run_reason = "exhaustive";
        every.push_back(i);
      }
    run_batch(every, "");
  } else {
    run_batch(seed_candidates(run.candidates), "");
    for (int step = 1;; ++step) {
      const std::vector<std::size_t> next =
          next_neighbours(run.candidates, options.noise.relative_noise);
      if (next.empty())
        break;
      run_batch(next, "search " + std::to_string(step) + ": ");
    }
  }

  WinnerChoice choice = choose_winner(run.candidates, options.noise);
  const std::vector<std::size_t> finalists = options.final_rounds > 0
                                                 ? final_round_candidates(run.candidates, choice)
                                                 : std::vector<std::size_t>{};
  if (!finalists.empty()) {
    std::string names;
    for (std::size_t i : finalists)
      names += (names.empty() ? "" : ", ") + model::describe(run.candidates[i].candidate);
    progress("[final round] " + std::to_string(finalists.size()) + " finalists timed again in " +
             "turn, " + std::to_string(options.final_rounds) + " rounds: " + names);
    std::optional<WatchedRun> watched;
    int rounds = 0;
    do {
      if (rounds > 0)
        progress("[final round] " + choice.reason + ", but the rounds leave it uncertain: " +
                 std::to_string(options.final_rounds) + " more rounds");
      run_final_round(
          runner, run.candidates, finalists, options.final_rounds,
          [&](std::size_t i) {
            watched.emplace(watch, CandidateStart{model::describe(run.candidates[i].candidate),
                                                  false, cache_file, bound});
          },
          [&](std::size_t) { watched.reset(); });
      rounds += options.final_rounds;
      // The pick comes from the round alone: the others' times were taken in other windows.
      std::vector<CandidateOutcome> round = run.candidates;
      for (std::size_t i = 0; i < round.size(); ++i)
        if (std::find(finalists.begin(), finalists.end(), i) == finalists.end())
          round[i].run = false;
      choice = choose_winner(round, options.noise);
      // A simpler finalist that ties only within the rounds' uncertainty would win by default:
      // more rounds, up to kMostFinalRounds times the asked ones, decide it.
    } while (!choice.settled && rounds < kMostFinalRounds * options.final_rounds);
    run.notes.push_back("final round: " + names + " timed again in turn, " +
                        std::to_string(rounds) +
                        " interleaved rounds; the winner is picked from these rounds alone, and " +
                        "their times are the round's (the first timing is kept as screening)");
    save(cache, key, run, progress);
  }
  run.winner = choice.winner;
  run.within_noise = choice.within_noise;
  run.winner_reason = choice.reason;
  run.complete = true;
  run.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  save(cache, key, run, progress);
  return run;
}

} // namespace overlap::tune
