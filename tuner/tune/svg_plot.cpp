#include "tune/svg_plot.h"

#include "tune/svg_canvas.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>
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
  Axes(int max_streams, double max_seconds)
      : max_log_(std::max(1.0, std::log2(std::max(1, max_streams)))), max_ms_(max_seconds * 1e3) {}
  double x(int streams) const {
    return kLeft + (kWidth - kLeft - kRight) * std::log2(std::max(1, streams)) / max_log_;
  }
  double y(double seconds) const {
    return kHeight - kBottom - (kHeight - kTop - kBottom) * (seconds * 1e3) / max_ms_;
  }
  double max_ms() const { return max_ms_; }
  int max_log() const { return static_cast<int>(std::ceil(max_log_)); }

private:
  double max_log_;
  double max_ms_;
};

void polyline(std::ostringstream& out, const Axes& axes,
              const std::vector<std::pair<int, double>>& points, const std::string& color,
              bool dashed) {
  std::vector<std::pair<double, double>> pixels;
  for (const auto& [streams, seconds] : points)
    pixels.emplace_back(axes.x(streams), axes.y(seconds));
  svg_polyline(out, pixels, color, dashed);
}

} // namespace

std::string render_svg_plot(const TuningRun& run) {
  std::map<std::pair<int, int>, Series> streamed; // (variant, order) -> series
  double max_seconds = 0;
  int max_streams = 2;
  std::optional<double> explicit_measured, explicit_predicted, mapped_measured, mapped_predicted;
  for (const CandidateOutcome& c : run.candidates) {
    const double measured = c.usable() ? c.timing.median : 0;
    if (c.predicted_seconds)
      max_seconds = std::max(max_seconds, *c.predicted_seconds);
    max_seconds = std::max(max_seconds, measured);
    if (c.candidate.variant == Variant::Explicit || c.candidate.variant == Variant::Mapped) {
      const bool is_explicit = c.candidate.variant == Variant::Explicit;
      (is_explicit ? explicit_predicted : mapped_predicted) = c.predicted_seconds;
      if (c.usable())
        (is_explicit ? explicit_measured : mapped_measured) = measured;
      continue;
    }
    max_streams = std::max(max_streams, c.candidate.streams);
    Series& series =
        streamed[{static_cast<int>(c.candidate.variant), static_cast<int>(c.candidate.order)}];
    series.label = std::string(model::to_string(c.candidate.variant)) + ", " +
                   model::to_string(c.candidate.order);
    series.color = variant_color(c.candidate.variant, c.candidate.order);
    if (c.predicted_seconds)
      series.predicted.emplace_back(c.candidate.streams, *c.predicted_seconds);
    if (c.usable())
      series.measured.emplace_back(c.candidate.streams, measured);
  }
  if (max_seconds <= 0)
    max_seconds = 1e-3;
  const Axes axes(max_streams, max_seconds * 1.1);

  std::ostringstream out;
  out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << kWidth << "\" height=\"" << kHeight
      << "\" font-family=\"sans-serif\" font-size=\"12\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      << "<text x=\"" << kLeft << "\" y=\"18\" font-size=\"14\">" << svg_escape(run.kernel)
      << ": time of the whole call against stream count (dashed: predicted, solid: measured)"
      << "</text>\n";
  // Axes with ticks at the powers of two and at fifths of the time range.
  const double x0 = kLeft, x1 = kWidth - kRight, y0 = kHeight - kBottom, y1 = kTop;
  out << "<line x1=\"" << x0 << "\" y1=\"" << y0 << "\" x2=\"" << x1 << "\" y2=\"" << y0
      << "\" stroke=\"black\"/>\n<line x1=\"" << x0 << "\" y1=\"" << y0 << "\" x2=\"" << x0
      << "\" y2=\"" << y1 << "\" stroke=\"black\"/>\n";
  for (int p = 0; p <= axes.max_log(); ++p) {
    const int streams = 1 << p;
    if (streams > max_streams)
      break;
    out << "<text x=\"" << svg_number(axes.x(streams)) << "\" y=\"" << y0 + 16
        << "\" text-anchor=\"middle\">" << streams << "</text>\n";
  }
  out << "<text x=\"" << (x0 + x1) / 2 << "\" y=\"" << y0 + 36
      << "\" text-anchor=\"middle\">streams</text>\n";
  for (int i = 0; i <= 5; ++i) {
    const double ms = axes.max_ms() * i / 5;
    const double y = axes.y(ms / 1e3);
    out << "<text x=\"" << x0 - 6 << "\" y=\"" << svg_number(y + 4) << "\" text-anchor=\"end\">"
        << svg_number(ms) << "</text>\n"
        << "<line x1=\"" << x0 << "\" y1=\"" << svg_number(y) << "\" x2=\"" << x1 << "\" y2=\""
        << svg_number(y) << "\" stroke=\"#eeeeee\"/>\n";
  }
  out << "<text x=\"16\" y=\"" << (y0 + y1) / 2 << "\" transform=\"rotate(-90 16 " << (y0 + y1) / 2
      << ")\" text-anchor=\"middle\">time [ms]</text>\n";

  double legend_y = kTop + 10;
  const auto legend = [&](const std::string& label, const std::string& color, bool dashed) {
    svg_legend_entry(out, x1 + 10, legend_y, label, color, dashed);
    legend_y += 18;
  };
  const auto flat = [&](const std::optional<double>& seconds, const std::string& color,
                        bool dashed) {
    if (!seconds)
      return;
    out << "<line x1=\"" << x0 << "\" y1=\"" << svg_number(axes.y(*seconds)) << "\" x2=\"" << x1
        << "\" y2=\"" << svg_number(axes.y(*seconds)) << "\" stroke=\"" << color
        << "\" stroke-width=\"1.5\"" << (dashed ? " stroke-dasharray=\"6,4\"" : "") << "/>\n";
  };
  flat(explicit_predicted, variant_color(Variant::Explicit, IssueOrder::DepthFirst), true);
  flat(explicit_measured, variant_color(Variant::Explicit, IssueOrder::DepthFirst), false);
  legend("Explicit (baseline)", variant_color(Variant::Explicit, IssueOrder::DepthFirst), false);
  if (mapped_predicted || mapped_measured) {
    flat(mapped_predicted, variant_color(Variant::Mapped, IssueOrder::DepthFirst), true);
    flat(mapped_measured, variant_color(Variant::Mapped, IssueOrder::DepthFirst), false);
    legend("Mapped", variant_color(Variant::Mapped, IssueOrder::DepthFirst), false);
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
      out << "<circle cx=\"" << svg_number(x) << "\" cy=\"" << svg_number(axes.y(w.timing.median))
          << "\" r=\"9\" fill=\"none\" stroke=\"black\" stroke-width=\"2\"/>\n"
          << "<text x=\"" << svg_number(x + 12) << "\" y=\""
          << svg_number(axes.y(w.timing.median) - 10)
          << "\" font-weight=\"bold\">winner: " << svg_escape(model::describe(w.candidate))
          << "</text>\n";
    }
  }
  out << "</svg>\n";
  return out.str();
}

} // namespace overlap::tune
