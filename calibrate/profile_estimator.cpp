#include "profile_estimator.h"

#include "minimax_fit.h"
#include "two_rate_link.h"

#include "overlap/sample_stats.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <utility>

namespace overlap::calibration {

namespace {

using SeriesFit = std::function<bool(const std::vector<Point>&, LinearFit*)>;

std::size_t repeat_count(const Series& series) {
  std::size_t count = std::numeric_limits<std::size_t>::max();
  for (const std::vector<double>& repeats : series.seconds)
    count = std::min(count, repeats.size());
  return series.seconds.empty() ? 0 : count;
}

// What a fit takes from a point's repeats: their median, their mean, or one repeat.
using RepeatPick = std::function<double(const std::vector<double>&)>;

std::vector<Point> points_of(const Series& series, const RepeatPick& pick) {
  std::vector<Point> points;
  for (std::size_t i = 0; i < series.x.size(); ++i)
    points.push_back({series.x[i], pick(series.seconds[i])});
  return points;
}

std::vector<Point> median_points(const Series& series) {
  return points_of(series,
                   [](const std::vector<double>& repeats) { return summarize(repeats).median; });
}

// The spread of a fit: the same fit on each repeat alone.
RepeatPick nth_repeat(std::size_t repeat) {
  return [repeat](const std::vector<double>& repeats) { return repeats[repeat]; };
}

std::vector<Point> repeat_points(const Series& series, std::size_t repeat) {
  return points_of(series, nth_repeat(repeat));
}

// The piece-count series with x = n - 1, keeping only points whose pieces (message / n) are at
// least `min_piece_bytes`; series left with fewer than two points are dropped.
std::vector<Series> restricted_pieces(const std::vector<Series>& piece_series,
                                      const std::vector<double>& messages, double min_piece_bytes) {
  std::vector<Series> kept;
  for (std::size_t s = 0; s < piece_series.size() && s < messages.size(); ++s) {
    Series series;
    for (std::size_t i = 0; i < piece_series[s].x.size(); ++i) {
      const double n = piece_series[s].x[i];
      if (n <= 1 || messages[s] / n >= min_piece_bytes)
        series.add(n - 1, piece_series[s].seconds[i]);
    }
    if (series.x.size() >= 2)
      kept.push_back(std::move(series));
  }
  return kept;
}

std::size_t point_count(const std::vector<Series>& series) {
  std::size_t count = 0;
  for (const Series& s : series)
    count += s.x.size();
  return count;
}

double largest_x(const std::vector<Series>& series) {
  double largest = 0;
  for (const Series& s : series)
    for (double x : s.x)
      largest = std::max(largest, x);
  return largest;
}

// The piece sizes (message / n for n > 1) that can bound g's domain, ascending after a leading 0
// (every piece).
std::vector<double> piece_floors(const std::vector<Series>& piece_series,
                                 const std::vector<double>& messages) {
  std::vector<double> floors{0};
  for (std::size_t s = 0; s < piece_series.size() && s < messages.size(); ++s)
    for (double n : piece_series[s].x)
      if (n > 1)
        floors.push_back(messages[s] / n);
  std::sort(floors.begin() + 1, floors.end());
  floors.erase(std::unique(floors.begin(), floors.end()), floors.end());
  return floors;
}

// The time of a busy-link point: the mean of its repeats. Against a busy link the H100's
// host-to-device copies of one size ran anywhere between ~37 and ~51 GB/s from one repeat to the
// next, too close together for the two-rate rule (two_rate_link.h) to split; the median of such
// repeats jumps between them, the mean settles as the repeats grow (docs/hardware-profiles.md,
// "Calibration: method", step 4).
double mean_of(const std::vector<double>& repeats) {
  double sum = 0;
  for (double t : repeats)
    sum += t;
  return repeats.empty() ? 0 : sum / static_cast<double>(repeats.size());
}

// What the busy link's G and g are fitted on: single copies over sizes and piece series.
struct BusySeries {
  Series sizes;               // x = bytes, one piece
  std::vector<Series> pieces; // per message, x = pieces
  std::vector<double> messages;

  // Every single copy, and each piece-series point whose pieces are at least `min_piece_bytes`
  // (one piece always), timed by what `pick` takes from its repeats.
  std::vector<TransferTime> transfers(double min_piece_bytes, const RepeatPick& pick) const {
    std::vector<TransferTime> out;
    for (std::size_t i = 0; i < sizes.x.size(); ++i)
      out.push_back({sizes.x[i], 1, pick(sizes.seconds[i])});
    for (std::size_t s = 0; s < pieces.size() && s < messages.size(); ++s)
      for (std::size_t i = 0; i < pieces[s].x.size(); ++i) {
        const double n = pieces[s].x[i];
        if (n <= 1 || messages[s] / n >= min_piece_bytes)
          out.push_back({messages[s], n, pick(pieces[s].seconds[i])});
      }
    return out;
  }

