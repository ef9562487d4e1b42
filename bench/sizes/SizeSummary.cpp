#include "SizeSummary.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <sstream>

namespace overlap::bench {
namespace {

using nlohmann::json;

// Sums of logarithms, folded into geometric means at the end.
struct RatioAccumulator {
  RatioStats stats;
  double logSum = 0;
  void add(double ratio, long long value, const std::string& kernel) {
    ++stats.count;
    logSum += std::log(ratio);
    if (ratio > stats.worst) {
      stats.worst = ratio;
      stats.worstValue = value;
      stats.worstKernel = kernel;
    }
  }
  RatioStats done() const {
    RatioStats out = stats;
    out.geomean = stats.count > 0 ? std::exp(logSum / stats.count) : 0;
    return out;
  }
};

std::optional<double> secondsAt(const json& row, const char* key) {
  if (!row.contains(key) || !row.at(key).is_object() || !row.at(key).contains("s") ||
      !row.at(key).at("s").is_number())
    return std::nullopt;
  return row.at(key).at("s").get<double>();
}

std::string fixed(double value, const char* format) {
  char text[32];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

std::string bytesText(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB"};
  int unit = 0;
  while (bytes >= 1024 && unit < 3) {
    bytes /= 1024;
    ++unit;
  }
  return fixed(bytes, "%.3g") + " " + units[unit];
}

std::string verdict(const RatioStats& stats) {
  return std::string(stats.geomean <= kGeomeanTarget ? "met" : "MISSED") + " / " +
         (stats.worst <= kWorstTarget && stats.failed == 0 ? "met" : "MISSED");
}

json statsJson(const RatioStats& stats) {
  return {{"count", stats.count},
          {"failed", stats.failed},
          {"geomean", stats.geomean},
          {"worst", stats.worst},
          {"worst_value", stats.worstValue},
          {"worst_kernel", stats.worstKernel}};
}

SizeSummary summarize(const std::vector<json>& runs) {
  SizeSummary summary;
  RatioAccumulator allTuned, allOld;
  for (const json& run : runs) {
    KernelSummary kernel;
    kernel.kernel = run.value("kernel", "?");
    kernel.parameter = run.value("parameter", "?");
    RatioAccumulator tuned, old;
    for (const json& row : run.value("rows", json::array())) {
      const std::optional<double> best = secondsAt(row, "best");
      if (!best || *best <= 0)
        continue;
      const long long value = row.value("value", 0LL);
      if (const std::optional<double> t = secondsAt(row, "tuned")) {
        tuned.add(*t / *best, value, kernel.kernel);
        allTuned.add(*t / *best, value, kernel.kernel);
      } else {
        ++tuned.stats.failed;
        ++allTuned.stats.failed;
      }
      if (const std::optional<double> o = secondsAt(row, "old")) {
        old.add(*o / *best, value, kernel.kernel);
        allOld.add(*o / *best, value, kernel.kernel);
      } else if (row.contains("old")) {
        ++old.stats.failed;
        ++allOld.stats.failed;
      }
    }
    kernel.tuned = tuned.done();
    kernel.old = old.done();
    summary.kernels.push_back(kernel);
  }
  summary.tuned = allTuned.done();
  summary.old = allOld.done();
  return summary;
}

std::string summaryMarkdown(const SizeSummary& summary, const std::vector<json>& runs,
                            const std::string& title) {
  std::ostringstream out;
  out << "# " << title << "\n\n"
      << "K_tuned at call sizes between and beyond the tuned ones, against the best measured at "
         "each size, and the size-blind choice (one tuning at the annotation's tune() size). At "
         "every size Explicit, Mapped and a grid of Streams and Hybrid stream counts and orders "
         "are timed; then K_tuned, the size-blind choice and the grid's three fastest again in 7 "
         "interleaved rounds, and the times below are those rounds' medians. Targets (issue 19): "
         "geometric mean <= "
      << fixed(kGeomeanTarget, "%.2f") << "x, worst <= " << fixed(kWorstTarget, "%.2f")
      << "x.\n\n## At a glance\n\n| kernel | sizes | failed | K_tuned geomean | K_tuned worst (at) "
         "| "
         "targets | size-blind geomean | size-blind worst (at) |\n"
         "| --- | --- | --- | --- | --- | --- | --- | --- |\n";
  const auto line = [&](const std::string& name, const RatioStats& tuned, const RatioStats& old) {
    out << "| " << name << " | " << tuned.count << " | " << tuned.failed << " | "
        << fixed(tuned.geomean, "%.3fx") << " | " << fixed(tuned.worst, "%.3fx") << " ("
        << tuned.worstValue << ") | " << verdict(tuned) << " | " << fixed(old.geomean, "%.3fx")
        << " | " << fixed(old.worst, "%.3fx") << " (" << old.worstValue << ") |\n";
  };
  for (const KernelSummary& kernel : summary.kernels)
    line(kernel.kernel, kernel.tuned, kernel.old);
  line("**all**", summary.tuned, summary.old);

  for (const json& run : runs) {
    out << "\n## " << run.value("kernel", "?") << " over " << run.value("parameter", "?") << "\n\n"
        << "| " << run.value("parameter", "?")
        << " | traffic | best | best [ms] | K_tuned | [ms] | x best | size-blind | [ms] | x best "
           "|\n| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n";
    for (const json& row : run.value("rows", json::array())) {
      const auto cell = [&](const char* key) {
        const std::optional<double> s = secondsAt(row, key);
        const std::string name =
            row.contains(key) && row.at(key).is_object() ? row.at(key).value("name", "-") : "-";
        return name + " | " + (s ? fixed(*s * 1e3, "%.4g") : std::string("-"));
      };
      const std::optional<double> best = secondsAt(row, "best");
      const auto ratio = [&](const char* key) {
        const std::optional<double> s = secondsAt(row, key);
        return s && best && *best > 0 ? fixed(*s / *best, "%.3fx") : std::string("-");
      };
      out << "| " << row.value("value", 0LL) << " | " << bytesText(row.value("traffic_bytes", 0.0))
          << " | " << cell("best") << " | " << cell("tuned") << " | " << ratio("tuned") << " | "
          << cell("old") << " | " << ratio("old") << " |\n";
    }
  }
  return out.str();
}

json summaryJson(const SizeSummary& summary, const std::vector<json>& runs) {
  json kernels = json::array();
  for (const KernelSummary& kernel : summary.kernels)
    kernels.push_back({{"kernel", kernel.kernel},
                       {"parameter", kernel.parameter},
                       {"tuned", statsJson(kernel.tuned)},
                       {"size_blind", statsJson(kernel.old)}});
  return {{"schema", "overlap-size-benchmark"},
          {"schema_version", 1},
          {"targets", {{"geomean", kGeomeanTarget}, {"worst", kWorstTarget}}},
          {"tuned", statsJson(summary.tuned)},
          {"size_blind", statsJson(summary.old)},
          {"targets_met", summary.tuned.geomean <= kGeomeanTarget &&
                              summary.tuned.worst <= kWorstTarget && summary.tuned.failed == 0},
          {"kernels", kernels},
          {"runs", runs}};
}

} // namespace

bool summarizeSizes(const std::vector<std::string>& runs, const std::string& title,
                    SizeSummary* summary, std::string* error) {
  std::vector<json> parsed;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    try {
      parsed.push_back(json::parse(runs[i]));
    } catch (const std::exception& e) {
      *error = "measurement " + std::to_string(i + 1) + ": " + e.what();
      return false;
    }
    if (!parsed.back().is_object() || !parsed.back().contains("rows")) {
      *error = "measurement " + std::to_string(i + 1) + ": no rows";
      return false;
    }
  }
  *summary = summarize(parsed);
  summary->markdown = summaryMarkdown(*summary, parsed, title);
  summary->json = summaryJson(*summary, parsed).dump(2) + "\n";
  return true;
}

} // namespace overlap::bench
