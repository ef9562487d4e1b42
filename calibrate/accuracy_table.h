// The accuracy check of issue 3: the LogGP transfer model L+o + k G + g (n-1) of paper 001 §V
// against measured transfer times, per direction and with both directions at once, as Markdown
// and JSON tables. CUDA-free.
#pragma once

#include "overlap/hardware_profile.h"
#include "overlap/sample_stats.h"

#include <optional>
#include <string>
#include <vector>

namespace overlap::calibration {

enum class AccuracyCase : unsigned char {
  HostToDevice,
  DeviceToHost,
  // This direction while the other direction is busy throughout (a longer copy the other way
  // started at the same time): the situation Table II's bidirectional G describes.
  BidirectionalHostToDevice,
  BidirectionalDeviceToHost,
  // Both directions the same size in the same number of pieces, started together; each
  // direction's time to its own end. Predicted with the g measured that way (the pieces of the
  // two directions go in lockstep on the H100), falling back to the busy-link g.
  SimultaneousHostToDevice,
  SimultaneousDeviceToHost,
};

const char* case_name(AccuracyCase which); // "host_to_device", "bidirectional.device_to_host", ...
// Both directions busy: predicted with the bidirectional G, judged by the bidirectional target.
bool is_bidirectional(AccuracyCase which);

// L+o + k G + g (n-1) for a transfer of `which` case: both directions busy take the G of Table
// II (of the pieces' size, where the profile knows a G of large pieces), the busy-link case the g
// measured against one long copy the other way, the simultaneous case the g measured with both
// directions in pieces; each falls back to the next more general value (simultaneous g, busy-link
// g, one-way g) when the profile does not know it.
double predict_transfer_seconds(const LinkDirection& link, double bytes, int pieces,
                                AccuracyCase which);
// Whether the pieces are smaller than the g used for them was measured to hold for
// (LinkDirection::gap_min_piece_bytes and its twins).
bool outside_gap_domain(const LinkDirection& link, double bytes, int pieces, AccuracyCase which);

struct AccuracyRow {
  AccuracyCase which = AccuracyCase::HostToDevice;
  double bytes = 0;
  int pieces = 1;
  double predicted_s = 0;
  SampleStats measured; // device held until all pieces are issued, as the calibration measures
  SampleStats ungated;  // count 0 when not measured: the device starts as soon as work arrives
  // Pieces smaller than g's domain of validity: shown, but not judged against the target.
  bool outside_domain = false;
  // With both directions busy on a link the profile knows to run at two rates, the repeats of a
  // point that split (two_rate_link.h) are judged by mode: the fast ones against predicted_s (the
  // profile's G is the fast mode's), the slow ones against predicted_slow_s, shown beside.
  SampleStats fast_mode; // count 0: not split
  SampleStats slow_mode;
  double predicted_slow_s = 0; // 0: the profile knows one rate

  double error() const { return (predicted_s - measured.median) / measured.median; }
  bool split() const { return fast_mode.count > 0 && slow_mode.count > 0; }
  // What the target is judged on: the fast mode's error where the repeats split, else error().
  double judged_error() const {
    return split() ? (predicted_s - fast_mode.median) / fast_mode.median : error();
  }
  double slow_mode_error() const {
    return (predicted_slow_s - slow_mode.median) / slow_mode.median;
  }
  double ungated_error() const { return (predicted_s - ungated.median) / ungated.median; }
};

struct AccuracyReport {
  std::string device;
  std::string pcie;
  std::string driver;
  std::string date;
  std::string profile_name;
  double one_way_target = 0.03;       // issue 3; paper 001 reports at most 2.47 %
  double bidirectional_target = 0.05; // issue 3
  std::vector<AccuracyRow> rows;
  std::vector<std::string> notes; // about the measurement, printed with the table
  // The profile's links the rows were predicted from. CaseSummary::form_floor is fitted with
  // their L+o and large-piece boundary; without them it is not fitted.
  std::optional<LinkDirection> host_to_device;
  std::optional<LinkDirection> device_to_host;

  double target(AccuracyCase which) const {
    return is_bidirectional(which) ? bidirectional_target : one_way_target;
  }
};

// Over the points inside g's domain of validity; the points outside are counted apart.
struct CaseSummary {
  AccuracyCase which = AccuracyCase::HostToDevice;
  int points = 0;
  int outside_points = 0;
  double outside_max_abs_error = 0;
  double max_abs_error = 0;
  double mean_abs_error = 0;
  double worst_bytes = 0;
  int worst_pieces = 0;
  double worst_error = 0; // signed: > 0 the model overestimates
  bool within_target = false;
  int ungated_points = 0;
  double ungated_max_abs_error = 0;
  int split_points = 0; // judged on their fast repeats (AccuracyRow::split)
  double slow_mode_max_abs_error = 0;
  double slow_share = 0; // of the repeats of the judged points
  // The largest error of the model's form with the best G and g for these very medians (the
  // profile's L+o and large-piece boundary kept): no calibration, however lucky its window, does
  // better on them. A case whose floor lies above its target misses because the times do not
  // follow the form, not because the calibration measured another state of the link than the
  // check did; a floor well below the case's error says the opposite. Negative: not fitted (the
  // report has no links, or the fit failed).
  double form_floor = -1;
};

// Fills the row's per-mode statistics from its gated repeats when `link` knows a slow
// bidirectional rate and the case has both directions busy.
void split_by_mode(const LinkDirection& link, const std::vector<double>& gated_seconds,
                   AccuracyRow* row);

// One summary per case that has rows, in AccuracyCase order.
std::vector<CaseSummary> summarize_cases(const AccuracyReport& report);
bool meets_targets(const AccuracyReport& report);

std::string accuracy_to_markdown(const AccuracyReport& report);
std::string accuracy_to_json(const AccuracyReport& report);

} // namespace overlap::calibration