  std::size_t repeats() const {
    std::size_t count = std::numeric_limits<std::size_t>::max();
    if (!sizes.empty())
      count = repeat_count(sizes);
    for (const Series& s : pieces)
      if (!s.empty())
        count = std::min(count, repeat_count(s));
    return count == std::numeric_limits<std::size_t>::max() ? 0 : count;
  }
};

double most_pieces(const std::vector<TransferTime>& transfers) {
  double most = 0;
  for (const TransferTime& t : transfers)
    most = std::max(most, t.pieces);
  return most;
}

constexpr double kMiB = 1024.0 * 1024.0;

struct JointFit {
  MinimaxTransferFit fit; // on the means
  std::vector<double> repeat_seconds_per_byte;
  std::vector<double> repeat_gaps;
  std::vector<double> repeat_large_piece_seconds_per_byte; // when fit has a large-piece G
  // The one-G fit over the same points, kept for comparison when the pieces are split by size.
  MinimaxTransferFit one_g;
};

// The joint minimax fit on the means of the points with pieces of at least `min_piece_bytes`,
// and on each repeat alone for the spread; false when the means determine no G > 0.
bool joint_fit(const BusySeries& busy, double min_piece_bytes, double latency_s,
               double large_piece_min_bytes, JointFit* out) {
  JointFit result;
  if (!fit_transfer_minimax(busy.transfers(min_piece_bytes, mean_of), latency_s,
                            large_piece_min_bytes, &result.fit))
    return false;
  result.one_g = result.fit;
  for (std::size_t r = 0; r < busy.repeats(); ++r) {
    MinimaxTransferFit one;
    if (fit_transfer_minimax(busy.transfers(min_piece_bytes, nth_repeat(r)), latency_s,
                             large_piece_min_bytes, &one)) {
      result.repeat_seconds_per_byte.push_back(one.seconds_per_byte);
      result.repeat_gaps.push_back(one.gap_s);
      if (large_piece_min_bytes > 0)
        result.repeat_large_piece_seconds_per_byte.push_back(one.large_piece_seconds_per_byte);
    }
  }
  *out = std::move(result);
  return true;
}

// Where the busy link's pieces may be split into two size classes: the geometric middle between
// consecutive piece sizes measured, leaving at least kMinPieceClassPoints points in each class
// (a class of one or two points would be fitted exactly, whatever their noise).
constexpr std::size_t kMinPieceClassPoints = 3;

std::vector<double> piece_class_boundaries(const std::vector<TransferTime>& points) {
  std::vector<double> sizes;
  for (const TransferTime& t : points)
    sizes.push_back(t.bytes / t.pieces);
  std::sort(sizes.begin(), sizes.end());
  std::vector<double> boundaries;
  for (std::size_t i = kMinPieceClassPoints; i + kMinPieceClassPoints <= sizes.size(); ++i)
    if (sizes[i] > sizes[i - 1])
      boundaries.push_back(std::sqrt(sizes[i - 1] * sizes[i]));
  return boundaries;
}

// A split by piece size is kept only when it lowers the largest relative residual by this much:
// two G's always fit at least as well as one, and a gain within the repeats' noise is no reason
// to price pieces differently (docs/hardware-profiles.md, "Calibration: method", step 4).
constexpr double kPieceClassGain = 0.01;

// The busy link's fit over the pieces of at least `min_piece_bytes`: one G, or two by piece size
// where a split gains kPieceClassGain (the boundary with the smallest largest residual).
bool busy_link_fit(const BusySeries& busy, double min_piece_bytes, double latency_s,
                   JointFit* out) {
  JointFit one;
  if (!joint_fit(busy, min_piece_bytes, latency_s, 0, &one))
    return false;
  const std::vector<TransferTime> points = busy.transfers(min_piece_bytes, mean_of);
  double best_boundary = 0;
  double best_residual = one.fit.max_relative_residual - kPieceClassGain;
  for (double boundary : piece_class_boundaries(points)) {
    MinimaxTransferFit split;
    if (fit_transfer_minimax_by_piece_size(points, latency_s, boundary, &split) &&
        split.max_relative_residual < best_residual) {
      best_residual = split.max_relative_residual;
      best_boundary = boundary;
    }
  }
  JointFit split;
  if (best_boundary > 0 && joint_fit(busy, min_piece_bytes, latency_s, best_boundary, &split)) {
    split.one_g = one.fit;
    *out = std::move(split);
  } else {
    *out = std::move(one);
  }
  return true;
}

// A joint fit in the form the records and judge_fit take, `slope` being G or g.
LinearFit as_line(const MinimaxTransferFit& fit, double slope) {
  LinearFit line;
  line.slope = slope;
  line.intercept = fit.latency_s;
  line.r_squared = fit.r_squared;
  line.max_relative_residual = fit.max_relative_residual;
  line.points = fit.points;
  return line;
}

// The tighter of two limits, 0 meaning "not checked" as in FitRequirement.
double tighter_limit(double a, double b) {
  return a <= 0 ? b : b <= 0 ? a : std::min(a, b);
}

struct GapEstimate {
  double gap_s = 0;
  double min_piece_bytes = 0;
};

struct GapFit {
  LinearFit fit;    // the least-squares common slope on the medians
  LinearFit stored; // the line the profile stores (slope clamped at 0), judged on the medians
  std::vector<double> repeat_slopes;
};

// One common slope over series of (n - 1, seconds); false when the points determine no line.
bool fit_gap(const std::vector<Series>& shifted, GapFit* out) {
  std::vector<std::vector<Point>> points;
  for (const Series& s : shifted)
    points.push_back(median_points(s));
  GapFit result;
  std::vector<double> intercepts;
  if (!fit_common_slope(points, &result.fit, &intercepts))
    return false;
  std::size_t repeats = std::numeric_limits<std::size_t>::max();
  for (const Series& s : shifted)
    repeats = std::min(repeats, repeat_count(s));
  for (std::size_t r = 0; r < repeats; ++r) {
    std::vector<std::vector<Point>> one_repeat;
    for (const Series& s : shifted)
      one_repeat.push_back(repeat_points(s, r));
    LinearFit one;
    std::vector<double> unused;
    if (fit_common_slope(one_repeat, &one, &unused))
      result.repeat_slopes.push_back(one.slope);
  }
  // A negative g would predict that cutting a message up makes it faster; the profile stores
  // 0 and the model is judged with the value actually stored.
  result.stored = result.fit;
  if (result.fit.slope < 0) {
    for (std::size_t s = 0; s < points.size(); ++s) {
      double sum = 0;
      for (const Point& p : points[s])
        sum += p.y;
      intercepts[s] = sum / static_cast<double>(points[s].size());
    }
    result.stored = evaluate_common_line(points, 0, intercepts);
  }
  *out = std::move(result);
  return true;
}

// The profile note saying why pieces under `floor` bytes are outside g's domain of validity:
// the fit over the larger pieces met `requirement`, the fit over all of them did not.
std::string gap_domain_note(const std::string& quantity, const char* fits, const char* misses,
                            double floor, double kept_residual, double all_residual,
                            const FitRequirement& requirement, const char* domain_field) {
  char text[500];
  std::snprintf(text, sizeof(text),
                " %s: %s only pieces of at least %.0f KiB (largest residual %.2f %% there); over "
                "all pieces %s by up to %.2f %% (limit %.2f %%), so smaller pieces are outside "
                "g's domain of validity (%s).",
                quantity.c_str(), fits, floor / 1024, 100 * kept_residual, misses,
                100 * all_residual, 100 * requirement.max_relative_residual, domain_field);
  return text;
}

class Estimator {
public:
  Estimator(const QualityThresholds& thresholds, ProfileEstimate* estimate)
      : thresholds_(thresholds), estimate_(*estimate) {}

