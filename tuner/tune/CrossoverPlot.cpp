#include "tune/CrossoverPlot.h"

#include "tune/SvgCanvas.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

namespace overlap::tune {
namespace {

constexpr double kWidth = 780, kHeight = 470;
constexpr double kLeft = 70, kRight = 210, kTop = 70, kBottom = 50;
constexpr double kBandTop = 32, kBandHeight = 16;

std::string familyLabel(const model::Candidate& c) {
  if (c.variant == Variant::Explicit || c.variant == Variant::Mapped)
    return model::to_string(c.variant);
  return std::string(model::to_string(c.variant)) + ", " + model::to_string(c.order);
}

class Axes {
public:
  Axes(double low, double high, double maxRatio)
      : low_(std::log(low)), span_(std::max(1e-9, std::log(high) - std::log(low))),
        maxRatio_(maxRatio) {}
  double x(double value) const {
    return kLeft + (kWidth - kLeft - kRight) * (std::log(value) - low_) / span_;
  }
  double y(double ratio) const {
    return kHeight - kBottom - (kHeight - kTop - kBottom) * std::min(ratio, maxRatio_) / maxRatio_;
  }
  double maxRatio() const { return maxRatio_; }

private:
  double low_, span_, maxRatio_;
};

} // namespace

std::string renderCrossoverPlot(const SweepRun& sweep) {
  std::ostringstream out;
  out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << kWidth << "\" height=\"" << kHeight
      << "\" font-family=\"sans-serif\" font-size=\"12\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      << "<text x=\"" << kLeft << "\" y=\"18\" font-size=\"14\">" << svgEscape(sweep.kernel)
      << ": each family's best time relative to Explicit against " << svgEscape(sweep.parameter)
      << "; band: the winner</text>\n";
  if (sweep.points.empty()) {
    out << "</svg>\n";
    return out.str();
  }

  // Each family's ratio to Explicit at every size where both have a time.
  std::map<std::string, std::pair<std::string, std::vector<std::pair<double, double>>>> series;
  double maxRatio = 1.25;
  for (const SweepPointRun& point : sweep.points) {
    const TuningRun& run = point.run;
    const std::optional<std::size_t> reference = run.explicitIndex();
    const std::optional<double> base = reference ? candidateSeconds(run, *reference) : std::nullopt;
    if (!base || *base <= 0)
      continue;
    for (std::size_t i : bestOfEachFamily(run)) {
      const model::Candidate& c = run.candidates[i].candidate;
      const double ratio = *candidateSeconds(run, i) / *base;
      maxRatio = std::max(maxRatio, ratio * 1.05);
      auto& entry = series[familyLabel(c)];
      entry.first = variantColor(c.variant, c.order);
      entry.second.emplace_back(static_cast<double>(point.value), ratio);
    }
  }
  const double low = static_cast<double>(sweep.points.front().value);
  const double high = static_cast<double>(sweep.points.back().value);
  const Axes axes(low, std::max(high, low * 1.01), std::min(maxRatio, kCrossoverPlotMaxRatio));

  const double x0 = kLeft, x1 = kWidth - kRight, y0 = kHeight - kBottom, y1 = kTop;
  out << "<line x1=\"" << x0 << "\" y1=\"" << y0 << "\" x2=\"" << x1 << "\" y2=\"" << y0
      << "\" stroke=\"black\"/>\n<line x1=\"" << x0 << "\" y1=\"" << y0 << "\" x2=\"" << x0
      << "\" y2=\"" << y1 << "\" stroke=\"black\"/>\n";
  for (int i = 0; i <= 5; ++i) {
    const double ratio = axes.maxRatio() * i / 5;
    const double y = axes.y(ratio);
    char label[16];
    std::snprintf(label, sizeof label, "%.2f", ratio);
    out << "<text x=\"" << x0 - 6 << "\" y=\"" << svgNumber(y + 4) << "\" text-anchor=\"end\">"
        << label << "</text>\n<line x1=\"" << x0 << "\" y1=\"" << svgNumber(y) << "\" x2=\"" << x1
        << "\" y2=\"" << svgNumber(y) << "\" stroke=\"#eeeeee\"/>\n";
  }
  // Sizes as ticks, every one tuned (labels of refined ones would crowd: ticks only).
  for (const SweepPointRun& point : sweep.points) {
    const double x = axes.x(static_cast<double>(point.value));
    out << "<line x1=\"" << svgNumber(x) << "\" y1=\"" << y0 << "\" x2=\"" << svgNumber(x)
        << "\" y2=\"" << y0 + 5 << "\" stroke=\"black\"/>\n";
    if (!point.refinement)
      out << "<text x=\"" << svgNumber(x) << "\" y=\"" << y0 + 18
          << "\" text-anchor=\"middle\" font-size=\"10\">" << point.value << "</text>\n";
  }
  out << "<text x=\"" << (x0 + x1) / 2 << "\" y=\"" << y0 + 38 << "\" text-anchor=\"middle\">"
      << svgEscape(sweep.parameter) << " (log scale)</text>\n"
      << "<text x=\"16\" y=\"" << (y0 + y1) / 2 << "\" transform=\"rotate(-90 16 " << (y0 + y1) / 2
      << ")\" text-anchor=\"middle\">time / Explicit's time</text>\n";

  // The band: each size's winner from halfway (on the log axis) to its neighbours.
  for (std::size_t i = 0; i < sweep.points.size(); ++i) {
    const TuningRun& run = sweep.points[i].run;
    const std::optional<std::size_t> winner = sweepWinner(run);
    if (!winner)
      continue;
    const double x = axes.x(static_cast<double>(sweep.points[i].value));
    const double left =
        i == 0 ? x0 : (x + axes.x(static_cast<double>(sweep.points[i - 1].value))) / 2;
    const double right = i + 1 == sweep.points.size()
                             ? x1
                             : (x + axes.x(static_cast<double>(sweep.points[i + 1].value))) / 2;
    const model::Candidate& c = run.candidates[*winner].candidate;
    out << "<rect x=\"" << svgNumber(left) << "\" y=\"" << kBandTop << "\" width=\""
        << svgNumber(std::max(0.0, right - left)) << "\" height=\"" << kBandHeight << "\" fill=\""
        << variantColor(c.variant, c.order) << "\"><title>"
        << svgEscape(sweep.parameter + " = " + std::to_string(sweep.points[i].value) + ": " +
                     model::describe(c))
        << "</title></rect>\n";
  }
  out << "<text x=\"" << x1 + 10 << "\" y=\"" << kBandTop + 12 << "\">winner</text>\n";

  double legendY = kTop + 10;
  out << "<line x1=\"" << x0 << "\" y1=\"" << svgNumber(axes.y(1)) << "\" x2=\"" << x1 << "\" y2=\""
      << svgNumber(axes.y(1)) << "\" stroke=\""
      << variantColor(Variant::Explicit, IssueOrder::DepthFirst) << "\" stroke-width=\"1.5\"/>\n";
  for (const auto& [label, entry] : series) {
    std::vector<std::pair<double, double>> pixels;
    for (const auto& [value, ratio] : entry.second)
      pixels.emplace_back(axes.x(value), axes.y(ratio));
    if (label != model::to_string(Variant::Explicit))
      svgPolyline(out, pixels, entry.first, false);
    svgLegendEntry(out, x1 + 10, legendY, label, entry.first, false);
    legendY += 18;
  }
  // The winners ringed on their lines.
  for (const SweepPointRun& point : sweep.points) {
    const TuningRun& run = point.run;
    const std::optional<std::size_t> winner = sweepWinner(run);
    const std::optional<std::size_t> reference = run.explicitIndex();
    const std::optional<double> base = reference ? candidateSeconds(run, *reference) : std::nullopt;
    if (!winner || !base || *base <= 0)
      continue;
    const double ratio = *candidateSeconds(run, *winner) / *base;
    out << "<circle cx=\"" << svgNumber(axes.x(static_cast<double>(point.value))) << "\" cy=\""
        << svgNumber(axes.y(ratio)) << "\" r=\"7\" fill=\"none\" stroke=\"black\" "
        << "stroke-width=\"1.5\"/>\n";
  }
  out << "</svg>\n";
  return out.str();
}

} // namespace overlap::tune
