#include "tune/SvgCanvas.h"

#include <cstdio>

namespace overlap::tune {

std::string svgNumber(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", value);
  return text;
}

std::string variantColor(Variant variant, IssueOrder order) {
  const bool depth = order == IssueOrder::DepthFirst;
  switch (variant) {
  case Variant::Streams:
    return depth ? "#1f77b4" : "#17becf";
  case Variant::Hybrid:
    return depth ? "#d62728" : "#ff7f0e";
  case Variant::Mapped:
    return "#2ca02c";
  case Variant::Explicit:
    break;
  }
  return "#555555";
}

std::string svgEscape(const std::string& text) {
  std::string escaped;
  for (const char c : text) {
    if (c == '&')
      escaped += "&amp;";
    else if (c == '<')
      escaped += "&lt;";
    else if (c == '>')
      escaped += "&gt;";
    else
      escaped += c;
  }
  return escaped;
}

void svgPolyline(std::ostream& out, const std::vector<std::pair<double, double>>& points,
                 const std::string& color, bool dashed) {
  if (points.empty())
    return;
  out << "<polyline fill=\"none\" stroke=\"" << color << "\" stroke-width=\"2\""
      << (dashed ? " stroke-dasharray=\"6,4\"" : "") << " points=\"";
  for (const auto& [x, y] : points)
    out << svgNumber(x) << "," << svgNumber(y) << " ";
  out << "\"/>\n";
  if (!dashed)
    for (const auto& [x, y] : points)
      out << "<circle cx=\"" << svgNumber(x) << "\" cy=\"" << svgNumber(y) << "\" r=\"3\" fill=\""
          << color << "\"/>\n";
}

void svgLegendEntry(std::ostream& out, double x, double y, const std::string& label,
                    const std::string& color, bool dashed) {
  out << "<line x1=\"" << svgNumber(x) << "\" y1=\"" << svgNumber(y) << "\" x2=\""
      << svgNumber(x + 24) << "\" y2=\"" << svgNumber(y) << "\" stroke=\"" << color
      << "\" stroke-width=\"2\"" << (dashed ? " stroke-dasharray=\"6,4\"" : "") << "/>\n<text x=\""
      << svgNumber(x + 30) << "\" y=\"" << svgNumber(y + 4) << "\">" << svgEscape(label)
      << "</text>\n";
}

} // namespace overlap::tune