  void problem(const std::string& text) { estimate_.problems.push_back(text); }

  // Records a quantity that is not a fit, `statistic` of its samples, with their spread.
  double scalar(const std::string& quantity, const std::vector<double>& samples,
                double SampleStats::* statistic = &SampleStats::median) {
    const SampleStats stats = summarize(samples);
    ProfileMeasurement m;
    m.quantity = quantity;
    m.unit = "s";
    m.value = stats.*statistic;
    m.min = stats.min;
    m.max = stats.max;
    m.repeats = stats.count;
    estimate_.profile.measurements.push_back(m);
    return m.value;
  }

  // Fits the medians with `fit_fn`, judges the fit, and records it with the range of the slopes
  // fitted to each repeat on its own. Returns the slope, or 0 when there is nothing to fit.
  double fitted_slope(const std::string& quantity, const std::string& description, const char* unit,
                      const Series& series, const SeriesFit& fit_fn,
                      const FitRequirement& requirement, bool required) {
    if (series.empty()) {
      if (required)
        problem(quantity + " (" + description + "): nothing was measured");
      return 0;
    }
    LinearFit fit;
    if (!fit_fn(median_points(series), &fit)) {
      problem(quantity + " (" + description + "): the measured points determine no line");
      return 0;
    }
    std::vector<double> slopes;
    for (std::size_t r = 0; r < repeat_count(series); ++r) {
      LinearFit one;
      if (fit_fn(repeat_points(series, r), &one))
        slopes.push_back(one.slope);
    }
    record_fit(quantity, unit, fit, slopes);
    FitReport report{quantity, fit,
                     judge_fit(quantity + " (" + description + ")", fit, requirement)};
    if (!report.problem.empty())
      problem(report.problem);
    else if (fit.slope <= 0 && required)
      problem(quantity + " (" + description + "): the fitted slope is not positive");
    estimate_.fits.push_back(report);
    return fit.slope;
  }

  void record_fit(const std::string& quantity, const char* unit, const LinearFit& fit,
                  const std::vector<double>& slopes) {
    const SampleStats spread = summarize(slopes);
    ProfileMeasurement m;
    m.quantity = quantity;
    m.unit = unit;
    m.value = fit.slope;
    m.min = slopes.empty() ? fit.slope : spread.min;
    m.max = slopes.empty() ? fit.slope : spread.max;
    m.repeats = spread.count;
    m.r_squared = fit.r_squared;
    m.max_relative_residual = fit.max_relative_residual;
    estimate_.profile.measurements.push_back(m);
  }

