#include "tune/SvgPlot.h"

#include "tune/SvgCanvas.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

namespace overlap::tune {
namespace {

constexpr double kWidth = 760, kHeight = 440;
constexpr double kLeft = 70, kRight = 190, kTop = 30, kBottom = 50;

struct Series {
  std::string label;
  std::string color;
  std::vector<std::pair<int, double>> predicted; // streams, seconds
  std::vector<std::pair<int, double>> measured;
};

class Axes {
public:
  Axes(int maxStreams, double maxSeconds)
      : maxLog_(std::max(1.0, std::log2(std::max(1, maxStreams)))), maxMs_(maxSeconds * 1e3) {}
  double x(int streams) const {
    return kLeft + (kWidth - kLeft - kRight) * std::log2(std::max(1, streams)) / maxLog_;
  }
  double y(double seconds) const {
    return kHeight - kBottom - (kHeight - kTop - kBottom) * (seconds * 1e3) / maxMs_;
  }
  double maxMs() const { return maxMs_; }
  int maxLog() const { return static_cast<int>(std::ceil(maxLog_)); }

private:
  double maxLog_;
  double maxMs_;
};

// Chunks per stream of a streamed candidate: 1 for one per stream (chunks 0).
int chunksPerStream(const model::Candidate& c) {
  return c.chunks > 0 ? std::max(1, c.chunks / std::max(1, c.streams)) : 1;
}

// `color` ("#rrggbb") mixed towards white by `fraction`: a variant's curves of more chunks per
// stream in paler shades of its colour.
std::string paler(const std::string& color, double fraction) {
  char text[8];
  int rgb[3];
  for (int i = 0; i < 3; ++i) {
    const int channel = std::stoi(color.substr(1 + 2 * i, 2), nullptr, 16);
    rgb[i] = channel + static_cast<int>((255 - channel) * fraction);
  }
  std::snprintf(text, sizeof text, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
  return text;
}

void polyline(std::ostringstream& out, const Axes& axes,
              const std::vector<std::pair<int, double>>& points, const std::string& color,
              bool dashed) {
  std::vector<std::pair<double, double>> pixels;
  for (const auto& [streams, seconds] : points)
    pixels.emplace_back(axes.x(streams), axes.y(seconds));
  svgPolyline(out, pixels, color, dashed);
}

} // namespace

std::string renderSvgPlot(const TuningRun& run) {
  // (variant, order, chunks per stream) -> series
  std::map<std::tuple<int, int, int>, Series> streamed;
  double maxSeconds = 0;
  int maxStreams = 2;
  std::optional<double> explicitMeasured, explicitPredicted, mappedMeasured, mappedPredicted;
  for (const CandidateOutcome& c : run.candidates) {
    const double measured = c.usable() ? c.timing.median : 0;
    if (c.predictedSeconds)
      maxSeconds = std::max(maxSeconds, *c.predictedSeconds);
    maxSeconds = std::max(maxSeconds, measured);
    if (c.candidate.variant == Variant::Explicit || c.candidate.variant == Variant::Mapped) {
      const bool isExplicit = c.candidate.variant == Variant::Explicit;
      (isExplicit ? explicitPredicted : mappedPredicted) = c.predictedSeconds;
      if (c.usable())
        (isExplicit ? explicitMeasured : mappedMeasured) = measured;
      continue;
    }
    maxStreams = std::max(maxStreams, c.candidate.streams);
    const int perStream = chunksPerStream(c.candidate);
    Series& series = streamed[{static_cast<int>(c.candidate.variant),
                               static_cast<int>(c.candidate.order), perStream}];
    series.label = std::string(model::to_string(c.candidate.variant)) + ", " +
                   model::to_string(c.candidate.order) +
                   (perStream > 1 ? ", " + std::to_string(perStream) + " chunks/stream" : "");
    series.color = paler(variantColor(c.candidate.variant, c.candidate.order),
                         std::min(0.75, 0.25 * std::log2(perStream)));
    if (c.predictedSeconds)
      series.predicted.emplace_back(c.candidate.streams, *c.predictedSeconds);
    if (c.usable())
      series.measured.emplace_back(c.candidate.streams, measured);
  }
  if (maxSeconds <= 0)
    maxSeconds = 1e-3;
  const Axes axes(maxStreams, maxSeconds * 1.1);

  std::ostringstream out;
  out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << kWidth << "\" height=\"" << kHeight
      << "\" font-family=\"sans-serif\" font-size=\"12\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      << "<text x=\"" << kLeft << "\" y=\"18\" font-size=\"14\">" << svgEscape(run.kernel)
      << ": time of the whole call against stream count (dashed: predicted, solid: measured)"
      << "</text>\n";
  // Axes with ticks at the powers of two and at fifths of the time range.
  const double x0 = kLeft, x1 = kWidth - kRight, y0 = kHeight - kBottom, y1 = kTop;
  out << "<line x1=\"" << x0 << "\" y1=\"" << y0 << "\" x2=\"" << x1 << "\" y2=\"" << y0
      << "\" stroke=\"black\"/>\n<line x1=\"" << x0 << "\" y1=\"" << y0 << "\" x2=\"" << x0
      << "\" y2=\"" << y1 << "\" stroke=\"black\"/>\n";
  for (int p = 0; p <= axes.maxLog(); ++p) {
    const int streams = 1 << p;
    if (streams > maxStreams)
      break;
    out << "<text x=\"" << svgNumber(axes.x(streams)) << "\" y=\"" << y0 + 16
        << "\" text-anchor=\"middle\">" << streams << "</text>\n";
  }
  out << "<text x=\"" << (x0 + x1) / 2 << "\" y=\"" << y0 + 36
      << "\" text-anchor=\"middle\">streams</text>\n";
  for (int i = 0; i <= 5; ++i) {
    const double ms = axes.maxMs() * i / 5;
    const double y = axes.y(ms / 1e3);
    out << "<text x=\"" << x0 - 6 << "\" y=\"" << svgNumber(y + 4) << "\" text-anchor=\"end\">"
        << svgNumber(ms) << "</text>\n"
        << "<line x1=\"" << x0 << "\" y1=\"" << svgNumber(y) << "\" x2=\"" << x1 << "\" y2=\""
        << svgNumber(y) << "\" stroke=\"#eeeeee\"/>\n";
  }
  out << "<text x=\"16\" y=\"" << (y0 + y1) / 2 << "\" transform=\"rotate(-90 16 " << (y0 + y1) / 2
      << ")\" text-anchor=\"middle\">time [ms]</text>\n";

  double legendY = kTop + 10;
  const auto legend = [&](const std::string& label, const std::string& color, bool dashed) {
    svgLegendEntry(out, x1 + 10, legendY, label, color, dashed);
    legendY += 18;
  };
  const auto flat = [&](const std::optional<double>& seconds, const std::string& color,
                        bool dashed) {
    if (!seconds)
      return;
    out << "<line x1=\"" << x0 << "\" y1=\"" << svgNumber(axes.y(*seconds)) << "\" x2=\"" << x1
        << "\" y2=\"" << svgNumber(axes.y(*seconds)) << "\" stroke=\"" << color
        << "\" stroke-width=\"1.5\"" << (dashed ? " stroke-dasharray=\"6,4\"" : "") << "/>\n";
  };
  flat(explicitPredicted, variantColor(Variant::Explicit, IssueOrder::DepthFirst), true);
  flat(explicitMeasured, variantColor(Variant::Explicit, IssueOrder::DepthFirst), false);
  legend("Explicit (baseline)", variantColor(Variant::Explicit, IssueOrder::DepthFirst), false);
  if (mappedPredicted || mappedMeasured) {
    flat(mappedPredicted, variantColor(Variant::Mapped, IssueOrder::DepthFirst), true);
    flat(mappedMeasured, variantColor(Variant::Mapped, IssueOrder::DepthFirst), false);
    legend("Mapped", variantColor(Variant::Mapped, IssueOrder::DepthFirst), false);
  }
  for (const auto& entry : streamed) {
    const Series& series = entry.second;
    polyline(out, axes, series.predicted, series.color, true);
    polyline(out, axes, series.measured, series.color, false);
    legend(series.label, series.color, false);
  }
  if (run.winner) {
    const CandidateOutcome& w = run.candidates[*run.winner];
    if (w.usable()) {
      const double x =
          w.candidate.variant == Variant::Explicit || w.candidate.variant == Variant::Mapped
              ? x0 + 12
              : axes.x(w.candidate.streams);
      out << "<circle cx=\"" << svgNumber(x) << "\" cy=\"" << svgNumber(axes.y(w.timing.median))
          << "\" r=\"9\" fill=\"none\" stroke=\"black\" stroke-width=\"2\"/>\n"
          << "<text x=\"" << svgNumber(x + 12) << "\" y=\""
          << svgNumber(axes.y(w.timing.median) - 10)
          << "\" font-weight=\"bold\">winner: " << svgEscape(model::describe(w.candidate))
          << "</text>\n";
    }
  }
  out << "</svg>\n";
  return out.str();
}

} // namespace overlap::tune
