// The size benchmark's summary (bench/sizes/SizeSummary.h) on hand-made measurements: geometric
// means and worst ratios against the best per size, per kernel and over all, rows without a time
// left out, and the targets judged.
#include "SizeSummary.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

namespace {

// A row: the best's, K_tuned's and the size-blind choice's seconds (negative: no time).
std::string row(long long value, double best, double tuned, double old) {
  const auto entry = [](const char* name, double s) {
    return std::string("{\"name\": \"") + name + "\"" +
           (s >= 0 ? ", \"s\": " + std::to_string(s) : std::string()) + "}";
  };
  return "{\"value\": " + std::to_string(value) +
         ", \"traffic_bytes\": 1024, \"best\": " + entry("Mapped", best) +
         ", \"tuned\": " + entry("Mapped", tuned) +
         ", \"old\": " + entry("Streams(16, depth-first)", old) + "}";
}

std::string run(const std::string& kernel, const std::vector<std::string>& rows) {
  std::string text = "{\"kernel\": \"" + kernel + "\", \"parameter\": \"n\", \"rows\": [";
  for (std::size_t i = 0; i < rows.size(); ++i)
    text += (i ? ", " : "") + rows[i];
  return text + "]}";
}

TEST(SizeSummary, GeometricMeansAndWorstRatiosPerKernelAndOverAll) {
  overlap::bench::SizeSummary summary;
  std::string error;
  ASSERT_TRUE(overlap::bench::summarizeSizes(
      {run("saxpy", {row(100, 1.0, 1.0, 4.0), row(1000, 2.0, 2.2, 2.0)}),
       run("matmul", {row(10, 1.0, 1.0, 1.0), row(20, 1.0, -1, 1.0)})},
      "title", &summary, &error))
      << error;
  ASSERT_EQ(summary.kernels.size(), 2u);
  const auto& saxpy = summary.kernels[0];
  EXPECT_EQ(saxpy.tuned.count, 2);
  EXPECT_NEAR(saxpy.tuned.geomean, std::sqrt(1.1), 1e-9);
  EXPECT_NEAR(saxpy.tuned.worst, 1.1, 1e-9);
  EXPECT_EQ(saxpy.tuned.worstValue, 1000);
  EXPECT_NEAR(saxpy.old.geomean, 2.0, 1e-9);
  EXPECT_EQ(saxpy.old.worstValue, 100);
  EXPECT_EQ(summary.kernels[1].tuned.count, 1) << "a row without K_tuned's time is left out";
  EXPECT_EQ(summary.kernels[1].tuned.failed, 1) << "and counted as failed";
  // Over all: 1, 1.1, 1 -> geomean 1.1^(1/3), worst 1.1 in saxpy.
  EXPECT_EQ(summary.tuned.count, 3);
  EXPECT_NEAR(summary.tuned.geomean, std::cbrt(1.1), 1e-9);
  EXPECT_EQ(summary.tuned.worstKernel, "saxpy");
  EXPECT_NE(summary.markdown.find("| saxpy | 2 | 0 | 1.049x | 1.100x (1000) | MISSED / met |"),
            std::string::npos)
      << summary.markdown;
  EXPECT_NE(summary.json.find("\"targets_met\": false"), std::string::npos);
}

TEST(SizeSummary, TargetsMetWhenEveryRatioIsWithinThem) {
  overlap::bench::SizeSummary summary;
  std::string error;
  ASSERT_TRUE(
      overlap::bench::summarizeSizes({run("k", {row(1, 1.0, 1.01, 1.5)})}, "t", &summary, &error));
  EXPECT_NE(summary.json.find("\"targets_met\": true"), std::string::npos) << summary.json;
  EXPECT_NE(summary.markdown.find("met / met"), std::string::npos);
}

// Every row of a Markdown table has as many cells as its header (a column added to the rows but
// not to the header shifts every value under the wrong heading).
TEST(SizeSummary, EveryTableRowHasTheHeadersColumns) {
  overlap::bench::SizeSummary summary;
  std::string error;
  ASSERT_TRUE(
      overlap::bench::summarizeSizes({run("k", {row(1, 1.0, 1.01, 1.5)})}, "t", &summary, &error));
  std::istringstream lines(summary.markdown);
  std::string line;
  long headerCells = -1;
  int rows = 0;
  while (std::getline(lines, line)) {
    if (line.empty() || line[0] != '|') {
      headerCells = -1;
      continue;
    }
    const long cells = std::count(line.begin(), line.end(), '|');
    if (headerCells < 0)
      headerCells = cells;
    EXPECT_EQ(cells, headerCells) << line;
    ++rows;
  }
  EXPECT_GE(rows, 6) << summary.markdown;
}

TEST(SizeSummary, AMeasurementThatIsNoJsonIsRefused) {
  overlap::bench::SizeSummary summary;
  std::string error;
  EXPECT_FALSE(
      overlap::bench::summarizeSizes({"{\"rows\": []}", "not json"}, "t", &summary, &error));
  EXPECT_NE(error.find("measurement 2"), std::string::npos) << error;
}

} // namespace