  void direction(const std::string& name, const DirectionMeasurements& d, LinkDirection* link) {
    if (d.one_byte_seconds.empty())
      problem(name + ".latency_s (1-byte transfer): nothing was measured");
    else
      link->latency_s = scalar(name + ".latency_s", d.one_byte_seconds);
    const double latency = link->latency_s;
    const SeriesFit by_ratio = [latency](const std::vector<Point>& p, LinearFit* f) {
      return fit_slope_by_ratio(p, latency, f);
    };

    link->seconds_per_byte =
        std::max(0.0, fitted_slope(name + ".seconds_per_byte", "G over sizes, L+o fixed", "s/B",
                                   d.sizes, by_ratio, thresholds_.size_fit, true));
    free_line(name + ".least_squares_line", d.sizes);
    const GapEstimate one_way = gap(name + ".gap_s", "g over piece counts", d.pieces,
                                    d.piece_message_bytes, thresholds_.piece_fit, true);
    link->gap_s = one_way.gap_s;
    link->gap_min_piece_bytes = one_way.min_piece_bytes;
    // A link that switches between two rates is fitted in its fast mode: the medians of a mix
    // of both rates follow no line, and the fast rate is the one the link returns to (the
    // first H100 run saw only it). The slow rate and its share are recorded with it.
    const TwoRateLink modes = detect_two_rates(d.bidirectional_sizes, latency);
    const Series busy_sizes =
        modes.detected ? fast_mode_series(d.bidirectional_sizes, latency) : d.bidirectional_sizes;
    std::vector<Series> busy_pieces = d.bidirectional_pieces;
    if (modes.detected)
      for (Series& series : busy_pieces)
        series = fast_mode_series(series, latency);
    if (busy_pieces.empty()) {
      // Records before version 2 have no busy piece series: G from the single copies alone, g
      // not known.
      link->bidirectional_seconds_per_byte = std::max(
          0.0, fitted_slope(name + ".bidirectional_seconds_per_byte",
                            modes.detected ? "G over sizes with the other direction busy, fast mode"
                                           : "G over sizes with the other direction busy",
                            "s/B", busy_sizes, by_ratio, thresholds_.bidirectional_fit, false));
    } else {
      busy_link(name, {busy_sizes, busy_pieces, d.bidirectional_piece_message_bytes}, latency,
                modes.detected, link);
    }
    if (modes.detected)
      two_rates(name, modes, link);
    const GapEstimate simultaneous =
        gap(name + ".simultaneous_gap_s",
            "g over piece counts with the other direction cutting as many bytes into as many "
            "pieces at once",
            d.simultaneous_pieces, d.simultaneous_piece_message_bytes,
            thresholds_.bidirectional_piece_fit, false, "simultaneous_gap_min_piece_bytes");
    link->simultaneous_gap_s = simultaneous.gap_s;
    link->simultaneous_gap_min_piece_bytes = simultaneous.min_piece_bytes;
    link->pageable_seconds_per_byte = std::max(
        0.0, fitted_slope(name + ".pageable_seconds_per_byte", "pageable G over sizes", "s/B",
                          d.pageable_sizes, fit_line, thresholds_.pageable_fit, false));
    link->with_mapped_seconds_per_byte = std::max(
        0.0,
        fitted_slope(name + ".with_mapped_seconds_per_byte", "G over sizes against mapped traffic",
                     "s/B", d.with_mapped_sizes, by_ratio, thresholds_.with_mapped_fit, false));
  }

  // Records the slow mode of a two-rate link: its rate (the median of the slow repeats, not a
  // fit: long copies mix both rates) and the share of the repeats that ran at it.
  void two_rates(const std::string& name, const TwoRateLink& modes, LinkDirection* link) {
    link->bidirectional_slow_seconds_per_byte = 1 / modes.slow_rate;
    link->bidirectional_slow_share = modes.slow_share;
    ProfileMeasurement slow;
    slow.quantity = name + ".bidirectional_seconds_per_byte.slow_mode";
    slow.unit = "s/B";
    slow.value = slow.min = slow.max = 1 / modes.slow_rate;
    slow.repeats = modes.slow_repeats;
    estimate_.profile.measurements.push_back(slow);
    const std::string line = "bidirectional " + name + ": " + modes.describe();
    estimate_.notices.push_back(line);
    char text[400];
    std::snprintf(text, sizeof(text),
                  " bidirectional %s: the link ran at two rates (%d of %d sizes split, gap up to "
                  "%.2fx): %.1f GB/s and %.1f GB/s in %.0f %% of %d repeats; G is fitted on the "
                  "fast repeats and the slow rate is bidirectional_slow_seconds_per_byte.",
                  name.c_str(), modes.split_sizes, modes.sizes, modes.largest_gap_ratio,
                  modes.fast_rate * 1e-9, modes.slow_rate * 1e-9, 100 * modes.slow_share,
                  modes.repeats);
    estimate_.profile.notes += text;
  }

