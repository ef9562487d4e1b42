#include "tune/winner_choice.h"

#include <gtest/gtest.h>

namespace overlap::tune {
namespace {

CandidateOutcome timed(Variant variant, int streams, double median, double spread = 0,
                       IssueOrder order = IssueOrder::DepthFirst) {
  CandidateOutcome c;
  c.candidate = {variant, streams, order};
  c.run = true;
  c.verification = variant == Variant::Explicit ? Verification::Reference : Verification::Passed;
  c.samples = {median - spread, median - spread / 2, median, median + spread / 2, median + spread};
  c.timing = summarize(c.samples);
  return c;
}

TEST(Simpler, OrdersVariantsThenStreamsThenIssueOrder) {
  EXPECT_TRUE(simpler({Variant::Explicit, 1}, {Variant::Mapped, 1}));
  EXPECT_TRUE(simpler({Variant::Mapped, 1}, {Variant::Streams, 2}));
  EXPECT_TRUE(simpler({Variant::Streams, 64}, {Variant::Hybrid, 2}));
  EXPECT_TRUE(simpler({Variant::Streams, 4}, {Variant::Streams, 8}));
  EXPECT_TRUE(simpler({Variant::Streams, 8, IssueOrder::DepthFirst},
                      {Variant::Streams, 8, IssueOrder::BreadthFirst}));
  EXPECT_FALSE(simpler({Variant::Streams, 8}, {Variant::Streams, 8}));
}

TEST(ChooseWinner, ClearlyFastestWins) {
  const std::vector<CandidateOutcome> candidates = {timed(Variant::Explicit, 1, 14.8e-3),
                                                    timed(Variant::Mapped, 1, 12.0e-3),
                                                    timed(Variant::Streams, 8, 10.7e-3)};
  const WinnerChoice choice = choose_winner(candidates, NoiseOptions{0.02});
  ASSERT_TRUE(choice.winner);
  EXPECT_EQ(*choice.winner, 2u);
  EXPECT_EQ(choice.within_noise, std::vector<std::size_t>{2});
}

TEST(ChooseWinner, WithinNoiseTheSimplerCandidateWinsAndTheReasonSaysSo) {
  // Mapped is 1.1 % slower than Streams(8): within 2 % noise, and simpler.
  const std::vector<CandidateOutcome> candidates = {
      timed(Variant::Explicit, 1, 14.80e-3), timed(Variant::Streams, 16, 10.75e-3),
      timed(Variant::Mapped, 1, 10.86e-3), timed(Variant::Streams, 8, 10.74e-3)};
  const WinnerChoice choice = choose_winner(candidates, NoiseOptions{0.02});
  ASSERT_TRUE(choice.winner && choice.fastest);
  EXPECT_EQ(*choice.fastest, 3u);
  EXPECT_EQ(*choice.winner, 2u);
  EXPECT_EQ(choice.within_noise.size(), 3u);
  EXPECT_NE(choice.reason.find("within measurement noise"), std::string::npos) << choice.reason;
}

TEST(ChooseWinner, AmongEqualStreamedCandidatesFewerStreamsWin) {
  const std::vector<CandidateOutcome> candidates = {
      timed(Variant::Explicit, 1, 20e-3), timed(Variant::Streams, 32, 10.0e-3),
      timed(Variant::Streams, 16, 10.05e-3), timed(Variant::Hybrid, 4, 9.99e-3)};
  const WinnerChoice choice = choose_winner(candidates, NoiseOptions{0.02});
  ASSERT_TRUE(choice.winner);
  EXPECT_EQ(candidates[*choice.winner].candidate.streams, 16);
  EXPECT_EQ(candidates[*choice.winner].candidate.variant, Variant::Streams);
}

TEST(ChooseWinner, ZeroNoiseKeepsTheFastest) {
  const std::vector<CandidateOutcome> candidates = {timed(Variant::Mapped, 1, 10.1e-3),
                                                    timed(Variant::Streams, 8, 10.0e-3)};
  const WinnerChoice choice = choose_winner(candidates, NoiseOptions{0});
  EXPECT_EQ(*choice.winner, 1u);
}

TEST(ChooseWinner, ACandidatesOwnSpreadWidensTheNoise) {
  // 5 % apart, beyond the 2 % noise, but the fast one's interquartile range is 8 %.
  const std::vector<CandidateOutcome> candidates = {timed(Variant::Mapped, 1, 10.5e-3),
                                                    timed(Variant::Streams, 8, 10.0e-3, 0.8e-3)};
  const WinnerChoice choice = choose_winner(candidates, NoiseOptions{0.02});
  EXPECT_EQ(*choice.winner, 0u);
}

TEST(ChooseWinner, FailedAndWrongCandidatesNeverWin) {
  std::vector<CandidateOutcome> candidates = {timed(Variant::Explicit, 1, 15e-3),
                                              timed(Variant::Streams, 8, 5e-3),
                                              timed(Variant::Hybrid, 8, 4e-3)};
  candidates[1].verification = Verification::WrongResult;
  candidates[2].verification = Verification::Failed;
  const WinnerChoice choice = choose_winner(candidates, NoiseOptions{});
  EXPECT_EQ(*choice.winner, 0u);
}

TEST(ChooseWinner, NothingUsableMeansNoWinner) {
  std::vector<CandidateOutcome> candidates = {timed(Variant::Explicit, 1, 15e-3)};
  candidates[0].verification = Verification::Failed;
  const WinnerChoice choice = choose_winner(candidates, NoiseOptions{});
  EXPECT_FALSE(choice.winner);
  EXPECT_FALSE(choice.reason.empty());
}

} // namespace
} // namespace overlap::tune
