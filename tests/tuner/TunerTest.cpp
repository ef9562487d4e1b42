#include "tune/Tuner.h"

#include "ModelTestProfiles.h"
#include "TunerTestSupport.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

namespace overlap::tune {
namespace {

using testing::FakeRunner;

// Explicit 15.5 ms, Mapped 10.9 ms, Streams best at 16: the shape measured on the lent GPUs.
double saxpyLike(const model::Candidate& c) {
  switch (c.variant) {
  case Variant::Explicit:
    return 15.5e-3;
  case Variant::Mapped:
    return 10.9e-3;
  default:
    return 10.5e-3 + 0.02e-3 * std::abs(c.streams - 16) +
           (c.order == IssueOrder::BreadthFirst ? 0.1e-3 : 0);
  }
}

class TunerTest : public ::testing::Test {
protected:
  TunerTest() {
    setup_.header.kernel = "saxpy";
    setup_.header.arguments = {{"n", 1 << 26}};
    setup_.header.device = "Fake GPU";
    setup_.profile = &profile_;
    setup_.model = model_.get();
    setup_.workload = testing::saxpyWorkload();
    options_.timing.warmup = 0;
    options_.finalRounds = 0; // the tests of the final round set it
    directory_ = std::filesystem::temp_directory_path() /
                 ("overlap-tuner-test-" + std::to_string(::getpid()) + "-" +
                  ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(directory_);
  }
  ~TunerTest() override { std::filesystem::remove_all(directory_); }

  HardwareProfile profile_ = model::testing::h100Like();
  std::unique_ptr<model::PerformanceModel> model_ = model::makeModel(model::ModelKind::Modern);
  TuningSetup setup_;
  TunerOptions options_;
  std::filesystem::path directory_;
  std::vector<std::string> lines_;
  Progress progress_ = [this](const std::string& line) { lines_.push_back(line); };
};

TEST_F(TunerTest, RunsExplicitThePrunedSetAndWhatTheSearchAddsEachWithItsReason) {
  FakeRunner runner(saxpyLike);
  const TuningRun run = tune(runner, setup_, options_, TuningCache(""), progress_);
  EXPECT_EQ(runner.referenceRuns, 1);
  ASSERT_TRUE(run.complete);
  for (const CandidateOutcome& c : run.candidates) {
    const bool isExplicit = c.candidate == model::Candidate{};
    if (c.keptByModel) {
      EXPECT_TRUE(c.run) << model::describe(c.candidate);
    }
    const long ran = std::count(runner.ran.begin(), runner.ran.end(), c.candidate);
    EXPECT_EQ(ran, c.run && !isExplicit ? 1 : 0) << model::describe(c.candidate);
    EXPECT_EQ(c.runReason.empty(), !c.run || isExplicit) << model::describe(c.candidate);
  }
  EXPECT_LT(run.runCount(), static_cast<int>(run.candidates.size()));
  ASSERT_TRUE(run.winner);
  EXPECT_TRUE(run.candidates[*run.winner].usable());
  // One progress line for the reference and one per candidate run.
  EXPECT_EQ(lines_.size(), 1 + runner.ran.size());
}

TEST_F(TunerTest, ExhaustiveRunsEveryCandidate) {
  options_.exhaustive = true;
  FakeRunner runner(saxpyLike);
  const TuningRun run = tune(runner, setup_, options_, TuningCache(""), progress_);
  EXPECT_EQ(run.runCount(), static_cast<int>(run.candidates.size()));
  EXPECT_EQ(runner.ran.size(), run.candidates.size() - 1);
  EXPECT_TRUE(run.exhaustive);
}

TEST_F(TunerTest, InfersTheKernelTimeFromExplicit) {
  FakeRunner runner(saxpyLike);
  const TuningRun run = tune(runner, setup_, options_, TuningCache(""), progress_);
  // 768 MiB over a 55 GB/s link take about 14.7 ms of the 15.5 ms.
  EXPECT_GT(run.kernelSeconds, 0.0);
  EXPECT_LT(run.kernelSeconds, 1e-3);
  EXPECT_NE(run.kernelSecondsSource.find("minus its predicted transfers"), std::string::npos);
  const CandidateOutcome& e = run.candidates[*run.explicitIndex()];
  EXPECT_NEAR(*e.predictedSeconds, e.timing.median, 0.02 * e.timing.median);
}

// On pageable memory Explicit's copies run at the host memory's speed, which the profile prices
// poorly (here 40 % slower than it says): the kernel's time comes from the reference timed with
// its arrays page-locked, where the transfers are the link's.
TEST_F(TunerTest, OnPageableMemoryTheKernelTimeComesFromThePageLockedReference) {
  setup_.workload.transfers.hostMemoryPinned = false;
  model::Workload pinned = setup_.workload;
  pinned.transfers.hostMemoryPinned = true;
  const model::Candidate explicitCall;
  setup_.workload.launch.kernelSeconds = 0;
  const double pageableTransfers = *model_->predictSeconds(profile_, setup_.workload, explicitCall);
  const double pinnedTransfers = *model_->predictSeconds(profile_, pinned, explicitCall);
  constexpr double kKernel = 0.5e-3;
  FakeRunner runner([&](const model::Candidate& c) {
    return c.variant == Variant::Explicit ? 1.4 * pageableTransfers + kKernel : 10e-3;
  });
  runner.pageLockedSeconds = pinnedTransfers + kKernel;
  const TuningRun run = tune(runner, setup_, options_, TuningCache(""), progress_);
  EXPECT_NEAR(run.kernelSeconds, kKernel, 1e-9);
  EXPECT_NE(run.kernelSecondsSource.find("page-locked"), std::string::npos)
      << run.kernelSecondsSource;
  // Without it, the pageable copies' error would be taken for the kernel.
  FakeRunner alone(runner);
  alone.pageLockedSeconds.reset();
  const TuningRun guessed = tune(alone, setup_, options_, TuningCache(""), progress_);
  EXPECT_GT(guessed.kernelSeconds, 10 * kKernel);
  EXPECT_EQ(guessed.kernelSecondsSource.find("page-locked"), std::string::npos);
}

TEST_F(TunerTest, AnUnrealisticProfileFloorsTheKernelTimeAndSaysSo) {
  std::string source;
  const double tE = inferKernelSeconds(*model_, profile_, setup_.workload, 1e-3, &source);
  EXPECT_DOUBLE_EQ(tE, 1e-5);
  EXPECT_NE(source.find("another machine"), std::string::npos) << source;
}

TEST_F(TunerTest, FailingAndWrongCandidatesAreRecordedAndTheTuningGoesOn) {
  options_.exhaustive = true;
  FakeRunner runner(saxpyLike);
  runner.failing = {{Variant::Streams, 16}};
  runner.wrong = {{Variant::Mapped, 1}};
  const TuningRun run = tune(runner, setup_, options_, TuningCache(""), progress_);
  const CandidateOutcome& failed = run.candidates[*run.find({Variant::Streams, 16})];
  const CandidateOutcome& wrong = run.candidates[*run.find({Variant::Mapped, 1})];
  EXPECT_EQ(failed.verification, Verification::Failed);
  EXPECT_NE(failed.error.find("out of memory"), std::string::npos);
  EXPECT_EQ(wrong.verification, Verification::WrongResult);
  EXPECT_EQ(run.runCount(), static_cast<int>(run.candidates.size()));
  ASSERT_TRUE(run.winner);
  EXPECT_NE(*run.winner, *run.find({Variant::Streams, 16}));
  EXPECT_NE(*run.winner, *run.find({Variant::Mapped, 1}));
}

TEST_F(TunerTest, AFailingReferenceLeavesNoWinner) {
  class BrokenExplicit final : public CandidateRunner {
  public:
    RunResult runReference(const TimingPlan&) override {
      RunResult result;
      result.verification = Verification::Failed;
      result.error = "cudaMalloc failed";
      return result;
    }
    RunResult runCandidate(const model::Candidate&, const TimingPlan&) override {
      ADD_FAILURE() << "no candidate may run without a reference";
      return {};
    }
  } runner;
  const TuningRun run = tune(runner, setup_, options_, TuningCache(""), progress_);
  EXPECT_FALSE(run.winner);
  EXPECT_NE(run.winnerReason.find("cudaMalloc failed"), std::string::npos);
}

// Over the device-memory budget Explicit cannot run: the runner's substitute made the reference,
// and the tuning goes on against it.
TEST_F(TunerTest, WhenExplicitDoesNotFitItsSubstituteMakesTheReferenceAndTheTuningGoesOn) {
  class OutOfCoreRunner final : public CandidateRunner {
  public:
    FakeRunner fake{saxpyLike};
    RunResult runReference(const TimingPlan& plan) override {
      RunResult result = fake.runCandidate({Variant::Streams, 1}, plan);
      result.verification = Verification::Reference;
      result.substitute = model::Candidate{Variant::Streams, 1};
      result.explicitError = "Explicit needs 768.0 MiB of device memory; the budget is 256.0 MiB";
      return result;
    }
    RunResult runCandidate(const model::Candidate& c, const TimingPlan& plan) override {
      EXPECT_NE(c, model::Candidate{}) << "Explicit ran as a candidate";
      return fake.runCandidate(c, plan);
    }
  } runner;
  const TuningRun run = tune(runner, setup_, options_, TuningCache(""), progress_);
  ASSERT_TRUE(run.complete);
  ASSERT_TRUE(run.winner) << run.winnerReason;
  const CandidateOutcome& failed = run.candidates[*run.explicitIndex()];
  EXPECT_EQ(failed.verification, Verification::Failed);
  EXPECT_NE(failed.error.find("the budget is 256.0 MiB"), std::string::npos) << failed.error;
  const std::optional<std::size_t> substitute = run.find({Variant::Streams, 1});
  ASSERT_TRUE(substitute);
  EXPECT_EQ(run.candidates[*substitute].verification, Verification::Reference);
  EXPECT_FALSE(run.candidates[*substitute].runReason.empty());
  EXPECT_EQ(std::count(runner.fake.ran.begin(), runner.fake.ran.end(),
                       model::Candidate{Variant::Streams, 1}),
            1)
      << "the reference's maker is not run again";
  EXPECT_NE(run.kernelSecondsSource.find("Streams(1, depth-first)'s measured"), std::string::npos)
      << run.kernelSecondsSource;
  EXPECT_NE(*run.winner, *run.explicitIndex());
}

TEST_F(TunerTest, ACompleteCachedTuningIsReusedWhenNothingChanged) {
  const TuningCache cache(directory_.string());
  FakeRunner first(saxpyLike);
  const TuningRun original = tune(first, setup_, options_, cache, progress_);
  FakeRunner second(saxpyLike);
  const TuningRun reused = tune(second, setup_, options_, cache, progress_);
  EXPECT_TRUE(reused.fromCache);
  EXPECT_EQ(second.referenceRuns, 0);
  EXPECT_TRUE(second.ran.empty());
  ASSERT_TRUE(reused.winner);
  EXPECT_EQ(reused.candidates[*reused.winner].candidate,
            original.candidates[*original.winner].candidate);

  setup_.header.arguments = {{"n", 1 << 20}}; // another size: measured again
  FakeRunner third(saxpyLike);
  EXPECT_FALSE(tune(third, setup_, options_, cache, progress_).fromCache);
  EXPECT_EQ(third.referenceRuns, 1);
}

TEST_F(TunerTest, AnInterruptedTuningResumesWithoutRepeatingMeasuredCandidates) {
  options_.exhaustive = true;
  const TuningCache cache(directory_.string());
  FakeRunner full(saxpyLike);
  TuningRun interrupted = tune(full, setup_, options_, TuningCache(""), progress_);
  // As the cache holds it after the first three candidates beyond Explicit were measured.
  interrupted.complete = false;
  interrupted.winner.reset();
  int keptMeasured = 0;
  for (CandidateOutcome& c : interrupted.candidates)
    if (c.candidate != model::Candidate{} && c.run && ++keptMeasured > 3) {
      c.run = false;
      c.verification = Verification::NotRun;
      c.timing = {};
      c.samples.clear();
    }
  std::string error;
  ASSERT_TRUE(cache.store(cacheKey(setup_, options_), interrupted, &error)) << error;

  FakeRunner resumedRunner(saxpyLike);
  const TuningRun resumed = tune(resumedRunner, setup_, options_, cache, progress_);
  EXPECT_EQ(resumedRunner.ran.size(), resumed.candidates.size() - 1 - 3);
  EXPECT_EQ(resumed.runCount(), static_cast<int>(resumed.candidates.size()));
  EXPECT_TRUE(resumed.complete);
  ASSERT_FALSE(resumed.notes.empty());
  EXPECT_NE(resumed.notes.back().find("resumed"), std::string::npos);
}

TEST_F(TunerTest, TheCandidateBoundIsTheGivenTimeoutElseScaledFromExplicit) {
  EXPECT_EQ(candidateTimeBound(options_, std::nullopt), kDefaultReferenceBoundSeconds);
  EXPECT_EQ(candidateTimeBound(options_, 1e-3), kMinimumCandidateBoundSeconds);
  // 1 verification + 0 warm-ups + 25 repeats at ten times Explicit's 1 s.
  EXPECT_DOUBLE_EQ(candidateTimeBound(options_, 1.0), kCandidateBoundSlowdown * 26);
  options_.candidateTimeoutSeconds = 3;
  EXPECT_EQ(candidateTimeBound(options_, std::nullopt), 3);
  EXPECT_EQ(candidateTimeBound(options_, 1.0), 3);
}

// What a supervisor relies on: a begin and an end around every run, the cache file already
// holding every candidate when the first one begins, and the bound from Explicit's median.
TEST_F(TunerTest, TheWatchHearsEveryRunAndTheCacheHoldsEveryCandidateBeforeTheFirst) {
  class RecordingWatch final : public CandidateWatch {
  public:
    std::vector<CandidateStart> begun;
    int ended = 0;
    bool nested = false;
    std::size_t candidatesInCacheAtFirst = 0;
    void begin(const CandidateStart& start) override {
      nested |= begun.size() != static_cast<std::size_t>(ended);
      if (!start.reference && candidatesInCacheAtFirst == 0) {
        std::string key, error;
        TuningRun run;
        if (TuningCache::readFile(start.cacheFile, &key, &run, &error))
          candidatesInCacheAtFirst = run.candidates.size();
      }
      begun.push_back(start);
    }
    void end() override { ++ended; }
  } watch;
  options_.exhaustive = true;
  const TuningCache cache(directory_.string());
  FakeRunner runner(saxpyLike);
  const TuningRun run = tune(runner, setup_, options_, cache, progress_, &watch);
  ASSERT_EQ(watch.begun.size(), 1 + runner.ran.size());
  EXPECT_EQ(watch.ended, static_cast<int>(watch.begun.size()));
  EXPECT_FALSE(watch.nested);
  EXPECT_TRUE(watch.begun[0].reference);
  EXPECT_EQ(watch.begun[0].candidate, "Explicit");
  EXPECT_EQ(watch.begun[0].boundSeconds, kDefaultReferenceBoundSeconds);
  const double median = run.candidates[*run.explicitIndex()].timing.median;
  for (std::size_t i = 1; i < watch.begun.size(); ++i) {
    EXPECT_FALSE(watch.begun[i].reference);
    EXPECT_EQ(watch.begun[i].candidate, model::describe(runner.ran[i - 1]));
    EXPECT_EQ(watch.begun[i].cacheFile, cache.pathOf(cacheKey(setup_, options_)));
    EXPECT_EQ(watch.begun[i].boundSeconds, candidateTimeBound(options_, median));
  }
  EXPECT_EQ(watch.candidatesInCacheAtFirst, run.candidates.size());
}

TEST_F(TunerTest, PredictOnlyRunsNothingAndKeepsThePrunedSet) {
  const TuningRun run = predictOnly(setup_, options_, 0.2e-3, "given");
  EXPECT_TRUE(run.modelOnly);
  EXPECT_EQ(run.runCount(), 0);
  EXPECT_FALSE(run.winner);
  EXPECT_TRUE(std::any_of(run.candidates.begin(), run.candidates.end(),
                          [](const CandidateOutcome& c) { return c.keptByModel; }));
}

// Pinned and registered memory are both page-locked, but their tunings differ (kernels address
// registered pages slower): one must never be read back as the other's (one tuner process tunes
// both into one cache with --memory pinned,registered).
TEST_F(TunerTest, EachHostMemoryHasItsOwnCacheKey) {
  std::vector<std::string> keys;
  for (const CallMemory memory : kCallMemories) {
    setup_.header.memory = memory;
    keys.push_back(cacheKey(setup_, options_));
  }
  std::sort(keys.begin(), keys.end());
  EXPECT_EQ(std::unique(keys.begin(), keys.end()), keys.end());
}

TEST_F(TunerTest, OutOfCoreTheReportSaysWhatCannotRunAndTheCacheKeyKnowsTheBudget) {
  const std::string inCore = cacheKey(setup_, options_);
  // saxpy's 768 MiB of buffers (x, and y in and out) against a budget of 256 MiB.
  setup_.workload.deviceMemory.fullBytes = 3 * 256.0 * (1 << 20);
  setup_.workload.deviceMemory.budgetBytes = 256.0 * (1 << 20);
  EXPECT_NE(cacheKey(setup_, options_), inCore);
  const TuningRun run = predictOnly(setup_, options_, 0.2e-3, "given");
  EXPECT_TRUE(std::any_of(run.notes.begin(), run.notes.end(), [](const std::string& note) {
    return note.rfind("device memory: Explicit cannot run", 0) == 0;
  }));
  const std::optional<std::size_t> explicitRow = run.explicitIndex();
  ASSERT_TRUE(explicitRow);
  EXPECT_FALSE(run.candidates[*explicitRow].predictedSeconds.has_value());
  for (const CandidateOutcome& c : run.candidates)
    if (c.candidate.variant == Variant::Streams) {
      EXPECT_TRUE(model::fitsDeviceMemory(setup_.workload, c.candidate))
          << model::describe(c.candidate);
    }
}

} // namespace
} // namespace overlap::tune