  // The busy link's G and g, fitted together over the single copies and every piece series (the
  // mean of each point's repeats, mean_of) by their largest relative residual (minimax_fit.h
  // says why), L+o fixed. Judged once, by the tighter residual limit of the two bidirectional
  // requirements, and recorded under the quantities of G and g. R^2 is recorded, not judged: it
  // scores the sum of squares, which a minimax fit gives up for its worst point (run 3 host to
  // device: R^2 0.9987 over the busy points at a largest residual of 3.3 %; the paper's
  // estimator over the single copies alone had R^2 0.9996 there at 3.9 %, and 5.5 % on the
  // accuracy grid). When the fit over every piece misses, the smallest pieces are left out as
  // for the one-way g (gap()), and the piece size reached becomes g's domain of validity. The
  // single copies' estimate is recorded beside it for comparison.
  void busy_link(const std::string& name, const BusySeries& busy, double latency, bool fast_mode,
                 LinkDirection* link) {
    const std::string g_quantity = name + ".bidirectional_seconds_per_byte";
    const std::string gap_quantity = name + ".bidirectional_gap_s";
    const std::string what =
        g_quantity + " and " + gap_quantity +
        " (G and g together over sizes and piece counts with the other direction busy, largest "
        "relative residual minimized" +
        (fast_mode ? ", fast mode)" : ")");
    FitRequirement requirement;
    requirement.max_relative_residual =
        tighter_limit(thresholds_.bidirectional_fit.max_relative_residual,
                      thresholds_.bidirectional_piece_fit.max_relative_residual);
    single_copies(g_quantity + ".single_copies", busy.sizes, latency);

    JointFit unrestricted;
    if (!busy_link_fit(busy, 0, latency, &unrestricted)) {
      problem(what + ": the measured points determine no G > 0");
      return;
    }
    const std::string unrestricted_problem =
        judge_fit(what, as_line(unrestricted.fit, unrestricted.fit.seconds_per_byte), requirement);
    JointFit chosen = unrestricted;
    double floor = 0;
    const std::vector<double> floors = piece_floors(busy.pieces, busy.messages);
    const std::vector<TransferTime> all = busy.transfers(0, mean_of);
    for (std::size_t f = 1; !unrestricted_problem.empty() && f < floors.size(); ++f) {
      const std::vector<TransferTime> kept = busy.transfers(floors[f], mean_of);
      // As in gap(): what is left out must be explained by the pieces' size, not their number.
      if (2 * kept.size() < all.size() || most_pieces(kept) < most_pieces(all))
        break;
      JointFit fit;
      if (busy_link_fit(busy, floors[f], latency, &fit) &&
          judge_fit(what, as_line(fit.fit, fit.fit.seconds_per_byte), requirement).empty()) {
        chosen = fit;
        floor = floors[f];
        break;
      }
    }

    record_fit(g_quantity, "s/B", as_line(chosen.fit, chosen.fit.seconds_per_byte),
               chosen.repeat_seconds_per_byte);
    record_fit(gap_quantity, "s", as_line(chosen.fit, chosen.fit.gap_s), chosen.repeat_gaps);
    const double large_pieces = chosen.fit.large_piece_min_bytes;
    if (large_pieces > 0) {
      record_fit(name + ".bidirectional_large_piece_seconds_per_byte", "s/B",
                 as_line(chosen.fit, chosen.fit.large_piece_seconds_per_byte),
                 chosen.repeat_large_piece_seconds_per_byte);
      record_fit(g_quantity + ".one_g", "s/B", as_line(chosen.one_g, chosen.one_g.seconds_per_byte),
                 {});
    }
    char text[500];
    std::snprintf(text, sizeof(text),
                  " bidirectional %s: G and g fitted together over the means of %d points "
                  "(single copies and piece series%s), minimizing the largest relative residual "
                  "(%.2f %%), L+o fixed",
                  name.c_str(), chosen.fit.points, fast_mode ? ", fast mode" : "",
                  100 * chosen.fit.max_relative_residual);
    estimate_.profile.notes += text;
    if (large_pieces > 0) {
      std::snprintf(text, sizeof(text),
                    ", with pieces of %.0f MiB and more at G = %.2f GB/s and the smaller ones at "
                    "%.2f GB/s (one G for all: %.2f GB/s, largest residual %.2f %%)",
                    large_pieces / kMiB, 1e-9 / chosen.fit.large_piece_seconds_per_byte,
                    1e-9 / chosen.fit.seconds_per_byte, 1e-9 / chosen.one_g.seconds_per_byte,
                    100 * chosen.one_g.max_relative_residual);
      estimate_.profile.notes += text;
      char notice[300];
      std::snprintf(notice, sizeof(notice),
                    "bidirectional %s: pieces from %.0f MiB up at %.1f GB/s, smaller at %.1f GB/s "
                    "(largest residual %.2f %%, one G: %.2f %%)",
                    name.c_str(), large_pieces / kMiB,
                    1e-9 / chosen.fit.large_piece_seconds_per_byte,
                    1e-9 / chosen.fit.seconds_per_byte, 100 * chosen.fit.max_relative_residual,
                    100 * chosen.one_g.max_relative_residual);
      estimate_.notices.push_back(notice);
    }
    if (single_copies_rate_ > 0) {
      std::snprintf(text, sizeof(text), "; the single copies alone would give G = %.2f GB/s",
                    single_copies_rate_ * 1e-9);
      estimate_.profile.notes += text;
    }
    estimate_.profile.notes += ".";
    if (floor > 0) {
      record_fit(g_quantity + ".all_pieces", "s/B",
                 as_line(unrestricted.fit, unrestricted.fit.seconds_per_byte),
                 unrestricted.repeat_seconds_per_byte);
      record_fit(gap_quantity + ".all_pieces", "s",
                 as_line(unrestricted.fit, unrestricted.fit.gap_s), unrestricted.repeat_gaps);
      estimate_.profile.notes += gap_domain_note(
          gap_quantity, "G and g fit", "they miss", floor, chosen.fit.max_relative_residual,
          unrestricted.fit.max_relative_residual, requirement, "bidirectional_gap_min_piece_bytes");
    }
    const std::string verdict = floor > 0 ? std::string() : unrestricted_problem;
    if (!verdict.empty())
      problem(verdict);
    estimate_.fits.push_back(
        {g_quantity, as_line(chosen.fit, chosen.fit.seconds_per_byte), verdict});
    estimate_.fits.push_back({gap_quantity, as_line(chosen.fit, chosen.fit.gap_s), verdict});
    link->bidirectional_seconds_per_byte = chosen.fit.seconds_per_byte;
    link->bidirectional_gap_s = chosen.fit.gap_s;
    link->bidirectional_gap_min_piece_bytes = floor;
    link->bidirectional_large_piece_seconds_per_byte = chosen.fit.large_piece_seconds_per_byte;
    link->bidirectional_large_piece_min_bytes = large_pieces;
  }

