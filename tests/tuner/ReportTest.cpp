#include "CandidateOutcomes.h"

#include "tune/ConsoleSummary.h"
#include "tune/ReportJson.h"
#include "tune/ReportMarkdown.h"
#include "tune/ReportTable.h"
#include "tune/SvgPlot.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

namespace overlap::tune {
namespace {

CandidateOutcome outcome(model::Candidate candidate, std::optional<double> predicted,
                         std::vector<double> samples, Verification verification) {
  CandidateOutcome c = testing::outcomeOf(candidate, verification, std::move(samples));
  c.predictedSeconds = predicted;
  c.keptByModel = true;
  return c;
}

TuningRun sampleRun() {
  TuningRun run;
  run.kernel = "saxpy";
  run.sourceFile = "saxpy.cu";
  run.sourceLine = 10;
  run.arguments = {{"n", 67108864}};
  run.device = "NVIDIA H200";
  run.profileName = "h200";
  run.profileOrigin = "/tmp/h200.json";
  run.modelName = "modern";
  run.date = "2026-11-21";
  run.noise = 0.02;
  run.kernelSeconds = 0.3e-3;
  run.kernelSecondsSource = "inferred";
  run.notes = {"a note"};
  run.candidates = {
      outcome({Variant::Explicit, 1}, 14.8e-3, {14.8e-3, 14.9e-3, 14.7e-3},
              Verification::Reference),
      outcome({Variant::Mapped, 1}, 10.0e-3, {10.86e-3, 10.9e-3, 10.8e-3}, Verification::Passed),
      outcome({Variant::Streams, 8}, 10.2e-3, {10.0e-3, 10.1e-3, 10.0e-3}, Verification::Passed),
      outcome({Variant::Streams, 16, IssueOrder::BreadthFirst}, 10.3e-3, {}, Verification::Failed),
      outcome({Variant::Hybrid, 4, IssueOrder::DepthFirst, PageableMode::Stage}, 11e-3, {},
              Verification::NotRun)};
  run.candidates[3].error = "launch failed";
  run.candidates[4].keptByModel = false;
  run.candidates[1].predictedIsLowerBound = true;
  run.winner = 2;
  run.withinNoise = {2};
  run.winnerReason = "Streams(8, depth-first) has the smallest median";
  run.wallSeconds = 1.5;
  run.complete = true;
  return run;
}

TEST(ReportJson, RoundTripsEveryField) {
  const TuningRun run = sampleRun();
  TuningRun back;
  std::string error;
  ASSERT_TRUE(fromJsonText(toJsonText(run), &back, &error)) << error;
  EXPECT_EQ(back.kernel, run.kernel);
  EXPECT_EQ(back.arguments, run.arguments);
  EXPECT_EQ(back.device, run.device);
  ASSERT_EQ(back.candidates.size(), run.candidates.size());
  for (std::size_t i = 0; i < run.candidates.size(); ++i) {
    EXPECT_EQ(back.candidates[i].candidate, run.candidates[i].candidate);
    EXPECT_EQ(back.candidates[i].verification, run.candidates[i].verification);
    EXPECT_EQ(back.candidates[i].samples, run.candidates[i].samples);
    EXPECT_EQ(back.candidates[i].predictedSeconds, run.candidates[i].predictedSeconds);
    EXPECT_EQ(back.candidates[i].predictedIsLowerBound, run.candidates[i].predictedIsLowerBound);
    EXPECT_EQ(back.candidates[i].error, run.candidates[i].error);
  }
  EXPECT_EQ(back.winner, run.winner);
  EXPECT_EQ(back.notes, run.notes);
  EXPECT_EQ(toJsonText(back), toJsonText(run));
}

TEST(ReportJson, TheHostMemoryRoundTripsAndOlderReportsReadItFromPinnedInputs) {
  for (const CallMemory memory : kCallMemories) {
    TuningRun run = sampleRun();
    run.memory = memory;
    TuningRun back;
    std::string error;
    ASSERT_TRUE(fromJsonText(toJsonText(run), &back, &error)) << error;
    EXPECT_EQ(back.memory, memory) << to_string(memory);
  }
  TuningRun run = sampleRun();
  run.memory = CallMemory::Pageable;
  std::string text = toJsonText(run);
  const std::size_t at = text.find("\"memory\": \"pageable\",");
  ASSERT_NE(at, std::string::npos) << text;
  text.erase(at, std::string("\"memory\": \"pageable\",").size());
  TuningRun back;
  std::string error;
  ASSERT_TRUE(fromJsonText(text, &back, &error)) << error;
  EXPECT_EQ(back.memory, CallMemory::Pageable);
  text = toJsonText(sampleRun());
  text.replace(text.find("\"pinned\""), 8, "\"unified\"");
  EXPECT_FALSE(fromJsonText(text, &back, &error));
  EXPECT_NE(error.find("settings.memory"), std::string::npos) << error;
}

TEST(ReportJson, AReportWithoutTheLowerBoundFlagReadsAsExactPredictions) {
  TuningRun run = sampleRun();
  std::string text = toJsonText(run);
  for (std::size_t at; (at = text.find("\"predicted_is_lower_bound\"")) != std::string::npos;)
    text.erase(at, text.find(',', at) + 1 - at);
  TuningRun back;
  std::string error;
  ASSERT_TRUE(fromJsonText(text, &back, &error)) << error;
  for (const CandidateOutcome& c : back.candidates)
    EXPECT_FALSE(c.predictedIsLowerBound) << model::describe(c.candidate);
}

// sampleRun with Streams(4, 32 chunks, depth-first) run and the winner.
TuningRun chunkedWinner() {
  TuningRun run = sampleRun();
  model::Candidate chunked{Variant::Streams, 4};
  chunked.chunks = 32;
  run.candidates.push_back(
      outcome(chunked, 9.5e-3, {9.6e-3, 9.7e-3, 9.6e-3}, Verification::Passed));
  run.winner = run.candidates.size() - 1;
  run.withinNoise = {*run.winner};
  run.winnerReason = "Streams(4, 32 chunks, depth-first) has the smallest median";
  return run;
}

TEST(ReportJson, ChunkCountsRoundTripAndOlderReportsReadAsOnePerStream) {
  const TuningRun run = chunkedWinner();
  const std::string text = toJsonText(run);
  EXPECT_NE(text.find("\"chunks\": 32"), std::string::npos);
  EXPECT_NE(text.find("\"winner_name\": \"Streams(4, 32 chunks, depth-first)\""),
            std::string::npos);
  TuningRun back;
  std::string error;
  ASSERT_TRUE(fromJsonText(text, &back, &error)) << error;
  EXPECT_EQ(back.candidates.back().candidate.chunks, 32);
  EXPECT_EQ(back.candidates.back().candidate, run.candidates.back().candidate);
  // Reports from before chunk counts have no "chunks": one per stream.
  std::string older = toJsonText(sampleRun());
  for (std::size_t at; (at = older.find("\"chunks\"")) != std::string::npos;)
    older.erase(at, older.find('\n', at) - at);
  ASSERT_TRUE(fromJsonText(older, &back, &error)) << error;
  for (const CandidateOutcome& c : back.candidates)
    EXPECT_EQ(c.candidate.chunks, 0) << model::describe(c.candidate);
  // Negative chunks are refused with the field.
  std::string negative = text;
  negative.replace(negative.find("\"chunks\": 32"), 12, "\"chunks\": -3");
  EXPECT_FALSE(fromJsonText(negative, &back, &error));
  EXPECT_NE(error.find("candidates[5].chunks: is negative"), std::string::npos) << error;
}

TEST(ReportJson, StagingThreadsRoundTripAndAreWrittenOnlyWhereACandidateHasItsOwn) {
  TuningRun run = sampleRun();
  // Automatic threads everywhere: no field, as reports were.
  EXPECT_EQ(toJsonText(run).find("\"staging_threads\""), std::string::npos);
  model::Candidate staged{Variant::Streams, 8, IssueOrder::DepthFirst, PageableMode::Stage};
  staged.staging.threads = 12;
  run.candidates.push_back(outcome(staged, 9.5e-3, {9.6e-3, 9.7e-3}, Verification::Passed));
  const std::string text = toJsonText(run);
  EXPECT_NE(text.find("\"staging_threads\": 12"), std::string::npos) << text;
  TuningRun back;
  std::string error;
  ASSERT_TRUE(fromJsonText(text, &back, &error)) << error;
  EXPECT_EQ(back.candidates.back().candidate, staged);
  EXPECT_EQ(back.candidates.back().candidate.staging.threads, 12);
  for (std::size_t i = 0; i + 1 < back.candidates.size(); ++i)
    EXPECT_EQ(back.candidates[i].candidate.staging.threads, 0) << i;
  // A negative count or a fraction is refused with the field.
  std::string negative = text;
  negative.replace(negative.find("\"staging_threads\": 12"), 21, "\"staging_threads\": -1");
  EXPECT_FALSE(fromJsonText(negative, &back, &error));
  EXPECT_NE(error.find("candidates[5].staging_threads: is negative"), std::string::npos) << error;
  std::string fraction = text;
  fraction.replace(fraction.find("\"staging_threads\": 12"), 21, "\"staging_threads\": 1.5");
  EXPECT_FALSE(fromJsonText(fraction, &back, &error));
  EXPECT_NE(error.find("candidates[5].staging_threads: has the wrong type"), std::string::npos)
      << error;
}

TEST(ReportMarkdown, ChunkCountsAreNamedInTheTablesThePlotAndTheSummary) {
  const TuningRun run = chunkedWinner();
  const std::string markdown = renderMarkdown(run, "saxpy.tuning.svg");
  EXPECT_NE(markdown.find("**Streams(4, 32 chunks, depth-first)**"), std::string::npos);
  EXPECT_NE(markdown.find("| Streams(4, 32 chunks, depth-first) |"), std::string::npos);
  std::ostringstream console;
  printConsoleSummary(console, run);
  EXPECT_NE(console.str().find("winner Streams(4, 32 chunks, depth-first)"), std::string::npos)
      << console.str();
  const std::string svg = renderSvgPlot(run);
  EXPECT_NE(svg.find("Streams, depth-first, 8 chunks/stream"), std::string::npos);
  EXPECT_NE(svg.find("winner: Streams(4, 32 chunks, depth-first)"), std::string::npos);
}

TEST(ReportTable, MarksALowerBoundPrediction) {
  const ReportTable table = candidateTable(sampleRun(), false);
  ASSERT_GE(table.rows.size(), 3u);
  EXPECT_EQ(table.rows[1][1].rfind(">= ", 0), 0u) << table.rows[1][1]; // Mapped, a lower bound
  EXPECT_EQ(table.rows[2][1].find(">="), std::string::npos) << table.rows[2][1];
}

TEST(ReportJson, RejectsOtherSchemasAndVersions) {
  TuningRun run;
  std::string error;
  EXPECT_FALSE(fromJsonText("{\"schema\": \"something else\"}", &run, &error));
  EXPECT_NE(error.find("not an overlap tuning report"), std::string::npos);
  std::string text = toJsonText(sampleRun());
  text.replace(text.find("\"schema_version\": 1"), 19, "\"schema_version\": 9");
  EXPECT_FALSE(fromJsonText(text, &run, &error));
  EXPECT_NE(error.find("version 9"), std::string::npos) << error;
}

// A report that was cut short or edited is refused with the field that is wrong, by its path.
TEST(ReportJson, ACorruptReportNamesTheField) {
  const std::string good = toJsonText(sampleRun());
  const auto replaced = [&](const std::string& from, const std::string& to) {
    std::string text = good;
    const std::size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return at == std::string::npos ? text : text.replace(at, from.size(), to);
  };
  struct Case {
    const char* what;
    std::string text;
    std::string expected;
  };
  const std::vector<Case> cases = {
      {"empty", "", "not JSON"},
      {"truncated", good.substr(0, good.size() * 2 / 3), "not JSON"},
      {"foreign JSON", R"({"entries": []})", "not an overlap tuning report"},
      {"a JSON string", R"("overlap-tuning-report")", "not an overlap tuning report"},
      {"a field of the wrong type", replaced("\"noise\": 0.02", "\"noise\": \"0.02\""),
       "settings.noise: has the wrong type (string)"},
      {"a missing field", replaced("\"kept_by_model\": true", "\"kept\": true"),
       "candidates[0].kept_by_model: missing"},
      {"a sample of the wrong type", replaced("\"samples_s\": [\n", "\"samples_s\": [\"x\",\n"),
       "candidates[0].timing.samples_s: has the wrong type"},
      {"an unknown order", replaced("\"order\": \"breadth-first\"", "\"order\": \"sideways\""),
       "candidates[3].order: unknown issue order \"sideways\""},
      {"a winner out of range", replaced("\"winner\": 2", "\"winner\": 7"),
       "winner: index 7 out of range"},
  };
  for (const Case& c : cases) {
    TuningRun run;
    std::string error;
    EXPECT_FALSE(fromJsonText(c.text, &run, &error)) << c.what;
    EXPECT_NE(error.find(c.expected), std::string::npos) << c.what << ": " << error;
  }
}

TEST(ReportTable, SpeedupAndModelErrorAreComputedFromTheMedians) {
  const TuningRun run = sampleRun();
  const ReportTable table = candidateTable(run, false);
  ASSERT_EQ(table.rows.size(), 5u);
  EXPECT_EQ(table.rows[2][5], "1.48x");  // 14.8 / 10.0
  EXPECT_EQ(table.rows[2][6], "+2.0 %"); // 10.2 against 10.0
  EXPECT_NE(table.rows[2][7].find("WINNER"), std::string::npos);
  EXPECT_EQ(table.rows[4][7], "pruned");
  EXPECT_EQ(candidateTable(run, true).rows.size(), 4u);
  const std::vector<AccuracyRow> accuracy = modelAccuracy(run);
  ASSERT_EQ(accuracy.size(), 3u); // Explicit, Mapped, Streams
  EXPECT_EQ(accuracy[1].variant, Variant::Mapped);
  EXPECT_NEAR(accuracy[1].maxError, 0.86 / 10.86, 1e-9);
}

TEST(ReportMarkdown, NamesTheWinnerTheSpeedupTheMemoryAndThePlot) {
  const std::string text = renderMarkdown(sampleRun(), "saxpy.tuning.svg");
  EXPECT_NE(text.find("**Streams(8, depth-first)**"), std::string::npos);
  EXPECT_NE(text.find("1.48x faster than Explicit"), std::string::npos) << text;
  EXPECT_NE(text.find("pinned (page-locked)"), std::string::npos);
  EXPECT_NE(text.find("launch failed"), std::string::npos);
  EXPECT_NE(text.find("](saxpy.tuning.svg)"), std::string::npos);
  EXPECT_EQ(text.find("Nothing was run"), std::string::npos);
}

TEST(ReportMarkdown, AModelOnlyReportSaysPlainlyThatNothingRan) {
  TuningRun run = sampleRun();
  run.modelOnly = true;
  run.device.clear();
  EXPECT_NE(renderMarkdown(run, "").find("**Nothing was run** (no GPU)"), std::string::npos);
}

TEST(SvgPlot, DrawsPredictedAndMeasuredSeriesAndMarksTheWinner) {
  const std::string svg = renderSvgPlot(sampleRun());
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
  EXPECT_NE(svg.find("winner: Streams(8, depth-first)"), std::string::npos);
  EXPECT_NE(svg.find("stroke-dasharray"), std::string::npos); // predicted
  EXPECT_NE(svg.find("Explicit (baseline)"), std::string::npos);
}

TEST(ConsoleSummary, ListsTheRunCandidatesAndTheWinner) {
  std::ostringstream out;
  printConsoleSummary(out, sampleRun());
  const std::string text = out.str();
  EXPECT_NE(text.find("winner Streams(8, depth-first) (10.000 ms, 1.48x over Explicit)"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("Hybrid"), std::string::npos); // pruned, not run
}

} // namespace
} // namespace overlap::tune
