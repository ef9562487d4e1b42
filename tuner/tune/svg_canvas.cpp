#include "tune/svg_canvas.h"

#include <cstdio>

namespace overlap::tune {

std::string svg_number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", value);
  return text;
}

std::string variant_color(Variant variant, IssueOrder order) {
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

std::string svg_escape(const std::string& text) {
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

void svg_polyline(std::ostream& out, const std::vector<std::pair<double, double>>& points,
                  const std::string& color, bool dashed) {
  if (points.empty())
    return;
  out << "<polyline fill=\"none\" stroke=\"" << color << "\" stroke-width=\"2\""
      << (dashed ? " stroke-dasharray=\"6,4\"" : "") << " points=\"";
  for (const auto& [x, y] : points)
    out << svg_number(x) << "," << svg_number(y) << " ";
  out << "\"/>\n";
  if (!dashed)
    for (const auto& [x, y] : points)
      out << "<circle cx=\"" << svg_number(x) << "\" cy=\"" << svg_number(y) << "\" r=\"3\" fill=\""
          << color << "\"/>\n";
}

void svg_legend_entry(std::ostream& out, double x, double y, const std::string& label,
                      const std::string& color, bool dashed) {
  out << "<line x1=\"" << svg_number(x) << "\" y1=\"" << svg_number(y) << "\" x2=\""
      << svg_number(x + 24) << "\" y2=\"" << svg_number(y) << "\" stroke=\"" << color
      << "\" stroke-width=\"2\"" << (dashed ? " stroke-dasharray=\"6,4\"" : "") << "/>\n<text x=\""
      << svg_number(x + 30) << "\" y=\"" << svg_number(y + 4) << "\">" << svg_escape(label)
      << "</text>\n";
}

} // namespace overlap::tune