  // Paper 001's estimator of G over the single copies alone (what the busy G was before the
  // joint fit), with its residuals there; not judged. On the means, as the joint fit, so the two
  // differ by their points only.
  void single_copies(const std::string& quantity, const Series& sizes, double latency) {
    single_copies_rate_ = 0;
    LinearFit fit;
    if (sizes.empty() || !fit_slope_by_ratio(points_of(sizes, mean_of), latency, &fit))
      return;
    std::vector<double> slopes;
    for (std::size_t r = 0; r < repeat_count(sizes); ++r) {
      LinearFit one;
      if (fit_slope_by_ratio(repeat_points(sizes, r), latency, &one))
        slopes.push_back(one.slope);
    }
    record_fit(quantity, "s/B", fit, slopes);
    single_copies_rate_ = fit.slope > 0 ? 1 / fit.slope : 0;
  }

  // The free least-squares line over the sizes, for comparison with the paper's estimator: its
  // intercept is what a fit that ignores the 1-byte L+o would use.
  void free_line(const std::string& quantity, const Series& sizes) {
    LinearFit fit;
    if (sizes.empty() || !fit_line(median_points(sizes), &fit))
      return;
    ProfileMeasurement slope;
    slope.quantity = quantity + ".slope";
    slope.unit = "s/B";
    slope.value = slope.min = slope.max = fit.slope;
    slope.repeats = 1;
    slope.r_squared = fit.r_squared;
    slope.max_relative_residual = fit.max_relative_residual;
    ProfileMeasurement intercept = slope;
    intercept.quantity = quantity + ".intercept";
    intercept.unit = "s";
    intercept.value = intercept.min = intercept.max = fit.intercept;
    estimate_.profile.measurements.push_back(slope);
    estimate_.profile.measurements.push_back(intercept);
  }

  // g over piece counts (one slope shared by every message size, each with its own intercept).
  // When one g does not fit every piece within `requirement`, the smallest pieces are left out
  // one size at a time until it does, as long as at least half of the points and the largest
  // piece count remain: the piece size reached becomes g's domain of validity
  // (LinkDirection::gap_min_piece_bytes) and is explained in the notes. If no such domain exists,
  // the fit over all pieces is the problem.
  GapEstimate gap(const std::string& quantity, const std::string& description,
                  const std::vector<Series>& piece_series, const std::vector<double>& messages,
                  const FitRequirement& requirement, bool required,
                  const char* domain_field = "gap_min_piece_bytes") {
    const std::string what = quantity + " (" + description + ")";
    const std::vector<double> floors = piece_floors(piece_series, messages);

    const std::vector<Series> all = restricted_pieces(piece_series, messages, 0);
    if (all.empty()) {
      if (required)
        problem(what + ": nothing was measured");
      return {};
    }
    const std::size_t all_points = point_count(all);
    GapFit unrestricted;
    if (!fit_gap(all, &unrestricted)) {
      problem(what + ": the measured points determine no line");
      return {};
    }
    std::string unrestricted_problem = judge_fit(what, unrestricted.stored, requirement);
    GapFit chosen = unrestricted;
    double floor = 0;
    for (std::size_t f = 1; !unrestricted_problem.empty() && f < floors.size(); ++f) {
      const std::vector<Series> kept = restricted_pieces(piece_series, messages, floors[f]);
      // Still the largest piece count among the kept points: what is left out must be explained
      // by the pieces' size, not by their number (a host-bound regime beyond some n is a misfit,
      // not a domain).
      if (2 * point_count(kept) < all_points || largest_x(kept) < largest_x(all))
        break;
      GapFit fit;
      if (fit_gap(kept, &fit) && judge_fit(what, fit.stored, requirement).empty()) {
        chosen = fit;
        floor = floors[f];
        break;
      }
    }

    record_fit(quantity, "s", chosen.fit, chosen.repeat_slopes);
    if (floor > 0) {
      // The fit over every piece stays in the record, so the reader sees what was left out.
      record_fit(quantity + ".all_pieces", "s", unrestricted.fit, unrestricted.repeat_slopes);
      estimate_.profile.notes += gap_domain_note(
          quantity, "one g fits", "it misses", floor, chosen.stored.max_relative_residual,
          unrestricted.stored.max_relative_residual, requirement, domain_field);
    }
    FitReport report{quantity, chosen.stored, floor > 0 ? std::string() : unrestricted_problem};
    if (!report.problem.empty())
      problem(report.problem);
    estimate_.fits.push_back(report);
    return {std::max(0.0, chosen.fit.slope), floor};
  }

  // Records a host cost per call with the spread of its samples: the lower quartile. A call's
  // cost only grows by what else the host does meanwhile (interrupts, other threads, a slow
  // phase, the first bursts' cold caches), so the slow samples are the noise; the quartile,
  // unlike the minimum, is not one lucky burst. On the committed calibrations the repeats of
  // one step went from one speed to another mid-step (launch 3.42-3.53 then 4.16-4.26 us) and
  // the first copy-call repeats ran slow (3.05, 3.21, then 2.22-2.61 us).
  double host_cost(const std::string& quantity, const std::vector<double>& samples) {
    return scalar(quantity, samples, &SampleStats::q1);
  }

