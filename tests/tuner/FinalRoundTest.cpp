// The final round (tuner/tune/FinalRound.h) with scripted timings: which candidates it times
// again, a slow window during the first timings that crowned the wrong candidate undone, a
// candidate failing in the round, the first timing kept in the report, and more rounds for a tie
// the rounds leave uncertain.
#include "tune/FinalRound.h"

#include "CandidateOutcomes.h"
#include "ModelTestProfiles.h"
#include "TunerTestSupport.h"
#include "tune/ReportJson.h"
#include "tune/Tuner.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <functional>
#include <memory>

namespace overlap::tune {
namespace {

CandidateOutcome timed(Variant variant, int streams, double median) {
  return testing::measured({variant, streams}, {median, median, median});
}

TEST(FinalRoundCandidates, TheTiesTheFastestOfEveryFamilyAndTheOthersWithinTheMargin) {
  std::vector<CandidateOutcome> c = {
      timed(Variant::Explicit, 1, 20e-3),  timed(Variant::Mapped, 1, 10.1e-3),
      timed(Variant::Streams, 4, 10.0e-3), timed(Variant::Streams, 8, 10.15e-3),
      timed(Variant::Streams, 16, 12e-3),  timed(Variant::Hybrid, 4, 14e-3),
      timed(Variant::Hybrid, 8, 13e-3)};
  c[4].verification = Verification::WrongResult; // never a finalist
  const WinnerChoice first = chooseWinner(c, NoiseOptions{0.02});
  // Within 2 %: Mapped, Streams(4), Streams(8); then Explicit and the faster Hybrid; then the
  // slower Hybrid, within 50 % of the fastest.
  EXPECT_EQ(finalRoundCandidates(c, first), (std::vector<std::size_t>{0, 1, 2, 3, 5, 6}));
}

TEST(FinalRoundCandidates, AtMostEightTheFastestFirst) {
  std::vector<CandidateOutcome> c = {timed(Variant::Explicit, 1, 30e-3)};
  for (int streams = 1; streams <= 12; ++streams)
    c.push_back(timed(Variant::Streams, streams, (10 + 0.3 * streams) * 1e-3));
  const WinnerChoice first = chooseWinner(c, NoiseOptions{0.02});
  // Streams(1), the fastest; Explicit, its family's fastest; then Streams(2) to (7).
  EXPECT_EQ(finalRoundCandidates(c, first), (std::vector<std::size_t>{0, 1, 2, 3, 4, 5, 6, 7}));
}

TEST(FinalRoundCandidates, NoneWhenOnlyOneCandidateIsUsable) {
  std::vector<CandidateOutcome> c = {timed(Variant::Explicit, 1, 20e-3),
                                     timed(Variant::Mapped, 1, 10e-3)};
  c[1].verification = Verification::Failed;
  EXPECT_TRUE(finalRoundCandidates(c, chooseWinner(c, NoiseOptions{0.02})).empty());
}

// Scripted calls: the seconds of each call in order, per candidate.
class ScriptedRunner final : public CandidateRunner {
public:
  std::function<double(const model::Candidate&, int call)> seconds;
  model::Candidate failing{Variant::Explicit, 0};
  int calls = 0;
  std::vector<model::Candidate> order;

  RunResult runReference(const TimingPlan& plan) override {
    return timed(model::Candidate{}, Verification::Reference, plan);
  }
  int verifiedRuns = 0;

