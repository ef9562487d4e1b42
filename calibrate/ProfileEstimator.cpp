#include "ProfileEstimator.h"

#include "MinimaxFit.h"
#include "TwoRateLink.h"

#include "overlap/SampleStats.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <utility>

namespace overlap::calibration {

namespace {

using SeriesFit = std::function<bool(const std::vector<Point>&, LinearFit*)>;

std::size_t repeatCount(const Series& series) {
  std::size_t count = std::numeric_limits<std::size_t>::max();
  for (const std::vector<double>& repeats : series.seconds)
    count = std::min(count, repeats.size());
  return series.seconds.empty() ? 0 : count;
}

// What a fit takes from a point's repeats: their median, their mean, or one repeat.
using RepeatPick = std::function<double(const std::vector<double>&)>;

std::vector<Point> pointsOf(const Series& series, const RepeatPick& pick) {
  std::vector<Point> points;
  for (std::size_t i = 0; i < series.x.size(); ++i)
    points.push_back({series.x[i], pick(series.seconds[i])});
  return points;
}

std::vector<Point> medianPoints(const Series& series) {
  return pointsOf(series,
                  [](const std::vector<double>& repeats) { return summarize(repeats).median; });
}

// The spread of a fit: the same fit on each repeat alone.
RepeatPick nthRepeat(std::size_t repeat) {
  return [repeat](const std::vector<double>& repeats) { return repeats[repeat]; };
}

std::vector<Point> repeatPoints(const Series& series, std::size_t repeat) {
  return pointsOf(series, nthRepeat(repeat));
}

// The piece-count series with x = n - 1, keeping only points whose pieces (message / n) are at
// least `minPieceBytes`; series left with fewer than two points are dropped.
std::vector<Series> restrictedPieces(const std::vector<Series>& pieceSeries,
                                     const std::vector<double>& messages, double minPieceBytes) {
  std::vector<Series> kept;
  for (std::size_t s = 0; s < pieceSeries.size() && s < messages.size(); ++s) {
    Series series;
    for (std::size_t i = 0; i < pieceSeries[s].x.size(); ++i) {
      const double n = pieceSeries[s].x[i];
      if (n <= 1 || messages[s] / n >= minPieceBytes)
        series.add(n - 1, pieceSeries[s].seconds[i]);
    }
    if (series.x.size() >= 2)
      kept.push_back(std::move(series));
  }
  return kept;
}

std::size_t pointCount(const std::vector<Series>& series) {
  std::size_t count = 0;
  for (const Series& s : series)
    count += s.x.size();
  return count;
}

double largestX(const std::vector<Series>& series) {
  double largest = 0;
  for (const Series& s : series)
    for (double x : s.x)
      largest = std::max(largest, x);
  return largest;
}

// The piece sizes (message / n for n > 1) that can bound g's domain, ascending after a leading 0
// (every piece).
std::vector<double> pieceFloors(const std::vector<Series>& pieceSeries,
                                const std::vector<double>& messages) {
  std::vector<double> floors{0};
  for (std::size_t s = 0; s < pieceSeries.size() && s < messages.size(); ++s)
    for (double n : pieceSeries[s].x)
      if (n > 1)
        floors.push_back(messages[s] / n);
  std::sort(floors.begin() + 1, floors.end());
  floors.erase(std::unique(floors.begin(), floors.end()), floors.end());
  return floors;
}

// The time of a busy-link point: the mean of its repeats. Against a busy link the H100's
// host-to-device copies of one size ran anywhere between ~37 and ~51 GB/s from one repeat to the
// next, too close together for the two-rate rule (TwoRateLink.h) to split; the median of such
// repeats jumps between them, the mean settles as the repeats grow (docs/hardware-profiles.md,
// "Calibration: method", step 4).
double meanOf(const std::vector<double>& repeats) {
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

  // Every single copy, and each piece-series point whose pieces are at least `minPieceBytes`
  // (one piece always), timed by what `pick` takes from its repeats.
  std::vector<TransferTime> transfers(double minPieceBytes, const RepeatPick& pick) const {
    std::vector<TransferTime> out;
    for (std::size_t i = 0; i < sizes.x.size(); ++i)
      out.push_back({sizes.x[i], 1, pick(sizes.seconds[i])});
    for (std::size_t s = 0; s < pieces.size() && s < messages.size(); ++s)
      for (std::size_t i = 0; i < pieces[s].x.size(); ++i) {
        const double n = pieces[s].x[i];
        if (n <= 1 || messages[s] / n >= minPieceBytes)
          out.push_back({messages[s], n, pick(pieces[s].seconds[i])});
      }
    return out;
  }

  std::size_t repeats() const {
    std::size_t count = std::numeric_limits<std::size_t>::max();
    if (!sizes.empty())
      count = repeatCount(sizes);
    for (const Series& s : pieces)
      if (!s.empty())
        count = std::min(count, repeatCount(s));
    return count == std::numeric_limits<std::size_t>::max() ? 0 : count;
  }
};

double mostPieces(const std::vector<TransferTime>& transfers) {
  double most = 0;
  for (const TransferTime& t : transfers)
    most = std::max(most, t.pieces);
  return most;
}

constexpr double kMiB = 1024.0 * 1024.0;

struct JointFit {
  MinimaxTransferFit fit; // on the means
  std::vector<double> repeatSecondsPerByte;
  std::vector<double> repeatGaps;
  std::vector<double> repeatLargePieceSecondsPerByte; // when fit has a large-piece G
  // The one-G fit over the same points, kept for comparison when the pieces are split by size.
  MinimaxTransferFit oneG;
};

// The joint minimax fit on the means of the points with pieces of at least `minPieceBytes`,
// and on each repeat alone for the spread; false when the means determine no G > 0.
bool jointFit(const BusySeries& busy, double minPieceBytes, double latencyS,
              double largePieceMinBytes, JointFit* out) {
  JointFit result;
  if (!fitTransferMinimax(busy.transfers(minPieceBytes, meanOf), latencyS, largePieceMinBytes,
                          &result.fit))
    return false;
  result.oneG = result.fit;
  for (std::size_t r = 0; r < busy.repeats(); ++r) {
    MinimaxTransferFit one;
    if (fitTransferMinimax(busy.transfers(minPieceBytes, nthRepeat(r)), latencyS,
                           largePieceMinBytes, &one)) {
      result.repeatSecondsPerByte.push_back(one.secondsPerByte);
      result.repeatGaps.push_back(one.gapS);
      if (largePieceMinBytes > 0)
        result.repeatLargePieceSecondsPerByte.push_back(one.largePieceSecondsPerByte);
    }
  }
  *out = std::move(result);
  return true;
}

// Where the busy link's pieces may be split into two size classes: the geometric middle between
// consecutive piece sizes measured, leaving at least kMinPieceClassPoints points in each class
// (a class of one or two points would be fitted exactly, whatever their noise).
constexpr std::size_t kMinPieceClassPoints = 3;

std::vector<double> pieceClassBoundaries(const std::vector<TransferTime>& points) {
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

// The busy link's fit over the pieces of at least `minPieceBytes`: one G, or two by piece size
// where a split gains kPieceClassGain (the boundary with the smallest largest residual).
bool busyLinkFit(const BusySeries& busy, double minPieceBytes, double latencyS, JointFit* out) {
  JointFit one;
  if (!jointFit(busy, minPieceBytes, latencyS, 0, &one))
    return false;
  const std::vector<TransferTime> points = busy.transfers(minPieceBytes, meanOf);
  double bestBoundary = 0;
  double bestResidual = one.fit.maxRelativeResidual - kPieceClassGain;
  for (double boundary : pieceClassBoundaries(points)) {
    MinimaxTransferFit split;
    if (fitTransferMinimaxByPieceSize(points, latencyS, boundary, &split) &&
        split.maxRelativeResidual < bestResidual) {
      bestResidual = split.maxRelativeResidual;
      bestBoundary = boundary;
    }
  }
  JointFit split;
  if (bestBoundary > 0 && jointFit(busy, minPieceBytes, latencyS, bestBoundary, &split)) {
    split.oneG = one.fit;
    *out = std::move(split);
  } else {
    *out = std::move(one);
  }
  return true;
}

// A joint fit in the form the records and judgeFit take, `slope` being G or g.
LinearFit asLine(const MinimaxTransferFit& fit, double slope) {
  LinearFit line;
  line.slope = slope;
  line.intercept = fit.latencyS;
  line.rSquared = fit.rSquared;
  line.maxRelativeResidual = fit.maxRelativeResidual;
  line.points = fit.points;
  return line;
}

// The tighter of two limits, 0 meaning "not checked" as in FitRequirement.
double tighterLimit(double a, double b) {
  return a <= 0 ? b : b <= 0 ? a : std::min(a, b);
}

struct GapEstimate {
  double gapS = 0;
  double minPieceBytes = 0;
};

struct GapFit {
  LinearFit fit;    // the least-squares common slope on the medians
  LinearFit stored; // the line the profile stores (slope clamped at 0), judged on the medians
  std::vector<double> repeatSlopes;
};

// One common slope over series of (n - 1, seconds); false when the points determine no line.
bool fitGap(const std::vector<Series>& shifted, GapFit* out) {
  std::vector<std::vector<Point>> points;
  for (const Series& s : shifted)
    points.push_back(medianPoints(s));
  GapFit result;
  std::vector<double> intercepts;
  if (!fitCommonSlope(points, &result.fit, &intercepts))
    return false;
  std::size_t repeats = std::numeric_limits<std::size_t>::max();
  for (const Series& s : shifted)
    repeats = std::min(repeats, repeatCount(s));
  for (std::size_t r = 0; r < repeats; ++r) {
    std::vector<std::vector<Point>> oneRepeat;
    for (const Series& s : shifted)
      oneRepeat.push_back(repeatPoints(s, r));
    LinearFit one;
    std::vector<double> unused;
    if (fitCommonSlope(oneRepeat, &one, &unused))
      result.repeatSlopes.push_back(one.slope);
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
    result.stored = evaluateCommonLine(points, 0, intercepts);
  }
  *out = std::move(result);
  return true;
}

// The profile note saying why pieces under `floor` bytes are outside g's domain of validity:
// the fit over the larger pieces met `requirement`, the fit over all of them did not.
std::string gapDomainNote(const std::string& quantity, const char* fits, const char* misses,
                          double floor, double keptResidual, double allResidual,
                          const FitRequirement& requirement, const char* domainField) {
  char text[500];
  std::snprintf(text, sizeof(text),
                " %s: %s only pieces of at least %.0f KiB (largest residual %.2f %% there); over "
                "all pieces %s by up to %.2f %% (limit %.2f %%), so smaller pieces are outside "
                "g's domain of validity (%s).",
                quantity.c_str(), fits, floor / 1024, 100 * keptResidual, misses, 100 * allResidual,
                100 * requirement.maxRelativeResidual, domainField);
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

  // Fits the medians with `fitFn`, judges the fit, and records it with the range of the slopes
  // fitted to each repeat on its own. Returns the slope, or 0 when there is nothing to fit.
  double fittedSlope(const std::string& quantity, const std::string& description, const char* unit,
                     const Series& series, const SeriesFit& fitFn,
                     const FitRequirement& requirement, bool required) {
    if (series.empty()) {
      if (required)
        problem(quantity + " (" + description + "): nothing was measured");
      return 0;
    }
    LinearFit fit;
    if (!fitFn(medianPoints(series), &fit)) {
      problem(quantity + " (" + description + "): the measured points determine no line");
      return 0;
    }
    std::vector<double> slopes;
    for (std::size_t r = 0; r < repeatCount(series); ++r) {
      LinearFit one;
      if (fitFn(repeatPoints(series, r), &one))
        slopes.push_back(one.slope);
    }
    recordFit(quantity, unit, fit, slopes);
    FitReport report{quantity, fit,
                     judgeFit(quantity + " (" + description + ")", fit, requirement)};
    if (!report.problem.empty())
      problem(report.problem);
    else if (fit.slope <= 0 && required)
      problem(quantity + " (" + description + "): the fitted slope is not positive");
    estimate_.fits.push_back(report);
    return fit.slope;
  }

  void recordFit(const std::string& quantity, const char* unit, const LinearFit& fit,
                 const std::vector<double>& slopes) {
    const SampleStats spread = summarize(slopes);
    ProfileMeasurement m;
    m.quantity = quantity;
    m.unit = unit;
    m.value = fit.slope;
    m.min = slopes.empty() ? fit.slope : spread.min;
    m.max = slopes.empty() ? fit.slope : spread.max;
    m.repeats = spread.count;
    m.rSquared = fit.rSquared;
    m.maxRelativeResidual = fit.maxRelativeResidual;
    estimate_.profile.measurements.push_back(m);
  }

  void direction(const std::string& name, const DirectionMeasurements& d, LinkDirection* link) {
    if (d.oneByteSeconds.empty())
      problem(name + ".latency_s (1-byte transfer): nothing was measured");
    else
      link->latencyS = scalar(name + ".latency_s", d.oneByteSeconds);
    const double latency = link->latencyS;
    const SeriesFit byRatio = [latency](const std::vector<Point>& p, LinearFit* f) {
      return fitSlopeByRatio(p, latency, f);
    };

    link->secondsPerByte =
        std::max(0.0, fittedSlope(name + ".seconds_per_byte", "G over sizes, L+o fixed", "s/B",
                                  d.sizes, byRatio, thresholds_.sizeFit, true));
    freeLine(name + ".least_squares_line", d.sizes);
    const GapEstimate oneWay = gap(name + ".gap_s", "g over piece counts", d.pieces,
                                   d.pieceMessageBytes, thresholds_.pieceFit, true);
    link->gapS = oneWay.gapS;
    link->gapMinPieceBytes = oneWay.minPieceBytes;
    // A link that switches between two rates is fitted in its fast mode: the medians of a mix
    // of both rates follow no line, and the fast rate is the one the link returns to (the
    // first H100 run saw only it). The slow rate and its share are recorded with it.
    const TwoRateLink modes = detectTwoRates(d.bidirectionalSizes, latency);
    const Series busySizes =
        modes.detected ? fastModeSeries(d.bidirectionalSizes, latency) : d.bidirectionalSizes;
    std::vector<Series> busyPieces = d.bidirectionalPieces;
    if (modes.detected)
      for (Series& series : busyPieces)
        series = fastModeSeries(series, latency);
    if (busyPieces.empty()) {
      // Records before version 2 have no busy piece series: G from the single copies alone, g
      // not known.
      link->bidirectionalSecondsPerByte = std::max(
          0.0, fittedSlope(name + ".bidirectional_seconds_per_byte",
                           modes.detected ? "G over sizes with the other direction busy, fast mode"
                                          : "G over sizes with the other direction busy",
                           "s/B", busySizes, byRatio, thresholds_.bidirectionalFit, false));
    } else {
      busyLink(name, {busySizes, busyPieces, d.bidirectionalPieceMessageBytes}, latency,
               modes.detected, link);
    }
    if (modes.detected)
      twoRates(name, modes, link);
    const GapEstimate simultaneous =
        gap(name + ".simultaneous_gap_s",
            "g over piece counts with the other direction cutting as many bytes into as many "
            "pieces at once",
            d.simultaneousPieces, d.simultaneousPieceMessageBytes,
            thresholds_.bidirectionalPieceFit, false, "simultaneous_gap_min_piece_bytes");
    link->simultaneousGapS = simultaneous.gapS;
    link->simultaneousGapMinPieceBytes = simultaneous.minPieceBytes;
    link->pageableSecondsPerByte =
        std::max(0.0, fittedSlope(name + ".pageable_seconds_per_byte", "pageable G over sizes",
                                  "s/B", d.pageableSizes, fitLine, thresholds_.pageableFit, false));
    link->withMappedSecondsPerByte =
        std::max(0.0, fittedSlope(name + ".with_mapped_seconds_per_byte",
                                  "G over sizes against mapped traffic", "s/B", d.withMappedSizes,
                                  byRatio, thresholds_.withMappedFit, false));
  }

  // Records the slow mode of a two-rate link: its rate (the median of the slow repeats, not a
  // fit: long copies mix both rates) and the share of the repeats that ran at it.
  void twoRates(const std::string& name, const TwoRateLink& modes, LinkDirection* link) {
    link->bidirectionalSlowSecondsPerByte = 1 / modes.slowRate;
    link->bidirectionalSlowShare = modes.slowShare;
    ProfileMeasurement slow;
    slow.quantity = name + ".bidirectional_seconds_per_byte.slow_mode";
    slow.unit = "s/B";
    slow.value = slow.min = slow.max = 1 / modes.slowRate;
    slow.repeats = modes.slowRepeats;
    estimate_.profile.measurements.push_back(slow);
    const std::string line = "bidirectional " + name + ": " + modes.describe();
    estimate_.notices.push_back(line);
    char text[400];
    std::snprintf(text, sizeof(text),
                  " bidirectional %s: the link ran at two rates (%d of %d sizes split, gap up to "
                  "%.2fx): %.1f GB/s and %.1f GB/s in %.0f %% of %d repeats; G is fitted on the "
                  "fast repeats and the slow rate is bidirectional_slow_seconds_per_byte.",
                  name.c_str(), modes.splitSizes, modes.sizes, modes.largestGapRatio,
                  modes.fastRate * 1e-9, modes.slowRate * 1e-9, 100 * modes.slowShare,
                  modes.repeats);
    estimate_.profile.notes += text;
  }

  // The busy link's G and g, fitted together over the single copies and every piece series (the
  // mean of each point's repeats, meanOf) by their largest relative residual (MinimaxFit.h
  // says why), L+o fixed. Judged once, by the tighter residual limit of the two bidirectional
  // requirements, and recorded under the quantities of G and g. R^2 is recorded, not judged: it
  // scores the sum of squares, which a minimax fit gives up for its worst point (run 3 host to
  // device: R^2 0.9987 over the busy points at a largest residual of 3.3 %; the paper's
  // estimator over the single copies alone had R^2 0.9996 there at 3.9 %, and 5.5 % on the
  // accuracy grid). When the fit over every piece misses, the smallest pieces are left out as
  // for the one-way g (gap()), and the piece size reached becomes g's domain of validity. The
  // single copies' estimate is recorded beside it for comparison.
  void busyLink(const std::string& name, const BusySeries& busy, double latency, bool fastMode,
                LinkDirection* link) {
    const std::string gQuantity = name + ".bidirectional_seconds_per_byte";
    const std::string gapQuantity = name + ".bidirectional_gap_s";
    const std::string what =
        gQuantity + " and " + gapQuantity +
        " (G and g together over sizes and piece counts with the other direction busy, largest "
        "relative residual minimized" +
        (fastMode ? ", fast mode)" : ")");
    FitRequirement requirement;
    requirement.maxRelativeResidual =
        tighterLimit(thresholds_.bidirectionalFit.maxRelativeResidual,
                     thresholds_.bidirectionalPieceFit.maxRelativeResidual);
    singleCopies(gQuantity + ".single_copies", busy.sizes, latency);

    JointFit unrestricted;
    if (!busyLinkFit(busy, 0, latency, &unrestricted)) {
      problem(what + ": the measured points determine no G > 0");
      return;
    }
    const std::string unrestrictedProblem =
        judgeFit(what, asLine(unrestricted.fit, unrestricted.fit.secondsPerByte), requirement);
    JointFit chosen = unrestricted;
    double floor = 0;
    const std::vector<double> floors = pieceFloors(busy.pieces, busy.messages);
    const std::vector<TransferTime> all = busy.transfers(0, meanOf);
    for (std::size_t f = 1; !unrestrictedProblem.empty() && f < floors.size(); ++f) {
      const std::vector<TransferTime> kept = busy.transfers(floors[f], meanOf);
      // As in gap(): what is left out must be explained by the pieces' size, not their number.
      if (2 * kept.size() < all.size() || mostPieces(kept) < mostPieces(all))
        break;
      JointFit fit;
      if (busyLinkFit(busy, floors[f], latency, &fit) &&
          judgeFit(what, asLine(fit.fit, fit.fit.secondsPerByte), requirement).empty()) {
        chosen = fit;
        floor = floors[f];
        break;
      }
    }

    recordFit(gQuantity, "s/B", asLine(chosen.fit, chosen.fit.secondsPerByte),
              chosen.repeatSecondsPerByte);
    recordFit(gapQuantity, "s", asLine(chosen.fit, chosen.fit.gapS), chosen.repeatGaps);
    const double largePieces = chosen.fit.largePieceMinBytes;
    if (largePieces > 0) {
      recordFit(name + ".bidirectional_large_piece_seconds_per_byte", "s/B",
                asLine(chosen.fit, chosen.fit.largePieceSecondsPerByte),
                chosen.repeatLargePieceSecondsPerByte);
      recordFit(gQuantity + ".one_g", "s/B", asLine(chosen.oneG, chosen.oneG.secondsPerByte), {});
    }
    char text[500];
    std::snprintf(text, sizeof(text),
                  " bidirectional %s: G and g fitted together over the means of %d points "
                  "(single copies and piece series%s), minimizing the largest relative residual "
                  "(%.2f %%), L+o fixed",
                  name.c_str(), chosen.fit.points, fastMode ? ", fast mode" : "",
                  100 * chosen.fit.maxRelativeResidual);
    estimate_.profile.notes += text;
    if (largePieces > 0) {
      std::snprintf(text, sizeof(text),
                    ", with pieces of %.0f MiB and more at G = %.2f GB/s and the smaller ones at "
                    "%.2f GB/s (one G for all: %.2f GB/s, largest residual %.2f %%)",
                    largePieces / kMiB, 1e-9 / chosen.fit.largePieceSecondsPerByte,
                    1e-9 / chosen.fit.secondsPerByte, 1e-9 / chosen.oneG.secondsPerByte,
                    100 * chosen.oneG.maxRelativeResidual);
      estimate_.profile.notes += text;
      char notice[300];
      std::snprintf(notice, sizeof(notice),
                    "bidirectional %s: pieces from %.0f MiB up at %.1f GB/s, smaller at %.1f GB/s "
                    "(largest residual %.2f %%, one G: %.2f %%)",
                    name.c_str(), largePieces / kMiB, 1e-9 / chosen.fit.largePieceSecondsPerByte,
                    1e-9 / chosen.fit.secondsPerByte, 100 * chosen.fit.maxRelativeResidual,
                    100 * chosen.oneG.maxRelativeResidual);
      estimate_.notices.push_back(notice);
    }
    if (singleCopiesRate_ > 0) {
      std::snprintf(text, sizeof(text), "; the single copies alone would give G = %.2f GB/s",
                    singleCopiesRate_ * 1e-9);
      estimate_.profile.notes += text;
    }
    estimate_.profile.notes += ".";
    if (floor > 0) {
      recordFit(gQuantity + ".all_pieces", "s/B",
                asLine(unrestricted.fit, unrestricted.fit.secondsPerByte),
                unrestricted.repeatSecondsPerByte);
      recordFit(gapQuantity + ".all_pieces", "s", asLine(unrestricted.fit, unrestricted.fit.gapS),
                unrestricted.repeatGaps);
      estimate_.profile.notes += gapDomainNote(
          gapQuantity, "G and g fit", "they miss", floor, chosen.fit.maxRelativeResidual,
          unrestricted.fit.maxRelativeResidual, requirement, "bidirectional_gap_min_piece_bytes");
    }
    const std::string verdict = floor > 0 ? std::string() : unrestrictedProblem;
    if (!verdict.empty())
      problem(verdict);
    estimate_.fits.push_back({gQuantity, asLine(chosen.fit, chosen.fit.secondsPerByte), verdict});
    estimate_.fits.push_back({gapQuantity, asLine(chosen.fit, chosen.fit.gapS), verdict});
    link->bidirectionalSecondsPerByte = chosen.fit.secondsPerByte;
    link->bidirectionalGapS = chosen.fit.gapS;
    link->bidirectionalGapMinPieceBytes = floor;
    link->bidirectionalLargePieceSecondsPerByte = chosen.fit.largePieceSecondsPerByte;
    link->bidirectionalLargePieceMinBytes = largePieces;
  }

  // Paper 001's estimator of G over the single copies alone (what the busy G was before the
  // joint fit), with its residuals there; not judged. On the means, as the joint fit, so the two
  // differ by their points only.
  void singleCopies(const std::string& quantity, const Series& sizes, double latency) {
    singleCopiesRate_ = 0;
    LinearFit fit;
    if (sizes.empty() || !fitSlopeByRatio(pointsOf(sizes, meanOf), latency, &fit))
      return;
    std::vector<double> slopes;
    for (std::size_t r = 0; r < repeatCount(sizes); ++r) {
      LinearFit one;
      if (fitSlopeByRatio(repeatPoints(sizes, r), latency, &one))
        slopes.push_back(one.slope);
    }
    recordFit(quantity, "s/B", fit, slopes);
    singleCopiesRate_ = fit.slope > 0 ? 1 / fit.slope : 0;
  }

  // The free least-squares line over the sizes, for comparison with the paper's estimator: its
  // intercept is what a fit that ignores the 1-byte L+o would use.
  void freeLine(const std::string& quantity, const Series& sizes) {
    LinearFit fit;
    if (sizes.empty() || !fitLine(medianPoints(sizes), &fit))
      return;
    ProfileMeasurement slope;
    slope.quantity = quantity + ".slope";
    slope.unit = "s/B";
    slope.value = slope.min = slope.max = fit.slope;
    slope.repeats = 1;
    slope.rSquared = fit.rSquared;
    slope.maxRelativeResidual = fit.maxRelativeResidual;
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
                  const std::vector<Series>& pieceSeries, const std::vector<double>& messages,
                  const FitRequirement& requirement, bool required,
                  const char* domainField = "gap_min_piece_bytes") {
    const std::string what = quantity + " (" + description + ")";
    const std::vector<double> floors = pieceFloors(pieceSeries, messages);

    const std::vector<Series> all = restrictedPieces(pieceSeries, messages, 0);
    if (all.empty()) {
      if (required)
        problem(what + ": nothing was measured");
      return {};
    }
    const std::size_t allPoints = pointCount(all);
    GapFit unrestricted;
    if (!fitGap(all, &unrestricted)) {
      problem(what + ": the measured points determine no line");
      return {};
    }
    std::string unrestrictedProblem = judgeFit(what, unrestricted.stored, requirement);
    GapFit chosen = unrestricted;
    double floor = 0;
    for (std::size_t f = 1; !unrestrictedProblem.empty() && f < floors.size(); ++f) {
      const std::vector<Series> kept = restrictedPieces(pieceSeries, messages, floors[f]);
      // Still the largest piece count among the kept points: what is left out must be explained
      // by the pieces' size, not by their number (a host-bound regime beyond some n is a misfit,
      // not a domain).
      if (2 * pointCount(kept) < allPoints || largestX(kept) < largestX(all))
        break;
      GapFit fit;
      if (fitGap(kept, &fit) && judgeFit(what, fit.stored, requirement).empty()) {
        chosen = fit;
        floor = floors[f];
        break;
      }
    }

    recordFit(quantity, "s", chosen.fit, chosen.repeatSlopes);
    if (floor > 0) {
      // The fit over every piece stays in the record, so the reader sees what was left out.
      recordFit(quantity + ".all_pieces", "s", unrestricted.fit, unrestricted.repeatSlopes);
      estimate_.profile.notes += gapDomainNote(
          quantity, "one g fits", "it misses", floor, chosen.stored.maxRelativeResidual,
          unrestricted.stored.maxRelativeResidual, requirement, domainField);
    }
    FitReport report{quantity, chosen.stored, floor > 0 ? std::string() : unrestrictedProblem};
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
  double hostCost(const std::string& quantity, const std::vector<double>& samples) {
    return scalar(quantity, samples, &SampleStats::q1);
  }

  void overheads(const CalibrationMeasurements& m, HardwareProfile* profile) {
    if (!m.kernelLaunchSeconds.empty())
      profile->kernelLaunchS = hostCost("kernel_launch_s", m.kernelLaunchSeconds);
    if (!m.launchSyncSeconds.empty()) {
      const double launchAndSync = hostCost("launch_and_sync_s", m.launchSyncSeconds);
      const double sync = launchAndSync - profile->kernelLaunchS;
      if (sync > 0) {
        profile->streamSyncS = sync;
      } else {
        char text[200];
        std::snprintf(text, sizeof(text),
                      "stream_sync_s: launch + synchronize (%.3g s) is not slower than a launch "
                      "alone (%.3g s)",
                      launchAndSync, profile->kernelLaunchS);
        problem(text);
      }
    }
    if (!m.copyCallSeconds.empty())
      profile->copyCallS = hostCost("copy_call_s", m.copyCallSeconds);
    const SeriesFit line = fitLine;
    profile->streamOverheadS =
        std::max(0.0, fittedSlope("stream_overhead_s", "t_sc over stream counts", "s",
                                  m.streamRounds, line, thresholds_.streamRoundFit, false));
    profile->mappedReadSecondsPerByte = mappedSlope(
        "mapped.read_seconds_per_byte", "mapped read kernel over sizes", m.mappedReadSizes);
    profile->mappedWriteSecondsPerByte = mappedSlope(
        "mapped.write_seconds_per_byte", "mapped write kernel over sizes", m.mappedWriteSizes);
    mappedByWidth(m, profile);
    mappedBothWays(m, profile);
    hostCopy(m, profile);
  }

  // The staging ring's host copies: one thread's time per byte (the median of its repeats), and
  // the thread count whose median per byte is lowest, the memory system's limit (more threads
  // than that only contend). Host clock, so no fit: the copies are long against its resolution.
  void hostCopy(const CalibrationMeasurements& m, HardwareProfile* profile) {
    const Series& series = m.hostCopy;
    if (series.empty() || m.hostCopyBytes <= 0)
      return;
    double best = 0;
    int bestThreads = 0;
    for (std::size_t i = 0; i < series.x.size(); ++i) {
      const int threads = static_cast<int>(series.x[i]);
      const std::string quantity =
          threads == 1 ? "host_copy.seconds_per_byte"
                       : "host_copy.seconds_per_byte." + std::to_string(threads) + "_threads";
      const double perByte = perByteOf(quantity, series.seconds[i], m.hostCopyBytes);
      if (threads == 1)
        profile->hostCopySecondsPerByte = perByte;
      if (perByte > 0 && (bestThreads == 0 || perByte < best)) {
        best = perByte;
        bestThreads = threads;
      }
    }
    profile->hostCopyParallelSecondsPerByte = best;
    profile->hostCopyThreads = bestThreads;
    char text[200];
    std::snprintf(text, sizeof(text),
                  " host_copy: pageable to pinned, %.1f GB/s on one thread, %.1f GB/s at most "
                  "(%d threads).",
                  profile->hostCopySecondsPerByte > 0 ? 1e-9 / profile->hostCopySecondsPerByte
                                                      : 0.0,
                  best > 0 ? 1e-9 / best : 0.0, bestThreads);
    profile->notes += text;
  }

  // A time per byte from repeats of one copy of `bytes`, recorded like the other quantities.
  double perByteOf(const std::string& quantity, const std::vector<double>& seconds, double bytes) {
    std::vector<double> perByte;
    for (double s : seconds)
      perByte.push_back(s / bytes);
    const double value = scalar(quantity, perByte);
    estimate_.profile.measurements.back().unit = "s/B";
    return value;
  }

  // Time over the bytes moved each way: the cost per byte of each direction while the other is
  // as busy with mapped traffic. Judged like the one-way mapped kernels; its ratios to them are
  // what the model applies, so the notes state them.
  void mappedBothWays(const CalibrationMeasurements& m, HardwareProfile* profile) {
    profile->mappedBothWaysSecondsPerByte =
        mappedSlope("mapped.both_ways_seconds_per_byte",
                    "mapped kernel reading and writing as many bytes, over bytes each way",
                    m.mappedBothWaysSizes);
    const double bothWays = profile->mappedBothWaysSecondsPerByte;
    if (bothWays <= 0 || profile->mappedReadSecondsPerByte <= 0 ||
        profile->mappedWriteSecondsPerByte <= 0)
      return;
    char text[300];
    std::snprintf(text, sizeof(text),
                  " mapped.both_ways_seconds_per_byte: a kernel reading and writing as many "
                  "mapped bytes ran at %.2f GB/s each way, %.2fx the one-way read cost and %.2fx "
                  "the one-way write cost.",
                  1e-9 / bothWays, bothWays / profile->mappedReadSecondsPerByte,
                  bothWays / profile->mappedWriteSecondsPerByte);
    profile->notes += text;
  }

  // A mapped kernel's cost per byte, fitted like the link's: the kernels too ran at one of two
  // rates from one repeat to the next on the H100 (4-byte writes at 52.6 or 25.4 GB/s), and the
  // medians of such a mix follow no line and describe neither rate. Then the fast repeats are
  // fitted, as for the bidirectional link, and the slow rate is named in the notes and the
  // measurements. The kernels' launch is a few microseconds against the milliseconds of their
  // traffic, so the repeats' whole times stand for their durations.
  double mappedSlope(const std::string& quantity, const std::string& description,
                     const Series& series) {
    const TwoRateLink modes = detectTwoRates(series, 0);
    if (modes.detected) {
      const std::string line = quantity + ": " + modes.describe() + ", fitted on the fast repeats";
      estimate_.notices.push_back(line);
      estimate_.profile.notes += " " + line + ".";
      ProfileMeasurement slow;
      slow.quantity = quantity + ".slow_mode";
      slow.unit = "s/B";
      slow.value = slow.min = slow.max = 1 / modes.slowRate;
      slow.repeats = modes.slowRepeats;
      estimate_.profile.measurements.push_back(slow);
    }
    return std::max(0.0, fittedSlope(quantity,
                                     modes.detected ? description + ", fast mode" : description,
                                     "s/B", modes.detected ? fastModeSeries(series, 0) : series,
                                     fitLine, thresholds_.mappedKernelFit, false));
  }

  void mappedByWidth(const CalibrationMeasurements& m, HardwareProfile* profile) {
    for (const MappedWidthSeries& w : m.mappedByWidth) {
      const std::string prefix = "mapped.by_width." + std::to_string(w.elementBytes) + "B.";
      const std::string what =
          " kernel over sizes, " + std::to_string(w.elementBytes) + "-byte elements";
      MappedWidthCost cost;
      cost.elementBytes = w.elementBytes;
      cost.readSecondsPerByte =
          mappedSlope(prefix + "read_seconds_per_byte", "mapped read" + what, w.readSizes);
      cost.writeSecondsPerByte =
          mappedSlope(prefix + "write_seconds_per_byte", "mapped write" + what, w.writeSizes);
      profile->mappedByWidth.push_back(cost);
      if (w.elementBytes == 16)
        compareWithVectorKernels(cost, *profile);
    }
  }

  // The 16-byte row measures what the mapped read/write kernels measure, with another kernel;
  // a difference beyond the fits' own tolerance means one of them does not measure the link.
  void compareWithVectorKernels(const MappedWidthCost& cost, const HardwareProfile& profile) {
    const std::pair<const char*, std::pair<double, double>> pairs[] = {
        {"read", {cost.readSecondsPerByte, profile.mappedReadSecondsPerByte}},
        {"write", {cost.writeSecondsPerByte, profile.mappedWriteSecondsPerByte}}};
    for (const auto& [access, values] : pairs) {
      if (values.first <= 0 || values.second <= 0)
        continue;
      const double difference = std::fabs(values.first - values.second) / values.second;
      if (difference <= thresholds_.mappedKernelFit.maxRelativeResidual)
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
  double singleCopiesRate_ = 0; // bytes per second; of the direction being fitted
};

} // namespace

ProfileEstimate estimateProfile(const CalibrationMeasurements& measurements,
                                const QualityThresholds& thresholds) {
  ProfileEstimate estimate;
  HardwareProfile& profile = estimate.profile;
  profile.source = "measured by overlap-calibrate";
  profile.deviceName = measurements.device.name;
  profile.pcie = measurements.device.pcie;
  profile.driver = measurements.device.driver;
  profile.date = measurements.device.date;
  profile.computeCapabilityMajor = measurements.device.computeCapabilityMajor;
  profile.computeCapabilityMinor = measurements.device.computeCapabilityMinor;
  profile.multiprocessors = measurements.device.multiprocessors;
  profile.copyEngines = measurements.device.copyEngines;
  profile.implicitSynchronization = measurements.device.implicitSynchronization;
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
  estimator.direction("host_to_device", measurements.hostToDevice, &profile.hostToDevice);
  estimator.direction("device_to_host", measurements.deviceToHost, &profile.deviceToHost);
  estimator.overheads(measurements, &profile);
  return estimate;
}

} // namespace overlap::calibration