  void overheads(const CalibrationMeasurements& m, HardwareProfile* profile) {
    if (!m.kernel_launch_seconds.empty())
      profile->kernel_launch_s = host_cost("kernel_launch_s", m.kernel_launch_seconds);
    if (!m.launch_sync_seconds.empty()) {
      const double launch_and_sync = host_cost("launch_and_sync_s", m.launch_sync_seconds);
      const double sync = launch_and_sync - profile->kernel_launch_s;
      if (sync > 0) {
        profile->stream_sync_s = sync;
      } else {
        char text[200];
        std::snprintf(text, sizeof(text),
                      "stream_sync_s: launch + synchronize (%.3g s) is not slower than a launch "
                      "alone (%.3g s)",
                      launch_and_sync, profile->kernel_launch_s);
        problem(text);
      }
    }
    if (!m.copy_call_seconds.empty())
      profile->copy_call_s = host_cost("copy_call_s", m.copy_call_seconds);
    const SeriesFit line = fit_line;
    profile->stream_overhead_s =
        std::max(0.0, fitted_slope("stream_overhead_s", "t_sc over stream counts", "s",
                                   m.stream_rounds, line, thresholds_.stream_round_fit, false));
    profile->mapped_read_seconds_per_byte = mapped_slope(
        "mapped.read_seconds_per_byte", "mapped read kernel over sizes", m.mapped_read_sizes);
    profile->mapped_write_seconds_per_byte = mapped_slope(
        "mapped.write_seconds_per_byte", "mapped write kernel over sizes", m.mapped_write_sizes);
    mapped_by_width(m, profile);
    mapped_both_ways(m, profile);
    host_copy(m, profile);
  }

  // The staging ring's host copies: one thread's time per byte (the median of its repeats), and
  // the thread count whose median per byte is lowest, the memory system's limit (more threads
  // than that only contend). Host clock, so no fit: the copies are long against its resolution.
  void host_copy(const CalibrationMeasurements& m, HardwareProfile* profile) {
    const Series& series = m.host_copy;
    if (series.empty() || m.host_copy_bytes <= 0)
      return;
    double best = 0;
    int best_threads = 0;
    for (std::size_t i = 0; i < series.x.size(); ++i) {
      const int threads = static_cast<int>(series.x[i]);
      const std::string quantity =
          threads == 1 ? "host_copy.seconds_per_byte"
                       : "host_copy.seconds_per_byte." + std::to_string(threads) + "_threads";
      const double per_byte = per_byte_of(quantity, series.seconds[i], m.host_copy_bytes);
      if (threads == 1)
        profile->host_copy_seconds_per_byte = per_byte;
      if (per_byte > 0 && (best_threads == 0 || per_byte < best)) {
        best = per_byte;
        best_threads = threads;
      }
    }
    profile->host_copy_parallel_seconds_per_byte = best;
    profile->host_copy_threads = best_threads;
    char text[200];
    std::snprintf(
        text, sizeof(text),
        " host_copy: pageable to pinned, %.1f GB/s on one thread, %.1f GB/s at most "
        "(%d threads).",
        profile->host_copy_seconds_per_byte > 0 ? 1e-9 / profile->host_copy_seconds_per_byte : 0.0,
        best > 0 ? 1e-9 / best : 0.0, best_threads);
    profile->notes += text;
  }

  // A time per byte from repeats of one copy of `bytes`, recorded like the other quantities.
  double per_byte_of(const std::string& quantity, const std::vector<double>& seconds,
                     double bytes) {
    std::vector<double> per_byte;
    for (double s : seconds)
      per_byte.push_back(s / bytes);
    const double value = scalar(quantity, per_byte);
    estimate_.profile.measurements.back().unit = "s/B";
    return value;
  }

  // Time over the bytes moved each way: the cost per byte of each direction while the other is
  // as busy with mapped traffic. Judged like the one-way mapped kernels; its ratios to them are
  // what the model applies, so the notes state them.
  void mapped_both_ways(const CalibrationMeasurements& m, HardwareProfile* profile) {
    profile->mapped_both_ways_seconds_per_byte =
        mapped_slope("mapped.both_ways_seconds_per_byte",
                     "mapped kernel reading and writing as many bytes, over bytes each way",
                     m.mapped_both_ways_sizes);
    const double both_ways = profile->mapped_both_ways_seconds_per_byte;
    if (both_ways <= 0 || profile->mapped_read_seconds_per_byte <= 0 ||
        profile->mapped_write_seconds_per_byte <= 0)
      return;
    char text[300];
    std::snprintf(text, sizeof(text),
                  " mapped.both_ways_seconds_per_byte: a kernel reading and writing as many "
                  "mapped bytes ran at %.2f GB/s each way, %.2fx the one-way read cost and %.2fx "
                  "the one-way write cost.",
                  1e-9 / both_ways, both_ways / profile->mapped_read_seconds_per_byte,
                  both_ways / profile->mapped_write_seconds_per_byte);
    profile->notes += text;
  }