  RunResult runCandidate(const model::Candidate& c, const TimingPlan& plan) override {
    ++verifiedRuns;
    return timeCandidate(c, plan);
  }
  RunResult timeCandidate(const model::Candidate& c, const TimingPlan& plan) override {
    order.push_back(c);
    if (c == failing) {
      ++calls;
      RunResult result;
      result.verification = Verification::Failed;
      result.error = "cudaStreamSynchronize(stream) failed: an illegal memory access";
      return result;
    }
    return timed(c, Verification::Passed, plan);
  }

private:
  RunResult timed(const model::Candidate& c, Verification verification, const TimingPlan& plan) {
    RunResult result;
    result.verification = verification;
    const double s = seconds(c, calls++);
    result.timing = measureUntilStable([&] { return Sample{s, {}}; }, plan);
    return result;
  }
};

TEST(FinalRound, EveryFinalistRunsOncePerRoundInARotatingOrder) {
  std::vector<CandidateOutcome> c = {timed(Variant::Explicit, 1, 20e-3),
                                     timed(Variant::Mapped, 1, 10e-3),
                                     timed(Variant::Streams, 8, 11e-3)};
  ScriptedRunner runner;
  runner.seconds = [](const model::Candidate& k, int) {
    return k.variant == Variant::Streams ? 9e-3 : 10e-3;
  };
  int watched = 0;
  runFinalRound(runner, c, {0, 1, 2}, 3, [&](std::size_t) { ++watched; }, [](std::size_t) {});
  EXPECT_EQ(watched, 9);
  EXPECT_EQ(runner.verifiedRuns, 0) << "the finalists were verified when first timed";
  const auto at = [&](int k) { return model::describe(runner.order[k]); };
  EXPECT_EQ(at(0), "Explicit");
  EXPECT_EQ(at(3), "Mapped") << "the second round starts one later";
  EXPECT_EQ(at(6), "Streams(8, depth-first)");
  for (const CandidateOutcome& outcome : c) {
    EXPECT_EQ(outcome.samples.size(), 3u);
    EXPECT_EQ(outcome.screeningSamples.size(), 3u) << "the first timing is kept";
  }
  EXPECT_DOUBLE_EQ(c[2].timing.median, 9e-3);
  EXPECT_DOUBLE_EQ(c[2].screeningSamples[0], 11e-3);
}

TEST(FinalRound, ACandidateFailingInTheRoundIsRecordedAndCannotWin) {
  std::vector<CandidateOutcome> c = {timed(Variant::Explicit, 1, 20e-3),
                                     timed(Variant::Streams, 8, 9e-3)};
  ScriptedRunner runner;
  runner.seconds = [](const model::Candidate&, int) { return 10e-3; };
  runner.failing = {Variant::Streams, 8};
  runFinalRound(runner, c, {0, 1}, 4, [](std::size_t) {}, [](std::size_t) {});
  EXPECT_EQ(c[1].verification, Verification::Failed);
  EXPECT_NE(c[1].error.find("in the final round: cudaStreamSynchronize"), std::string::npos);
  EXPECT_FALSE(c[1].usable());
  EXPECT_EQ(std::count(runner.order.begin(), runner.order.end(), c[1].candidate), 1)
      << "not run again after it failed";
  EXPECT_EQ(*chooseWinner(c, NoiseOptions{0.02}).winner, 0u);
}

// The tuner's setup for these tests: saxpy on an H100-like profile, every candidate run
// (exhaustive, no warm-up, streamed candidates up to `maxStreams`).
struct ScriptedTuning {
  HardwareProfile profile = model::testing::h100Like();
  std::unique_ptr<model::PerformanceModel> model = model::makeModel(model::ModelKind::Modern);
  TuningSetup setup;
  TunerOptions options;

