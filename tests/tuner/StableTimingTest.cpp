#include "tune/StableTiming.h"

#include "tune/FinalRound.h"

#include <gtest/gtest.h>

#include <utility>

namespace overlap::tune {
namespace {

TEST(MeasureUntilStable, SteadySamplesStopAtTheMinimumAfterTheWarmUp) {
  int calls = 0;
  TimingPlan plan;
  plan.warmup = 2;
  plan.minRepeats = 5;
  const TimedSamples result = measureUntilStable(
      [&] {
        ++calls;
        return Sample{calls <= 2 ? 1.0 : 0.01, {}}; // slow warm-up runs are not counted
      },
      plan);
  EXPECT_EQ(calls, 7);
  EXPECT_EQ(result.seconds.size(), 5u);
  EXPECT_TRUE(result.stable);
  EXPECT_DOUBLE_EQ(result.stats.median, 0.01);
}

TEST(MeasureUntilStable, NoisySamplesContinueUpToTheRepeatLimit) {
  int calls = 0;
  TimingPlan plan;
  plan.warmup = 0;
  plan.maxRepeats = 12;
  plan.maxSeconds = 100;
  const TimedSamples result =
      measureUntilStable([&] { return Sample{++calls % 2 ? 0.010 : 0.013, {}}; }, plan);
  EXPECT_EQ(result.seconds.size(), 12u);
  EXPECT_FALSE(result.stable);
  EXPECT_GT(result.stats.iqr(), 0);
}

TEST(MeasureUntilStable, TheTimeBudgetStopsSlowNoisyWork) {
  int calls = 0;
  TimingPlan plan;
  plan.warmup = 0;
  plan.minRepeats = 3;
  plan.maxRepeats = 100;
  plan.maxSeconds = 1.0;
  const TimedSamples result =
      measureUntilStable([&] { return Sample{++calls % 2 ? 0.3 : 0.45, {}}; }, plan);
  EXPECT_LE(result.seconds.size(), 4u);
  EXPECT_GE(result.seconds.size(), 3u);
}

TEST(MeasureUntilStable, TheFinalRoundsTurnTimesAShortCallSeveralTimesAndALongOneOnce) {
  for (const auto& [seconds, timed] : {std::pair{2e-3, 1u}, std::pair{100e-6, 2u}}) {
    int calls = 0;
    const TimedSamples result = measureUntilStable(
        [&] { return Sample{++calls == 1 ? 1.0 : seconds, {}}; }, kFinalRoundTurn);
    EXPECT_EQ(result.seconds.size(), timed) << "one sample says nothing of the spread";
    EXPECT_DOUBLE_EQ(result.stats.median, seconds);
  }
  int calls = 0; // a short call that scatters: up to 1 ms of timed calls
  const TimedSamples scattered = measureUntilStable(
      [&] { return Sample{++calls % 2 ? 100e-6 : 130e-6, {}}; }, kFinalRoundTurn);
  EXPECT_EQ(scattered.seconds.size(), 9u);
  EXPECT_FALSE(scattered.stable);
}

TEST(MeasureUntilStable, AnErrorStopsAndIsReported) {
  int calls = 0;
  const TimedSamples result = measureUntilStable(
      [&] { return ++calls == 4 ? Sample{0, "launch failed"} : Sample{0.01, {}}; }, TimingPlan{});
  EXPECT_EQ(result.error, "launch failed");
  EXPECT_EQ(result.seconds.size(), 2u); // one warm-up, two timed, then the failure
}

} // namespace
} // namespace overlap::tune
