#include "tune/SizeSweep.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace overlap::tune {
namespace {

bool parsePositive(const std::string& text, long long* value) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
    return false;
  char* end = nullptr;
  errno = 0;
  *value = std::strtoll(text.c_str(), &end, 10);
  return errno == 0 && *end == '\0' && *value >= 1;
}

bool streamed(Variant variant) {
  return variant == Variant::Streams || variant == Variant::Hybrid;
}

} // namespace

bool parseSweep(const std::string& text, SweepSpec* spec, std::string* error) {
  const auto fail = [&](const std::string& why) {
    *error = "--sweep wants NAME=LO..HI[:COUNT], got \"" + text + "\": " + why;
    return false;
  };
  SweepSpec out;
  const std::size_t equals = text.find('=');
  if (equals == std::string::npos || equals == 0)
    return fail("no NAME=");
  out.parameter = text.substr(0, equals);
  std::string range = text.substr(equals + 1);
  const std::size_t colon = range.find(':');
  if (colon != std::string::npos) {
    long long count = 0;
    if (!parsePositive(range.substr(colon + 1), &count) || count < 2 || count > 64)
      return fail("COUNT is not an integer in 2..64");
    out.count = static_cast<int>(count);
    range.resize(colon);
  }
  const std::size_t dots = range.find("..");
  if (dots == std::string::npos)
    return fail("no LO..HI");
  if (!parsePositive(range.substr(0, dots), &out.low) ||
      !parsePositive(range.substr(dots + 2), &out.high))
    return fail("LO and HI must be integers >= 1");
  if (out.high <= out.low)
    return fail("HI must be above LO");
  *spec = out;
  return true;
}

std::string to_string(const SweepSpec& spec) {
  return spec.parameter + "=" + std::to_string(spec.low) + ".." + std::to_string(spec.high) + ":" +
         std::to_string(spec.count);
}

std::vector<long long> logSpacedSizes(long long low, long long high, int count) {
  std::vector<long long> sizes;
  const double ratio = std::log(static_cast<double>(high) / static_cast<double>(low));
  for (int i = 0; i < count; ++i) {
    // The ends exactly, whatever the rounding of the logarithms.
    const long long value =
        i == 0 ? low
        : i == count - 1
            ? high
            : std::llround(static_cast<double>(low) * std::exp(ratio * i / (count - 1)));
    if (sizes.empty() || value > sizes.back())
      sizes.push_back(value);
  }
  return sizes;
}

bool sameFamily(const model::Candidate& a, const model::Candidate& b) {
  return a.variant == b.variant && (!streamed(a.variant) || a.order == b.order);
}

std::optional<long long> nextRefinement(const std::vector<SweepPoint>& points) {
  std::optional<long long> best;
  double widest = 0;
  // Neighbours among the points with a winner: a failed point says nothing of a crossover.
  const SweepPoint* previous = nullptr;
  for (const SweepPoint& point : points) {
    if (!point.winner)
      continue;
    if (previous && !sameFamily(*previous->winner, *point.winner)) {
      const double ratio = static_cast<double>(point.value) / static_cast<double>(previous->value);
      const long long middle = std::llround(std::sqrt(static_cast<double>(previous->value)) *
                                            std::sqrt(static_cast<double>(point.value)));
      if (ratio >= kSmallestRefinedRatio && ratio > widest && middle > previous->value &&
          middle < point.value) {
        widest = ratio;
        best = middle;
      }
    }
    previous = &point;
  }
  return best;
}

std::vector<SweepPoint>
runSweep(const SweepSpec& spec,
         const std::function<std::optional<model::Candidate>(long long value, bool refinement)>&
             tuneAt) {
  std::vector<SweepPoint> points;
  for (const long long value : logSpacedSizes(spec.low, spec.high, spec.count))
    points.push_back({value, tuneAt(value, false), false});
  for (int extra = 0; extra < spec.refinements; ++extra) {
    const std::optional<long long> value = nextRefinement(points);
    if (!value)
      break;
    const SweepPoint point{*value, tuneAt(*value, true), true};
    points.insert(std::upper_bound(
                      points.begin(), points.end(), point,
                      [](const SweepPoint& a, const SweepPoint& b) { return a.value < b.value; }),
                  point);
  }
  return points;
}

} // namespace overlap::tune