  explicit ScriptedTuning(int maxStreams) {
    setup.header.kernel = "saxpy";
    setup.header.device = "Fake GPU";
    setup.profile = &profile;
    setup.model = model.get();
    setup.workload = testing::saxpyWorkload();
    options.exhaustive = true;
    options.timing.warmup = 0;
    options.search.maxStreams = maxStreams;
  }
};

// Through the tuner: the link is slow (1.5x) while every candidate after Mapped is first timed,
// and back to normal for the final round. Timed one after the other, Mapped wins; the final
// round, in one window, finds Streams faster.
TEST(FinalRound, UndoesASlowWindowThatCrownedTheWrongCandidate) {
  ScriptedTuning tuning(8);
  const TuningSetup& setup = tuning.setup;
  TunerOptions& options = tuning.options;
  const auto trueSeconds = [](const model::Candidate& k) {
    switch (k.variant) {
    case Variant::Explicit:
      return 15e-3;
    case Variant::Mapped:
      return 12e-3;
    default:
      return 10e-3 + 0.1e-3 * k.streams;
    }
  };
  const auto tuned = [&](int finalRounds) {
    options.finalRounds = finalRounds;
    // Explicit (its first run and its timing are one reference call) and every other candidate.
    int screeningCalls = 0;
    {
      testing::FakeRunner probeRunner(trueSeconds);
      TunerOptions probeOptions = options;
      probeOptions.finalRounds = 0;
      screeningCalls = static_cast<int>(
          tune(probeRunner, setup, probeOptions, TuningCache(""), [](const std::string&) {
          }).candidates.size());
    }
    ScriptedRunner scripted;
    scripted.seconds = [&](const model::Candidate& k, int call) {
      const bool slowWindow = call >= 2 && call < screeningCalls;
      return trueSeconds(k) * (slowWindow ? 1.5 : 1.0);
    };
    return tune(scripted, setup, options, TuningCache(""), [](const std::string&) {});
  };
  const TuningRun sequential = tuned(0);
  ASSERT_TRUE(sequential.winner);
  EXPECT_EQ(sequential.candidates[*sequential.winner].candidate.variant, Variant::Mapped);

  const TuningRun finalRound = tuned(5);
  ASSERT_TRUE(finalRound.winner);
  const CandidateOutcome& winner = finalRound.candidates[*finalRound.winner];
  EXPECT_EQ(winner.candidate.variant, Variant::Streams) << finalRound.winnerReason;
  EXPECT_EQ(winner.samples.size(), 5u);
  EXPECT_FALSE(winner.screeningSamples.empty());
  EXPECT_NE(finalRound.notes.back().find("final round"), std::string::npos);

  // The report keeps both timings.
  TuningRun read;
  std::string error;
  ASSERT_TRUE(fromJsonText(toJsonText(finalRound), &read, &error)) << error;
  EXPECT_EQ(read.candidates[*finalRound.winner].screeningSamples, winner.screeningSamples);
  EXPECT_EQ(read.candidates[*finalRound.winner].samples, winner.samples);
}

// Through the tuner (ScriptedTuning): Mapped takes 10 ms, every streamed candidate 13 ms, and
// Explicit `explicitSeconds(call)` on its call-th run.
TuningRun tuneScripted(const std::function<double(int)>& explicitSeconds) {
  const ScriptedTuning tuning(2);
  ScriptedRunner runner;
  int explicitCalls = 0;
  runner.seconds = [&](const model::Candidate& k, int) {
    if (k.variant == Variant::Explicit)
      return explicitSeconds(explicitCalls++);
    return k.variant == Variant::Mapped ? 10e-3 : 13e-3;
  };
  return tune(runner, tuning.setup, tuning.options, TuningCache(""), [](const std::string&) {});
}

// Explicit's rounds scatter by a factor of 1.6 around 8 % slower than Mapped: within twice the
// standard error of their ratios' median, so Explicit, simpler, would win by default.
double scattered(int call) {
  constexpr double kFactors[] = {0.9, 1.08, 1.45};
  return 10.8e-3 * (call == 0 ? 1.0 : kFactors[call % 3]);
}

TEST(FinalRound, MoreRoundsSettleATieTheRoundsLeftUncertain) {
  // The scatter lasts the first 7 rounds (and the reference run before them); 7 more at a steady
  // 8 % behind Mapped settle it.
  const TuningRun run =
      tuneScripted([](int call) { return call <= 7 ? scattered(call) : 10.8e-3; });
  ASSERT_TRUE(run.winner);
  const CandidateOutcome& winner = run.candidates[*run.winner];
  EXPECT_EQ(winner.candidate.variant, Variant::Mapped) << run.winnerReason;
  EXPECT_EQ(winner.samples.size(), 14u);
  EXPECT_NE(run.notes.back().find("14 interleaved rounds"), std::string::npos) << run.notes.back();
}

TEST(FinalRound, MoreRoundsStopAtThreeTimesTheAskedOnesAndTheFastestIsKept) {
  // The scatter never ends: 21 rounds, the tie is never settled, and Mapped, 8 % faster by the
  // rounds' median, wins rather than Explicit, simpler.
  const TuningRun run = tuneScripted([](int call) {
    return 10.8e-3 / 1.08 *
           (call == 0 ? 1.08
                      : std::array<double, 3>{0.7, 1.08, 2.0}[static_cast<std::size_t>(call % 3)]);
  });
  ASSERT_TRUE(run.winner);
  const CandidateOutcome& winner = run.candidates[*run.winner];
  EXPECT_EQ(winner.candidate.variant, Variant::Mapped) << run.winnerReason;
  EXPECT_NE(run.winnerReason.find("Explicit, simpler, tied it only within the rounds' uncertainty"),
            std::string::npos)
      << run.winnerReason;
  EXPECT_EQ(winner.samples.size(), static_cast<std::size_t>(kMostFinalRounds * 7));
  EXPECT_NE(run.notes.back().find("21 interleaved rounds"), std::string::npos) << run.notes.back();
}

} // namespace
} // namespace overlap::tune