  // A mapped kernel's cost per byte, fitted like the link's: the kernels too ran at one of two
  // rates from one repeat to the next on the H100 (4-byte writes at 52.6 or 25.4 GB/s), and the
  // medians of such a mix follow no line and describe neither rate. Then the fast repeats are
  // fitted, as for the bidirectional link, and the slow rate is named in the notes and the
  // measurements. The kernels' launch is a few microseconds against the milliseconds of their
  // traffic, so the repeats' whole times stand for their durations.
  double mapped_slope(const std::string& quantity, const std::string& description,
                      const Series& series) {
    const TwoRateLink modes = detect_two_rates(series, 0);
    if (modes.detected) {
      const std::string line = quantity + ": " + modes.describe() + ", fitted on the fast repeats";
      estimate_.notices.push_back(line);
      estimate_.profile.notes += " " + line + ".";
      ProfileMeasurement slow;
      slow.quantity = quantity + ".slow_mode";
      slow.unit = "s/B";
      slow.value = slow.min = slow.max = 1 / modes.slow_rate;
      slow.repeats = modes.slow_repeats;
      estimate_.profile.measurements.push_back(slow);
    }
    return std::max(0.0, fitted_slope(quantity,
                                      modes.detected ? description + ", fast mode" : description,
                                      "s/B", modes.detected ? fast_mode_series(series, 0) : series,
                                      fit_line, thresholds_.mapped_kernel_fit, false));
  }

  void mapped_by_width(const CalibrationMeasurements& m, HardwareProfile* profile) {
    for (const MappedWidthSeries& w : m.mapped_by_width) {
      const std::string prefix = "mapped.by_width." + std::to_string(w.element_bytes) + "B.";
      const std::string what =
          " kernel over sizes, " + std::to_string(w.element_bytes) + "-byte elements";
      MappedWidthCost cost;
      cost.element_bytes = w.element_bytes;
      cost.read_seconds_per_byte =
          mapped_slope(prefix + "read_seconds_per_byte", "mapped read" + what, w.read_sizes);
      cost.write_seconds_per_byte =
          mapped_slope(prefix + "write_seconds_per_byte", "mapped write" + what, w.write_sizes);
      profile->mapped_by_width.push_back(cost);
      if (w.element_bytes == 16)
        compare_with_vector_kernels(cost, *profile);
    }
  }

  // The 16-byte row measures what the mapped read/write kernels measure, with another kernel;
  // a difference beyond the fits' own tolerance means one of them does not measure the link.
  void compare_with_vector_kernels(const MappedWidthCost& cost, const HardwareProfile& profile) {
    const std::pair<const char*, std::pair<double, double>> pairs[] = {
        {"read", {cost.read_seconds_per_byte, profile.mapped_read_seconds_per_byte}},
        {"write", {cost.write_seconds_per_byte, profile.mapped_write_seconds_per_byte}}};
    for (const auto& [access, values] : pairs) {
      if (values.first <= 0 || values.second <= 0)
        continue;
      const double difference = std::fabs(values.first - values.second) / values.second;
      if (difference <= thresholds_.mapped_kernel_fit.max_relative_residual)
        continue;
      char text[300];
      std::snprintf(text, sizeof(text),
                    "mapped.by_width.16B.%s_seconds_per_byte: %.2f GB/s differs by %.1f %% from "
                    "mapped.%s_seconds_per_byte (%.2f GB/s), which measures the same access",
                    access, 1e-9 / values.first, 100 * difference, access, 1e-9 / values.second);
      problem(text);
    }
  }

private:
  const QualityThresholds& thresholds_;
  ProfileEstimate& estimate_;
  double single_copies_rate_ = 0; // bytes per second; of the direction being fitted
};

} // namespace

ProfileEstimate estimate_profile(const CalibrationMeasurements& measurements,
                                 const QualityThresholds& thresholds) {
  ProfileEstimate estimate;
  HardwareProfile& profile = estimate.profile;
  profile.source = "measured by overlap-calibrate";
  profile.device_name = measurements.device.name;
  profile.pcie = measurements.device.pcie;
  profile.driver = measurements.device.driver;
  profile.date = measurements.device.date;
  profile.compute_capability_major = measurements.device.compute_capability_major;
  profile.compute_capability_minor = measurements.device.compute_capability_minor;
  profile.multiprocessors = measurements.device.multiprocessors;
  profile.copy_engines = measurements.device.copy_engines;
  profile.implicit_synchronization = measurements.device.implicit_synchronization;
  profile.notes =
      "Pinned memory, device-side times (CUDA events; the device is held until every piece is "
      "issued, so host issue costs are not in g). L+o: 1-byte copy. G: paper 001 sec. V-A "
      "estimator with L+o fixed. g: least-squares slope over n = 1..256 pieces on n streams. "
      "stream_sync_s: paper 002 eq. 4.3. stream_overhead_s: slope of a minimal streamed round "
      "(copy in, empty kernel, copy out per stream) over the stream count, host clock. "
      "kernel_launch_s, launch + synchronize and copy_call_s: lower quartile of many short "
      "bursts, host clock over the calls alone (the device synchronized between bursts). "
      "See docs/hardware-profiles.md.";

  for (const std::string& skipped : measurements.skipped)
    profile.notes += " Not measured (left unknown): " + skipped + ".";

  Estimator estimator(thresholds, &estimate);
  estimator.direction("host_to_device", measurements.host_to_device, &profile.host_to_device);
  estimator.direction("device_to_host", measurements.device_to_host, &profile.device_to_host);
  estimator.overheads(measurements, &profile);
  return estimate;
}

} // namespace overlap::calibration
